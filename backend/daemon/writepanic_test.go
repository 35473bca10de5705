package daemon_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"trove/internal/testserver"
)

// A panic inside the index's write transaction (what SQLite running out of
// memory raises) fails that file alone, with its reason: the others are
// indexed, a folder watched afterwards is indexed, and Trove stops as it
// should. Before, the writer stayed taken for good: nothing was indexed
// again, watching hung and stopping did not finish.
func TestAPanicInAWriteFailsOnlyThatFile(t *testing.T) {
	var panics atomic.Int32
	s := testserver.Start(t, testserver.WithWriteHook(func(path string) {
		if filepath.Base(path) == "huge.txt" {
			panics.Add(1)
			panic("sqlite3: out of memory")
		}
	}))
	first := t.TempDir()
	testserver.WriteFiles(t, first, "huge.txt", "words that never fit", "a.txt", "alpha notes", "b.txt", "beta notes")
	s.IndexDir(first, 3)
	f := s.Folder(first)
	if f["indexed_count"] != float64(2) || f["failed_count"] != float64(1) {
		t.Fatalf("folder after the panic: %v, want 2 indexed and 1 failed", f)
	}
	r := s.Get("/api/watched-directories/" + itoa(f["id"]) + "/problems")
	if !strings.Contains(string(r.Body), "huge.txt") || !strings.Contains(string(r.Body), "out of memory") {
		t.Errorf("the failed file's reason is not given: %s", r.Body)
	}
	// Once, or twice when it was committed with others: a batch that
	// fails is written again file by file. Never through the queue's
	// retries: the same write would fail the same way.
	if n := panics.Load(); n < 1 || n > 2 {
		t.Errorf("the panicking write ran %d times, want once, or twice in a batch", n)
	}

	second := t.TempDir()
	testserver.WriteFiles(t, second, "c.txt", "gamma notes")
	s.IndexDir(second, 1)
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "gamma"}); !strings.Contains(string(r.Body), "c.txt") {
		t.Errorf("a file watched after the panic is not found: %s", r.Body)
	}

	stopped := make(chan struct{})
	go func() { s.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(40 * time.Second):
		t.Fatal("Trove did not stop after a write panicked")
	}
}

func itoa(v any) string {
	f, _ := v.(float64)
	return fmt.Sprint(int64(f))
}
