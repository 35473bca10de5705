package watch

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"trove/internal/poll"
)

type collector struct {
	mu     sync.Mutex
	events []Event
}

func (c *collector) add(e Event) { c.mu.Lock(); c.events = append(c.events, e); c.mu.Unlock() }

// waitFor polls until an event satisfies cond or the deadline passes.
func (c *collector) waitFor(t *testing.T, what string, cond func(Event) bool) Event {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, e := range c.events {
			if cond(e) {
				c.mu.Unlock()
				return e
			}
		}
		c.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %s event; got %+v", what, c.events)
	return Event{}
}

func startWatcher(t *testing.T, dirs ...string) (*Watcher, *collector) {
	t.Helper()
	w, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	c := &collector{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx, c.add, func() {}); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return w, c
}

func TestCreateWriteRemove(t *testing.T) {
	dir := t.TempDir()
	_, c := startWatcher(t, dir)
	p := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "create", func(e Event) bool { return e.Path == p && e.Op&Create != 0 })
	if err := os.WriteFile(p, []byte("xy"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "write", func(e Event) bool { return e.Path == p && e.Op&Write != 0 })
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "remove", func(e Event) bool { return e.Path == p && e.Op&Remove != 0 })
}

func TestRenameCarriesTheOldName(t *testing.T) {
	dir := t.TempDir()
	_, c := startWatcher(t, dir)
	old, neu := filepath.Join(dir, "old name ← \"odd\".txt"), filepath.Join(dir, "new.txt")
	if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "create", func(e Event) bool { return e.Path == old })
	if err := os.Rename(old, neu); err != nil {
		t.Fatal(err)
	}
	e := c.waitFor(t, "create of the new name", func(e Event) bool { return e.Path == neu && e.Op&Create != 0 })
	if e.From != old {
		t.Fatalf("From = %q, want %q", e.From, old)
	}
	c.waitFor(t, "rename of the old name", func(e Event) bool { return e.Path == old && e.Op&Rename != 0 })
}

func TestMoveInFromOutsideHasNoFrom(t *testing.T) {
	outside, dir := t.TempDir(), t.TempDir()
	_, c := startWatcher(t, dir)
	src := filepath.Join(outside, "in.txt")
	if err := os.WriteFile(src, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "in.txt")
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	if e := c.waitFor(t, "create", func(e Event) bool { return e.Path == dst }); e.From != "" {
		t.Fatalf("From = %q for a move from an unwatched folder", e.From)
	}
}

func TestRenamedDirectoryIsForgotten(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	w, c := startWatcher(t, dir, sub)
	if w.Count() != 2 {
		t.Fatalf("count %d", w.Count())
	}
	if err := os.Rename(sub, filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "dir rename", func(e Event) bool { return e.Path == sub && e.Op&Rename != 0 })
	if !poll.Until(5*time.Second, func() bool { return w.Count() == 1 }) {
		t.Fatalf("stale watch kept: count %d", w.Count())
	}
}

func TestAddMissingDirectoryFails(t *testing.T) {
	w, _ := startWatcher(t)
	if err := w.Add(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("want an error")
	}
}

func TestWatchLimit(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	w, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.fsw.Close()
	if err := w.Add(a); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(b); !errors.Is(err, ErrLimit) {
		t.Fatalf("second watch beyond a limit of 1: %v", err)
	}
}

func TestExcludedTreesAreNeitherWatchedNorReported(t *testing.T) {
	root := t.TempDir()
	own := filepath.Join(root, "own")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	w, c := startWatcher(t)
	w.Exclude(own)
	for _, d := range []string{root, own} {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if w.Count() != 1 {
		t.Fatalf("watching %d folders, want only the root", w.Count())
	}
	if err := os.WriteFile(filepath.Join(own, "index.db-wal"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(own); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "after.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "create of after.txt", func(e Event) bool { return e.Path == filepath.Join(root, "after.txt") })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.events {
		if e.Path == own || filepath.Dir(e.Path) == own {
			t.Fatalf("event of an excluded tree delivered: %+v", e)
		}
	}
}
