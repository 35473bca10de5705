package indexer

import (
	"context"
	"time"
)

// When Trove changes how text becomes index terms, the text an older
// Trove indexed is written again at quiet moments, as merges are, a
// bounded step at a time (store.RetokenizeStep); searches find every file
// meanwhile. Work arriving in the queue stops it after the current step;
// it goes on at the next quiet moment, where it stopped.

// retokenizeFiles is how many files a step writes again. A step holds
// the writer while it tells each file's language and indexes its text
// (800 manual pages took 8.7 s, about 10 ms a file), so work arriving
// waits for at most about a tenth of a second.
const retokenizeFiles = 10

// Retokenizing is the part of the store that writes old text again.
type Retokenizing interface {
	Retokenizing() bool
	RetokenizeStep(ctx context.Context, n int) (bool, error)
}

// RetokenizeIfDue writes the old text again while the index is quiet; it
// reports whether it wrote the last of it.
func (ix *Indexer) RetokenizeIfDue(ctx context.Context) bool {
	if !ix.Store.Retokenizing() || !ix.quiet() {
		return false
	}
	start := time.Now()
	steps, done := ix.stepWhileQuiet(ctx, "cannot index older text again", func() (bool, error) {
		return ix.Store.RetokenizeStep(ctx, retokenizeFiles)
	})
	if !done {
		return false
	}
	ix.Log.Info("indexed the text of older files again", "steps", steps+1, "took", time.Since(start).Round(time.Millisecond))
	// Every row was written anew, the old ones deleted: a merge is due.
	ix.setMerged(ctx, 0)
	return true
}
