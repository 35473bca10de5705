package indexer

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trove/backend/core"
	"trove/backend/engine/filters"
	"trove/backend/engine/settings"
	"trove/backend/store"
)

// A folder watched in the instant Trove starts letting requests in is
// scanned once, by its Watch. Run used to take the list of folders to
// reconcile after that instant, so such a folder was scanned a second
// time, in the background: that scan queued its files with no cooldown,
// and a file being written then was indexed twice.
func TestAFolderWatchedAsTroveStartsIsScannedOnce(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	flt, err := filters.Open(t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := New(Deps{Store: st, Filters: flt, Settings: settings.Defaults, Publish: func(core.EventData) {}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hot.txt"), []byte("being written"), 0o644); err != nil {
		t.Fatal(err)
	}
	var started []int64 // only Run's goroutine appends, before Run returns
	ix.onStartScan = func(id int64) { started = append(started, id) }
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	watched := make(chan int64, 1)
	ix.afterReady = func() {
		d, _, err := ix.Watch(ctx, root, Options{Recursive: true})
		if err != nil {
			t.Error(err)
		}
		watched <- d.ID
	}
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	id := <-watched
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if slices.Contains(started, id) {
		t.Errorf("Run scanned folder %d again after its Watch had scanned it (start scans: %v)", id, started)
	}
}
