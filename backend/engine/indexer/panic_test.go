package indexer

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"trove/internal/poll"

	"trove/backend/core"
	"trove/backend/engine/filters"
	"trove/backend/engine/scan"
	"trove/backend/engine/settings"
	"trove/backend/store"
)

// A panic inside a background scan must become that folder's error, with
// the process alive and the indexer usable, not end Trove.
func TestPanickingScanBecomesTheFoldersError(t *testing.T) {
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
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := st.AddDirectory(ctx, root, true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ix.register(d)
	ix.onScanEntry = func(scan.Entry) { panic("scan went wrong") }

	ix.goRescan(ctx, d.ID, false)
	poll.Eventually(t, 10*time.Second, "the folder to show the scan's failure", func() bool { return ix.Status(d).Status == core.DirError })
	if got := ix.Status(d); !strings.Contains(got.StatusMessage, "scan went wrong") {
		t.Fatalf("the folder's message must carry the failure: %q", got.StatusMessage)
	}
	// The next scan, without the fault, clears the error.
	ix.onScanEntry = nil
	if _, err := ix.rescan(ctx, d.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := ix.Status(d); got.Status == core.DirError {
		t.Fatalf("still in error after a clean scan: %+v", got)
	}
}
