package indexer

import (
	"context"
	"os"
	"time"

	"trove/backend/queue"
	"trove/backend/scan"
	"trove/backend/watch"
)

// onEvent routes one file-system event. It runs on the watcher's goroutine,
// so anything slow (scanning a new folder, moving a tree) goes elsewhere.
func (ix *Indexer) onEvent(ev watch.Event) {
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
		ix.newDir(f, ev)
	case ev.Op&watch.Create != 0 && ev.From != "":
		if _, ok := ix.folderOf(ev.From); ok && ix.wanted(f, ev.Path) {
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

// wanted is the cheap filter check done before queueing an event; the
// pipeline checks again when it runs.
func (ix *Indexer) wanted(f folder, path string) bool {
	rel := scan.Rel(f.Root, path)
	if !f.Recursive && containsSlash(rel) {
		return false
	}
	return !ix.own.covers(path) && ix.Filters.Matcher().Allow(path, rel) && scan.MatchesPattern(f.Pattern, path, rel)
}

func containsSlash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return true
		}
	}
	return false
}

// newDir handles a folder that appeared: renamed from inside a watched tree
// (its indexed files move without re-extraction), or new (scanned, and its
// files queued with the cooldown, since they may still be being written).
func (ix *Indexer) newDir(f folder, ev watch.Event) {
	if !f.Recursive {
		return
	}
	rel := scan.Rel(f.Root, ev.Path)
	if ix.own.covers(ev.Path) || ix.Filters.Matcher().SkipDir(ev.Path, rel) {
		return
	}
	if ev.From != "" {
		ix.queue.Forget(ev.From)
	}
	ix.goSafe("new folder "+ev.Path, func() {
		ctx := ix.ctx
		if ev.From != "" {
			src, ok := ix.folderOf(ev.From)
			if pf, watched := ix.Folder(f.ID); ok && watched && src.ID == f.ID {
				if _, err := ix.Pipeline.MoveTree(ctx, pf, ev.From, ev.Path); err != nil {
					ix.Log.Warn("cannot move folder in the index", "from", ev.From, "to", ev.Path, "err", err)
				}
			}
		}
		ix.scanSubtree(ctx, f, ev.Path)
	})
}

// scanSubtree watches and queues everything below a new folder.
func (ix *Indexer) scanSubtree(ctx context.Context, f folder, dir string) {
	ix.scanStarted(f.ID)
	defer ix.scanDone(f.ID)
	cooldown := ix.queue.Cooldown()
	var events []queue.Event
	err := scan.Walk(ctx, dir, ownMatcher{subtreeMatcher{ix.Filters.Matcher(), f.Root}, ix.own}, scan.Options{
		Recursive: true, FilePattern: f.Pattern,
		Dir: func(d string) error { return ix.addWatch(f.ID, d) },
	}, func(e scan.Entry) {
		events = append(events, queue.Event{Path: e.Path, Action: queue.ActionIndex, DirID: f.ID, Cooldown: cooldown, Persist: true})
	})
	if err != nil && ctx.Err() == nil {
		ix.Log.Warn("cannot scan new folder", "dir", dir, "err", err)
	}
	ix.queue.EnqueueAll(events)
}

// subtreeMatcher applies the filters relative to the watched root while
// walking a folder below it.
type subtreeMatcher struct {
	m interface {
		Allow(abs, rel string) bool
		SkipDir(abs, rel string) bool
	}
	root string
}

func (s subtreeMatcher) Allow(abs, _ string) bool   { return s.m.Allow(abs, scan.Rel(s.root, abs)) }
func (s subtreeMatcher) SkipDir(abs, _ string) bool { return s.m.SkipDir(abs, scan.Rel(s.root, abs)) }

// onOverflow: the kernel dropped events, so trust the disk instead.
func (ix *Indexer) onOverflow() {
	ix.RescanAll(false)
}

func isDir(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.IsDir()
}
