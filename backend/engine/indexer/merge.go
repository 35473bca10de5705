package indexer

import (
	"context"
	"strconv"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// Once the index has grown by a quarter since it was last merged (or was
// never merged) and the queue is idle, the full-text index's segments are
// merged into one, a bounded step at a time (store.MergeStep): searches
// that read long posting lists read one segment instead of a dozen. The
// merge rewrites the full-text tables, so it waits for growth: the writing
// it costs stays within a few times what indexing wrote. Work arriving in
// the queue, a pause or a storage hold stops it after the current step;
// it goes on at the next quiet moment.
const (
	mergeAfter = 2 * time.Second
	mergeEvery = time.Minute
	// mergeMinFiles: a smaller index searches fast in any shape.
	mergeMinFiles = 2000
	mergeGrowth   = 1.25
	// mergePages bounds one step: about a megabyte written, tens of
	// milliseconds holding the writer.
	mergePages = 256
	// mergedKey keeps, in the index, how many files it held when last
	// merged.
	mergedKey = "fts_merged_files"
)

// Merging is the part of the store that merges the full-text index and
// remembers its size when it did.
type Merging interface {
	MergeStep(ctx context.Context, pages int) (bool, error)
	CountIndexed(ctx context.Context) (int64, error)
	Meta(ctx context.Context, key string) (string, bool, error)
	SetMeta(ctx context.Context, key, value string) error
}

// QueueStatus is the queue's status, with whether the index is merging.
func (ix *Indexer) QueueStatus() core.QueueStatus {
	st := ix.queue.Status()
	st.Merging = ix.merging.Load()
	return st
}

// mergeLoop looks for a merge to do soon after start, whenever the queue
// drains, and every mergeEvery.
func (ix *Indexer) mergeLoop(ctx context.Context) {
	every := ix.MergeEvery
	if every <= 0 {
		every = mergeEvery
	}
	t := time.NewTimer(mergeAfter)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-ix.drained:
		}
		ix.safely("indexing older text again", func() { ix.RetokenizeIfDue(ctx) })
		ix.safely("merging the index", func() { ix.MergeIfGrown(ctx) })
		t.Reset(every)
	}
}

// quiet tells whether background work on the index may run: nothing
// queued, no walk writing names (a new folder's queue stays empty while
// its names pass runs, and a merge would take the writer from it), no
// pause (a person's or the scheduler's), the index writable, sound and not
// being rebuilt.
func (ix *Indexer) quiet() bool {
	st := ix.queue.Status()
	_, held := ix.storageHeld()
	_, damaged := ix.Store.Damage()
	return st.Total == 0 && !ix.walking() && !st.Paused && !held && !damaged && !ix.integrity.rebuilding.Load()
}

// walking reports whether a folder's scan is running.
func (ix *Indexer) walking() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, f := range ix.folders {
		if f.scanning > 0 {
			return true
		}
	}
	return false
}

// MergeIfGrown merges the full-text index when it is due and the index is
// quiet; it reports whether it merged the index completely.
func (ix *Indexer) MergeIfGrown(ctx context.Context) bool {
	if !ix.quiet() {
		return false
	}
	n, err := ix.Store.CountIndexed(ctx)
	if err != nil {
		ix.maintenanceFailed(ctx, "cannot merge the index", err)
		return false
	}
	last, err := ix.lastMerged(ctx)
	if err != nil {
		ix.maintenanceFailed(ctx, "cannot merge the index", err)
		return false
	}
	if n < last { // files were removed: growth counts from here
		ix.setMerged(ctx, n)
		return false
	}
	if n < mergeMinFiles || last > 0 && float64(n) < mergeGrowth*float64(last) {
		return false
	}
	ix.merging.Store(true)
	ix.Publish(ix.QueueStatus())
	defer func() {
		ix.merging.Store(false)
		ix.Publish(ix.QueueStatus())
	}()
	start := time.Now()
	steps, done := ix.stepWhileQuiet(ctx, "cannot merge the index", func() (bool, error) { return ix.Store.MergeStep(ctx, mergePages) })
	if !done {
		return false
	}
	ix.setMerged(ctx, n)
	if steps > 0 {
		ix.Log.Info("merged the full-text index", "files", n, "steps", steps, "took", time.Since(start).Round(time.Millisecond))
	}
	return true
}

// stepWhileQuiet runs step until it reports no more work, while the index
// is quiet: work arriving stops it after the current step. It returns the
// steps that found work, and whether it ran to the end; a step's failure
// is told as what failed (maintenanceFailed).
func (ix *Indexer) stepWhileQuiet(ctx context.Context, what string, step func() (bool, error)) (steps int, done bool) {
	for ; ; steps++ {
		if ctx.Err() != nil || !ix.quiet() {
			return steps, false
		}
		more, err := step()
		if err != nil {
			ix.maintenanceFailed(ctx, what, err)
			return steps, false
		}
		if !more {
			return steps, true
		}
	}
}

// maintenanceFailed says what a failed step of background work means: a
// full or failing disk holds the index as any write's failure does; a
// damaged page marks the index damaged, as a search's would; otherwise
// the step is told as what failed.
func (ix *Indexer) maintenanceFailed(ctx context.Context, what string, err error) {
	switch {
	case ix.keepOnStorageError(err) || ctx.Err() != nil:
	case store.IsCorrupt(err):
		ix.Log.Error("the index is damaged", "err", err)
		ix.Damaged(err)
	default:
		ix.Log.Warn(what, "err", err)
	}
}

// lastMerged is the number of files the index held when last merged, 0
// when never (or when the record is not a number).
func (ix *Indexer) lastMerged(ctx context.Context) (int64, error) {
	v, ok, err := ix.Store.Meta(ctx, mergedKey)
	if err != nil || !ok {
		return 0, err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n, nil
}

func (ix *Indexer) setMerged(ctx context.Context, n int64) {
	if err := ix.Store.SetMeta(ctx, mergedKey, strconv.FormatInt(n, 10)); err != nil && !ix.keepOnStorageError(err) && ctx.Err() == nil {
		ix.Log.Warn("cannot record the merge", "err", err)
	}
}
