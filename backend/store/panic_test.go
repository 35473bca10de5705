package store

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// within fails the test when fn does not return within d: a write that
// waits for ever is the failure these tests look for.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %s: the writer is wedged", what, d)
	}
}

// A panic inside a write transaction (SQLite out of memory panics in the
// driver) rolls back, closes that connection instead of reusing it, and
// leaves the writer free for the next write.
func TestAPanicInsideAWriteLeavesTheWriterWhole(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	s.SetWriteHook(func(path string) {
		if path == "/boom.txt" {
			panic("sqlite3: out of memory")
		}
	})
	var err error
	within(t, 10*time.Second, "the panicking write", func() {
		_, err = s.PutDocument(ctx, doc(dirID, "/boom.txt", "never stored"))
	})
	if !errors.Is(err, ErrPanicked) {
		t.Fatalf("the panicking write returned %v, want ErrPanicked", err)
	}
	if n := s.wdb().Stats().OpenConnections; n != 0 {
		t.Errorf("%d writer connections open after the panic, want 0 (the connection that panicked is closed, not reused)", n)
	}
	within(t, 10*time.Second, "the next write", func() {
		_, err = s.PutDocument(ctx, doc(dirID, "/roof.txt", "water came through the ceiling"))
	})
	if err != nil {
		t.Fatalf("the write after the panic: %v", err)
	}
	if _, err := s.FileByPath(ctx, "/boom.txt"); err == nil {
		t.Error("the panicked write left its file in the index")
	}
	if n := count(t, s, "chunks"); n != 1 {
		t.Errorf("chunks = %d, want the one of roof.txt", n)
	}
}

// The transaction's own code may panic too (not only the driver).
func TestAPanicInATransactionsCodeRollsBack(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	var err error
	within(t, 10*time.Second, "the panicking transaction", func() {
		err = s.tx(ctx, func(w *writeTx) error {
			if _, err := w.ExecContext(ctx, `DELETE FROM watched_directories`); err != nil {
				return err
			}
			panic(fmt.Sprintf("a bug after writing in folder %d", dirID))
		})
	})
	if !errors.Is(err, ErrPanicked) {
		t.Fatalf("err = %v, want ErrPanicked", err)
	}
	if _, err := s.Directory(ctx, dirID); err != nil {
		t.Fatalf("the panicked transaction's delete was kept: %v", err)
	}
	within(t, 10*time.Second, "the next write", func() {
		_, err = s.PutDocument(ctx, doc(dirID, "/roof.txt", "water"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Writes committed together (group commit): the one that panics fails
// alone, and every writer is answered.
func TestAPanicFailsOnlyItsOwnFileInAGroupCommit(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	s.SetWriteHook(func(path string) {
		if path == "/f3.txt" {
			panic("out of memory")
		}
	})
	errs := make([]error, 8)
	within(t, 20*time.Second, "eight concurrent writes", func() {
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = s.PutDocument(ctx, doc(dirID, fmt.Sprintf("/f%d.txt", i), "words"))
			})
		}
		wg.Wait()
	})
	for i, err := range errs {
		if want := i == 3; errors.Is(err, ErrPanicked) != want || (!want && err != nil) {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if n := count(t, s, "files"); n != 7 {
		t.Errorf("files = %d, want 7", n)
	}
}
