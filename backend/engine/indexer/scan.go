package indexer

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"trove/backend/core"
	"trove/backend/engine/queue"
	"trove/backend/engine/scan"
	"trove/backend/store"
)

var errEOF = io.EOF

// rescan reconciles a folder with the disk: it (re)adds live watches, queues
// new and changed files (every indexed file when all is set), and queues
// removal of indexed files that are gone. Files that are still on disk but
// now excluded by the filters are left for the filters' own clean-up, so
// that apply_immediately=false keeps its promise. It returns the number of
// files found.
func (ix *Indexer) rescan(ctx context.Context, id int64, all bool) (int, error) {
	f, ok := ix.folderByID(id)
	if !ok {
		return 0, nil
	}
	ix.scanStarted(id)
	defer ix.scanDone(id)
	records, err := ix.Store.DirRecords(ctx, id)
	if err != nil {
		return 0, err
	}
	var events []queue.Event
	seen := make(map[string]bool, len(records))
	found := 0
	err = scan.Walk(ctx, f.admits(), f.Root, ownMatcher{ix.Filters.Matcher(), ix.own}, scan.Options{
		Dir:      func(dir string) error { return ix.addWatch(id, dir) },
		DirError: func(dir string, err error) { ix.Log.Warn("cannot scan folder", "dir", dir, "err", err) },
	}, func(e scan.Entry) {
		if ix.onScanEntry != nil {
			ix.onScanEntry(e)
		}
		found++
		seen[e.Path] = true
		rec, known := records[e.Path]
		changed := !known || rec.Size != e.Size || rec.ModNs != e.ModNs
		// A failure that was the index's disk, not the file, is retried.
		storageFailed := known && rec.State == core.StateFailed && store.IsStorageReason(rec.Error)
		if changed || storageFailed || all && rec.State == core.StateIndexed {
			events = append(events, queue.Event{Path: e.Path, Action: queue.ActionIndex, DirID: id})
		}
	})
	if err != nil {
		if ctx.Err() == nil {
			ix.setError(id, err)
		}
		return found, err
	}
	for path := range records {
		if !seen[path] && (!exists(path) || ix.own.covers(path)) {
			events = append(events, queue.Event{Path: path, Action: queue.ActionDelete, DirID: id})
		}
	}
	ix.clearError(id)
	// Queued first: the work must not depend on the index being writable.
	ix.enqueueWalked(id, events)
	if err := ix.Store.SetDirectoryScanned(ctx, id, int64(found), time.Now()); err != nil && !ix.keepOnStorageError(err) {
		return found, err
	}
	return found, nil
}

// goRescan runs rescan in the background. A panic in the scan becomes the
// folder's error (checked again every pollEvery), not the process's end.
func (ix *Indexer) goRescan(ctx context.Context, id int64, all bool) {
	ix.background.Go(func() {
		var err error
		if perr := ix.safely("scan", func() { _, err = ix.rescan(ctx, id, all) }); perr != nil {
			ix.setErrorMessage(id, fmt.Sprintf("scanning failed with an internal error (%v); Trove tries again every %v", perr, pollEvery))
			return
		}
		if err != nil && ctx.Err() == nil {
			ix.Log.Warn("rescan failed", "folder", id, "err", err)
		}
	})
}

// enqueueWalked queues what a walk of folder id found, unless the folder
// was unwatched while the walk ran: its items would wait under an id no
// longer watched, and merge with the items of a folder watched there
// again. (The few that slip in between this check and the queue are
// processed in the folder that holds their path then: folderFor.)
func (ix *Indexer) enqueueWalked(id int64, events []queue.Event) {
	if _, ok := ix.folderByID(id); ok {
		ix.queue.EnqueueAll(events)
	}
}

func (ix *Indexer) folderByID(id int64) (folder, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	f, ok := ix.folders[id]
	if !ok {
		return folder{}, false
	}
	return *f, true
}

// exists reports whether something may still be at path: only a path that
// is surely gone is dropped from the index (an unreadable one is kept).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return !scan.Gone(err)
}
