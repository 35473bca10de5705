package indexer

import (
	"cmp"
	"context"
	"slices"
	"time"

	"trove/backend/core"
	"trove/backend/engine/queue"
	"trove/backend/store"
)

// The content pass reads the files the names pass recorded, most recently
// modified first (what people look for). The index is its backlog: the
// pending files wait there, and the queue holds a window of them at a
// time, so that a million files never sit in memory as queue items and a
// restart goes on where it was.
const (
	contentWindow = 2048                   // content items queued at most
	feedEvery     = 250 * time.Millisecond // how often the window is topped up
)

// namesFirstAfter is how many files a new folder's walk records before
// its content pass waits for the walk to end.
const namesFirstAfter = 20_000

// namesWait reports whether the folder's content waits for its walk. A
// large new folder's content waits for the end of its first walk, past
// its first namesFirstAfter files: the names pass then has the writer and
// the cores to itself, and every name is findable sooner (a million in
// half the time). A small folder's content starts at once, as its walk
// ends in seconds anyway; a folder walked before (Trove restarted) goes
// on with its backlog while the walk checks it.
func (f *folder) namesWait() bool { return f.namesFirst && f.namesAdded >= namesFirstAfter }

// Pending is the part of the store the content pass reads its work from.
type Pending interface {
	PendingFiles(ctx context.Context, dirID int64, limit int) ([]store.Pending, error)
}

// wantContent wakes the content pass (new names were written).
func (ix *Indexer) wantContent() {
	select {
	case ix.feedWanted <- struct{}{}:
	default:
	}
}

// contentLoop tops the queue's window of content items up until ctx ends.
func (ix *Indexer) contentLoop(ctx context.Context) {
	t := time.NewTicker(feedEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-ix.feedWanted:
		}
		ix.safely("the content pass", func() { ix.feed(ctx) })
	}
}

// feed hands the queue the newest pending files of every folder that
// reads content and is there, up to the window. While the queue is paused
// or held nothing is handed over: the pass waits where it is.
func (ix *Indexer) feed(ctx context.Context) {
	if _, held := ix.storageHeld(); held || ix.queue.Paused() {
		return
	}
	room := contentWindow - ix.queue.Len()
	if room < contentWindow/2 {
		return
	}
	type candidate struct {
		dir int64
		store.Pending
	}
	var all []candidate
	more := map[int64]bool{}
	for _, f := range ix.snapshot() {
		if f.NamesOnly || f.offline || f.status == core.DirError || f.namesWait() {
			continue
		}
		rows, err := ix.Store.PendingFiles(ctx, f.ID, contentWindow)
		if err != nil {
			if ctx.Err() == nil && !ix.keepOnStorageError(err) {
				ix.Log.Warn("cannot read the files waiting for their content", "folder", f.Root, "err", err)
			}
			return
		}
		more[f.ID] = len(rows) == contentWindow
		for _, p := range rows {
			all = append(all, candidate{f.ID, p})
		}
	}
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.ModNs, a.ModNs) })
	evs := make([]queue.Event, len(all))
	for i, c := range all {
		evs[i] = queue.Event{Path: c.Path, Action: queue.ActionIndex, DirID: c.dir}
	}
	_, used := ix.queue.Offer(evs, room)
	for _, c := range all[used:] {
		more[c.dir] = true // left for the next round
	}
	ix.setBacklog(more)
}

// setBacklog records which folders have pending files not yet queued,
// which keeps them "indexing" while their queue is empty for a moment.
func (ix *Indexer) setBacklog(more map[int64]bool) {
	var changed []int64
	ix.mu.Lock()
	for id, f := range ix.folders {
		if f.backlog != more[id] {
			f.backlog = more[id]
			changed = append(changed, id)
		}
	}
	ix.mu.Unlock()
	for _, id := range changed {
		ix.refresh(id)
	}
}
