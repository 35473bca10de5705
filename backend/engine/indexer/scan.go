package indexer

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"time"

	"trove/backend/core"
	"trove/backend/engine/pipeline"
	"trove/backend/engine/queue"
	"trove/backend/engine/scan"
	"trove/backend/platform/fileread"
	"trove/backend/store"
)

var errEOF = io.EOF

// Stamps is what a rescan reads of the files the index holds below a
// folder: a stream of stamps, never the whole folder's records at once.
type Stamps interface {
	EachStamp(ctx context.Context, dirID int64, fn func(store.Stamp)) error
	PathsOf(ctx context.Context, ids []int64) ([]string, error)
}

// known is one file the index holds, as a rescan compares it. Files are
// keyed by a hash of their path: a million paths held as strings would
// cost a few hundred megabytes for the length of a scan.
type known struct {
	id            int64
	size, modNs   int64
	inode         uint64
	state         string
	storageFailed bool
	seen          bool
}

var pathSeed = maphash.MakeSeed()

func pathKey(p string) uint64 { return maphash.String(pathSeed, p) }

// rescan reconciles a folder with the disk: it (re)adds live watches,
// records every new file by name at once (the names pass, thousands a
// transaction, while the walk goes on; their content follows, see
// content.go), queues changed files (every indexed file when all is
// set), and queues removal of indexed files that are gone. A file is
// changed when its size, time or (where the file system keeps them)
// inode differ: nothing is read to tell. Files that are still on disk but
// now excluded by the filters are left for the filters' own clean-up, so
// that apply_immediately=false keeps its promise. A folder whose drive or
// share is not there is marked offline instead, and nothing of it is
// removed. It returns the number of files found.
func (ix *Indexer) rescan(ctx context.Context, id int64, all bool) (int, error) {
	f, ok := ix.folderByID(id)
	if !ok || f.offline {
		return 0, nil // an offline folder is rescanned when it returns
	}
	if there, why := presence(f); !there {
		ix.setOffline(id, why)
		return 0, nil
	}
	ix.scanStarted(id)
	defer ix.scanDone(id)
	ix.setCounting(id, true)
	defer ix.setCounting(id, false)
	records := map[uint64]*known{}
	err := ix.Store.EachStamp(ctx, id, func(st store.Stamp) {
		records[pathKey(st.Path)] = &known{id: st.ID, size: st.Size, modNs: st.ModNs, inode: st.Inode, state: st.State,
			storageFailed: st.StorageFailed}
	})
	if err != nil {
		return 0, err
	}
	pf := ix.pipelineFolder(&f)
	inodes := f.fs.StableInodes
	names := ix.newNamesWriter(ctx, id)
	defer names.close() // its goroutine ends even if the walk panics
	var events []queue.Event
	found := 0
	err = scan.Walk(ctx, f.admits(), f.Root, ownMatcher{ix.Filters.Matcher(), ix.own}, scan.Options{
		Dir:      func(dir string) error { return ix.addWatch(id, dir) },
		DirError: func(dir string, err error) { ix.Log.Warn("cannot scan folder", "dir", dir, "err", err) },
	}, func(e scan.Entry) {
		if ix.onScanEntry != nil {
			ix.onScanEntry(e)
		}
		found++
		rec := records[pathKey(e.Path)]
		if rec == nil {
			names.add(pipeline.NameOf(pf, e.Path, e.Info))
			return
		}
		rec.seen = true
		changed := rec.size != e.Size || rec.modNs != e.ModNs || inodes && rec.inode != 0 && rec.inode != inodeOf(e)
		if changed || rec.storageFailed || all && rec.state == core.StateIndexed {
			events = append(events, queue.Event{Path: e.Path, Action: queue.ActionIndex, DirID: id})
		}
	})
	if werr := names.close(); werr != nil && err == nil && !ix.keepOnStorageError(werr) {
		err = werr
	}
	if err != nil {
		if ctx.Err() == nil {
			ix.lost(id, err)
		}
		return found, err
	}
	gone, err := ix.vanished(ctx, f, records)
	if err != nil {
		return found, err
	}
	events = append(events, gone...)
	ix.clearError(id)
	// Queued first: the work must not depend on the index being writable.
	ix.enqueueWalked(id, events)
	ix.wantContent()
	if err := ix.Store.SetDirectoryScanned(ctx, id, int64(found), time.Now()); err != nil && !ix.keepOnStorageError(err) {
		return found, err
	}
	return found, nil
}

// vanished lists the removals of the files the walk did not find that
// are surely gone. When the folder's file system went away during the
// walk, none is: the folder is offline, not emptied.
func (ix *Indexer) vanished(ctx context.Context, f folder, records map[uint64]*known) ([]queue.Event, error) {
	var ids []int64
	for _, r := range records {
		if !r.seen {
			ids = append(ids, r.id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if there, why := presence(f); !there {
		ix.setOffline(f.ID, why)
		return nil, nil
	}
	paths, err := ix.Store.PathsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	var events []queue.Event
	for _, path := range paths {
		if !mayBeAFile(path) || ix.own.covers(path) {
			events = append(events, queue.Event{Path: path, Action: queue.ActionDelete, DirID: f.ID})
		}
	}
	return events, nil
}

// lost puts a folder whose walk failed offline when its drive or share
// went, or in error otherwise.
func (ix *Indexer) lost(id int64, err error) {
	if f, ok := ix.folderByID(id); ok {
		if there, why := presence(f); !there {
			ix.setOffline(id, why)
			return
		}
	}
	ix.setError(id, err)
}

func inodeOf(e scan.Entry) uint64 {
	_, ino := fileread.Identity(e.Info)
	return ino
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

// mayBeAFile reports whether a file the walk did not find may still be
// one to keep: a regular file there (one the filters now exclude, left
// for the filters' own clean-up) or a path that cannot be looked at (an
// unreadable one is kept). A path that is gone, or is now a link, a
// folder or another kind of file, goes: its removal looks at the disk
// again, and indexes a folder's files.
func mayBeAFile(path string) bool {
	info, err := os.Lstat(path)
	if err != nil {
		return !scan.Gone(err)
	}
	return info.Mode().IsRegular()
}
