package indexer

import (
	"context"
	"fmt"

	"trove/backend/core"
	"trove/backend/store"
)

// namesBatch is how many files the names pass writes a transaction:
// thousands, so that a million names take a minute rather than an hour.
const namesBatch = 4096

// Names is the part of the store the names pass writes to.
type Names interface {
	PutNames(ctx context.Context, names []store.Name) (int, error)
}

// namesWriter is the names pass of one scan: the walk adds each new file
// it finds, and a goroutine of the writer's writes them, a batch a
// transaction, while the walk goes on. Every batch written makes its
// files findable by name and wakes the content pass.
type namesWriter struct {
	ix     *Indexer
	id     int64
	batch  []store.Name
	ch     chan []store.Name
	done   chan struct{}
	err    error // the first write that failed; later batches are dropped
	added  int
	closed bool
}

func (ix *Indexer) newNamesWriter(ctx context.Context, id int64) *namesWriter {
	w := &namesWriter{ix: ix, id: id, ch: make(chan []store.Name, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for b := range w.ch {
			if w.err != nil {
				continue
			}
			if perr := core.Safe(func() { w.write(ctx, b) }); perr != nil {
				w.err = fmt.Errorf("names pass: %w", perr)
			}
		}
	}()
	return w
}

func (w *namesWriter) write(ctx context.Context, b []store.Name) {
	n, err := w.ix.Store.PutNames(ctx, b)
	if err != nil {
		w.err = err
		return
	}
	w.added += n
	w.ix.namesWritten(w.id, n)
}

// add takes one new file; a full batch goes to the writer.
func (w *namesWriter) add(n store.Name) {
	w.batch = append(w.batch, n)
	if len(w.batch) >= namesBatch {
		w.ch <- w.batch
		w.batch = make([]store.Name, 0, namesBatch)
	}
}

// close writes what is left and waits for the writer; it returns the
// first write's failure. Closing again does nothing (a walk that panicked
// closes it on the way out).
func (w *namesWriter) close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if len(w.batch) > 0 {
		w.ch <- w.batch
		w.batch = nil
	}
	close(w.ch)
	<-w.done
	return w.err
}

// namesWritten counts a batch into the folder's names pass and tells the
// content pass there is work.
func (ix *Indexer) namesWritten(id int64, n int) {
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.namesAdded += int64(n)
		f.names.observe(f.namesAdded)
	}
	ix.mu.Unlock()
	ix.wantContent()
	ix.refresh(id)
}
