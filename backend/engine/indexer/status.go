package indexer

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"trove/backend/core"
)

func (ix *Indexer) scanStarted(id int64) {
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.scanning++
	}
	ix.mu.Unlock()
	ix.refresh(id)
}

// setCounting marks the walk of a whole folder, whose names pass has no
// known total until the walk ends.
func (ix *Indexer) setCounting(id int64, on bool) {
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.counting = on
		if !on {
			f.lastScan = time.Now()
			f.namesFirst = false
		}
	}
	ix.mu.Unlock()
	if !on {
		ix.wantContent()
	}
}

func (ix *Indexer) scanDone(id int64) {
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.scanning--
	}
	ix.mu.Unlock()
	ix.refresh(id)
}

func (ix *Indexer) setError(id int64, err error) {
	msg := "folder cannot be read: " + err.Error()
	if errors.Is(err, fs.ErrNotExist) {
		msg = "folder no longer exists; Trove checks for its return every " + pollEvery.String()
	}
	ix.Log.Warn("folder unavailable", "folder", id, "err", err)
	ix.setErrorMessage(id, msg)
}

// setErrorMessage puts a folder in error with msg until its next scan
// succeeds.
func (ix *Indexer) setErrorMessage(id int64, msg string) {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	if ok {
		f.status, f.message = core.DirError, msg
	}
	ix.mu.Unlock()
	if ok {
		ix.watcher.RemoveTree(f.Root)
		ix.persistStatus(id)
	}
}

func (ix *Indexer) clearError(id int64) {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	wasError := ok && f.status == core.DirError
	if wasError {
		f.status, f.message = core.DirIndexing, ""
	}
	ix.mu.Unlock()
	if wasError {
		ix.refresh(id)
	}
}

// refresh recomputes a folder's status: error until its root is back;
// indexing while it is scanned or has queued work; then watching, or
// complete when changes are found by periodic rescans instead of live.
func (ix *Indexer) refresh(id int64) {
	ix.mu.Lock()
	// The count is read under the lock that orders the refreshes: read
	// before it, a worker's refresh could count the last item still queued,
	// lose the race for the lock to the refresh of the worker that took
	// that item out, and leave the folder "indexing" with nothing queued.
	pending := ix.queue.Pending(id)
	f, ok := ix.folders[id]
	if !ok || f.status == core.DirError {
		ix.mu.Unlock()
		return
	}
	next := core.DirWatching
	switch {
	case f.scanning > 0 || pending > 0 || f.backlog:
		next = core.DirIndexing
	case f.polling:
		next = core.DirComplete
	}
	changed := next != f.status
	f.status = next
	progress := next == core.DirIndexing && time.Since(f.lastProgress) >= max(progressEvery, f.progressGap) || changed
	if progress {
		f.lastProgress = time.Now()
	}
	ix.mu.Unlock()
	if changed {
		ix.persistStatus(id)
	}
	if progress {
		ix.publishProgress(id)
	}
}

// persistStatus saves a folder's status and publishes it. Reading the
// counts and publishing them happen under one lock, so that with several
// workers a later event never carries older counts than an earlier one.
func (ix *Indexer) persistStatus(id int64) {
	ix.pubMu.Lock()
	defer ix.pubMu.Unlock()
	ix.mu.Lock()
	f, ok := ix.folders[id]
	if !ok {
		ix.mu.Unlock()
		return
	}
	status, msg := f.status, f.message
	ix.mu.Unlock()
	if _, held := ix.storageHeld(); !held {
		err := ix.Store.SetDirectoryStatus(context.Background(), id, status, msg, time.Now())
		if err != nil && !ix.keepOnStorageError(err) {
			ix.Log.Warn("cannot save folder status", "folder", id, "err", err)
		}
	}
	d, err := ix.Store.Directory(context.Background(), id)
	if err == nil {
		ix.Publish(core.FolderStatusOf(ix.Status(d)))
	}
}

func (ix *Indexer) publishProgress(id int64) {
	ix.pubMu.Lock()
	defer ix.pubMu.Unlock()
	pending := ix.queue.Pending(id) // read now, under the lock, like the counts
	start := time.Now()
	d, err := ix.Store.Directory(context.Background(), id)
	if err != nil {
		return
	}
	// Counting a million files' states takes a tenth of a second: the
	// next progress waits twenty times what this one cost, so that
	// telling the progress never takes more than a twentieth of a core.
	gap := 20 * time.Since(start)
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.progressGap = gap
	}
	ix.mu.Unlock()
	d = ix.Status(d)
	ix.Publish(core.ScanProgress{ID: id, Path: d.Path, Status: d.Status, FileCount: d.FileCount,
		IndexedCount: d.IndexedCount, FailedCount: d.FailedCount, ProblemCount: d.ProblemCount, Pending: pending, PendingCount: d.PendingCount})
}

// Status overlays the live status onto a stored folder record. While the
// index cannot be written, every folder shows that: none of them can make
// progress.
func (ix *Indexer) Status(d core.WatchedDirectory) core.WatchedDirectory {
	paused := ix.queue.Paused()
	msg, held := ix.storageHeld()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	f, ok := ix.folders[d.ID]
	if !ok {
		// Not loaded yet (restored as Trove starts) or just removed: its
		// names are still to be counted.
		d.Progress = ix.progress(d, &folder{counting: true}, paused || held, time.Now())
		return d
	}
	d.Status, d.StatusMessage = f.status, f.message
	if held {
		d.Status, d.StatusMessage = core.DirError, msg
	}
	d.Watching = ix.watching(f)
	d.Progress = ix.progress(d, f, paused || held, time.Now())
	return d
}

// watching says how a folder's changes are found, and whether it is
// there.
func (ix *Indexer) watching(f *folder) core.FolderWatching {
	w := core.FolderWatching{FileSystem: f.fs.Type, LiveEvents: f.fs.EventsReliable() && !f.polling && !f.offline,
		RescanEvery: ix.rescanEvery(*f), WatchLimit: f.polling, Offline: f.offline}
	if f.offline {
		since := f.offlineSince
		w.OfflineSince = &since
	}
	return w
}

// Offline reports whether a folder's drive or share is not there.
func (ix *Indexer) Offline(id int64) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	f, ok := ix.folders[id]
	return ok && f.offline
}
