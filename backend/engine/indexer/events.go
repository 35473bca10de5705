package indexer

import (
	"context"
	"os"
	"time"

	"trove/backend/engine/queue"
	"trove/backend/engine/scan"
	"trove/backend/engine/watch"
)

// onEvent routes one file-system event. It runs on the watcher's goroutine,
// so anything slow (scanning a new folder, moving a tree) goes elsewhere.
// Paths in Trove's own folders stop here, so nothing below checks them.
func (ix *Indexer) onEvent(ctx context.Context, ev watch.Event) {
	ix.Log.Debug("file event", "path", ev.Path, "op", ev.Op, "from", ev.From)
	f, ok := ix.folderOf(ev.Path)
	if !ok || ix.own.covers(ev.Path) {
		return
	}
	if ev.Path == f.Root {
		if ev.Op&(watch.Remove|watch.Rename) != 0 {
			ix.setError(f.ID, os.ErrNotExist)
		}
		return
	}
	cooldown := ix.queue.Cooldown()
	switch {
	case ev.Op&(watch.Remove|watch.Rename) != 0:
		ix.queue.Enqueue(queue.Event{Path: ev.Path, Action: queue.ActionDelete, DirID: f.ID,
			Cooldown: max(cooldown, deleteHold), Persist: true})
	case ev.Op&watch.Create != 0 && isDir(ev.Path):
		ix.newDir(ctx, f, ev)
	case ev.Op&watch.Create != 0 && ev.From != "":
		// A rename inside one watched folder moves the record. From another
		// watched folder it is a removal there (queued with the old name's
		// Rename event) and a new file here, which adopts the old record by
		// its content: each half stays with its own folder, so unwatching
		// one of them cannot lose the other's half.
		if src, ok := ix.folderOf(ev.From); ok && src.ID == f.ID && ix.wanted(f, ev.Path) {
			ix.queue.Enqueue(queue.Event{Path: ev.From, Dest: ev.Path, Action: queue.ActionMove, DirID: f.ID,
				Cooldown: cooldown, Persist: true})
			return
		}
		ix.queueIndex(f, ev.Path, cooldown)
	default:
		ix.queueIndex(f, ev.Path, cooldown)
	}
}

func (ix *Indexer) queueIndex(f folder, path string, cooldown time.Duration) {
	if ix.wanted(f, path) {
		ix.queue.Enqueue(queue.Event{Path: path, Action: queue.ActionIndex, DirID: f.ID, Cooldown: cooldown, Persist: true})
	}
}

// wanted is the folder's rule (scan.Folder.Admits), checked before a
// change is queued; the pipeline asks it again when it runs.
func (ix *Indexer) wanted(f folder, path string) bool {
	return f.admits().Admits(ix.Filters.Matcher(), path)
}

// newDir handles a folder that appeared: renamed from inside a watched tree
// (its indexed files move without re-extraction), or new (scanned, and its
// files queued with the cooldown, since they may still be being written).
func (ix *Indexer) newDir(ctx context.Context, f folder, ev watch.Event) {
	if !f.Recursive {
		return
	}
	rel := scan.Rel(f.Root, ev.Path)
	if ix.Filters.Matcher().SkipDir(ev.Path, rel) {
		return
	}
	// Within one watched folder the records move with the folder, so the
	// removal queued for its old name is moot. From another watched folder
	// the removal stays: it drops what the new folder's scan does not adopt
	// (failed files, say). While the records move, nothing at or below
	// either name is processed: a worker still indexing an old name would
	// write it back after the move, and a new file at an old name would be
	// moved with the rest.
	moveTree := func(context.Context) {}
	if src, ok := ix.folderOf(ev.From); ok && ev.From != "" && src.ID == f.ID {
		ix.queue.Forget(ev.From)
		wait, release := ix.queue.HoldTree(ev.From, ev.Path)
		moveTree = func(ctx context.Context) {
			defer release()
			if wait(ctx) != nil {
				return
			}
			pf, watched := ix.Folder(f.ID)
			if !watched {
				return
			}
			if _, err := ix.Pipeline.MoveTree(ctx, pf, ev.From, ev.Path); err != nil {
				ix.Log.Warn("cannot move folder in the index", "from", ev.From, "to", ev.Path, "err", err)
			}
		}
	}
	ix.goSafe("new folder "+ev.Path, func() {
		moveTree(ctx)
		ix.scanSubtree(ctx, f, ev.Path)
	})
}

// scanSubtree watches and queues everything below a new folder.
func (ix *Indexer) scanSubtree(ctx context.Context, f folder, dir string) {
	ix.scanStarted(f.ID)
	defer ix.scanDone(f.ID)
	cooldown := ix.queue.Cooldown()
	var events []queue.Event
	err := scan.Walk(ctx, f.admits(), dir, ownMatcher{ix.Filters.Matcher(), ix.own}, scan.Options{
		Dir: func(d string) error { return ix.addWatch(f.ID, d) },
	}, func(e scan.Entry) {
		events = append(events, queue.Event{Path: e.Path, Action: queue.ActionIndex, DirID: f.ID, Cooldown: cooldown, Persist: true})
	})
	if err != nil && ctx.Err() == nil {
		ix.Log.Warn("cannot scan new folder", "dir", dir, "err", err)
	}
	ix.enqueueWalked(f.ID, events)
}

// onOverflow: the kernel dropped events, so trust the disk instead.
func (ix *Indexer) onOverflow() {
	ix.RescanAll(false)
}

func isDir(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.IsDir()
}
