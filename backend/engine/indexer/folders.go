package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"trove/backend/core"
	"trove/backend/engine/pipeline"
	"trove/backend/engine/scan"
	"trove/backend/engine/watch"
	"trove/backend/platform/mounts"
	"trove/backend/store"
)

// Folders is the part of the store that keeps the watched folders: their
// records, the status shown for each, and whose files are whose.
type Folders interface {
	AddFolder(ctx context.Context, nf store.NewFolder, now time.Time) (core.WatchedDirectory, error)
	SetDirectoryMount(ctx context.Context, id int64, mountPoint string) error
	Directory(ctx context.Context, id int64) (core.WatchedDirectory, error)
	Directories(ctx context.Context) ([]core.WatchedDirectory, error)
	ReassignFiles(ctx context.Context, fromDir, toDir int64) error
	DeleteDirectory(ctx context.Context, id int64) error
	SetDirectoryStatus(ctx context.Context, id int64, status, message string, now time.Time) error
	SetDirectoryScanned(ctx context.Context, id, fileCount int64, now time.Time) error
}

// folder is the live state of a watched folder.
type folder struct {
	ID            int64
	Root          string
	Recursive     bool
	Pattern       string
	NamesOnly     bool
	RescanSeconds int       // asked for; 0: as the file system needs
	fs            mounts.FS // MountPoint is the one recorded when it was watched

	status       string
	message      string
	polling      bool // live watching unavailable (the inotify limit): rescanned every pollEvery
	scanning     int  // scans in flight
	lastProgress time.Time
	progressGap  time.Duration // at least this between progress events (publishProgress)
	lastScan     time.Time     // when the last scan ended, for scheduled rescans
	offline      bool          // its drive or share is not there
	offlineSince time.Time
	// counting: a walk is finding the folder's files for the first time
	// (the names pass's total is not known until it ends).
	counting bool
	// namesFirst: the folder was never walked before; its content pass
	// waits for the end of that walk (feed).
	namesFirst bool
	// backlog: files whose content waits are not all in the queue yet
	// (the content pass hands them over a window at a time).
	backlog        bool
	names          meter // files recorded by the names pass
	content        meter // files of the content pass handled
	namesAdded     int64 // running counts for the meters
	contentHandled int64
}

func (ix *Indexer) register(d core.WatchedDirectory) *folder {
	f := &folder{ID: d.ID, Root: d.Path, Recursive: d.Recursive, Pattern: d.FilePattern, NamesOnly: d.NamesOnly,
		RescanSeconds: d.RescanSeconds, status: core.DirIndexing, lastScan: time.Now(),
		counting:   true, // until its first walk ends (setCounting)
		namesFirst: d.LastScan == nil}
	f.fs = ix.fileSystem(d)
	ix.mu.Lock()
	ix.folders[d.ID] = f
	ix.mu.Unlock()
	return f
}

// admits is the folder as far as which of its files it indexes.
func (f *folder) admits() scan.Folder {
	return scan.Folder{Root: f.Root, Recursive: f.Recursive, Pattern: f.Pattern}
}

// Folder implements the pipeline's folder lookup.
func (ix *Indexer) Folder(id int64) (pipeline.Folder, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	f, ok := ix.folders[id]
	if !ok {
		return pipeline.Folder{}, false
	}
	return ix.pipelineFolder(f), true
}

func (ix *Indexer) pipelineFolder(f *folder) pipeline.Folder {
	id := f.ID
	return pipeline.Folder{ID: f.ID, Folder: f.admits(), NamesOnly: f.NamesOnly, Present: func() bool { return ix.present(id) }}
}

func (ix *Indexer) snapshot() []folder {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make([]folder, 0, len(ix.folders))
	for _, f := range ix.folders {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// folderOf finds the watched folder containing path.
func (ix *Indexer) folderOf(path string) (folder, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, f := range ix.folders {
		if scan.Within(f.Root, path) {
			return *f, true
		}
	}
	return folder{}, false
}

// Options of a watch request.
type Options struct {
	Recursive   bool
	FilePattern string
	// NamesOnly records the folder's files by name and metadata only.
	NamesOnly bool
	// RescanSeconds rescans the folder on this schedule (0: as its file
	// system needs: network shares and FUSE mounts every
	// DefaultNetworkRescan, local disks never).
	RescanSeconds int
}

// Watch validates and registers a folder, scans it (adding live watches as
// it goes) and queues its files; it returns once the scan has listed the
// files, before any is indexed. A folder whose parent is watched is refused;
// a folder that contains watched folders absorbs them.
func (ix *Indexer) Watch(ctx context.Context, path string, opt Options) (core.WatchedDirectory, int, error) {
	if err := ix.waitReady(ctx); err != nil {
		return core.WatchedDirectory{}, 0, err
	}
	root, err := canonical(path)
	if err != nil {
		return core.WatchedDirectory{}, 0, err
	}
	if err := ix.own.refuse(root); err != nil {
		return core.WatchedDirectory{}, 0, err
	}
	var children []folder
	for _, f := range ix.snapshot() {
		switch {
		case f.Root == root:
			return core.WatchedDirectory{}, 0, core.Fail(core.AlreadyWatching, "%s is already watched", root)
		case scan.Within(f.Root, root):
			return core.WatchedDirectory{}, 0, core.Fail(core.AlreadyWatching, "%s is inside the watched folder %s", root, f.Root)
		case scan.Within(root, f.Root):
			children = append(children, f)
		}
	}
	d, err := ix.Store.AddFolder(ctx, store.NewFolder{Path: root, Recursive: opt.Recursive, Pattern: opt.FilePattern,
		NamesOnly: opt.NamesOnly, RescanSeconds: opt.RescanSeconds, MountPoint: mounts.MountOf(root)}, time.Now())
	if ix.keepOnStorageError(err) {
		return d, 0, ix.notWritable()
	}
	if err != nil {
		return d, 0, err
	}
	f := ix.register(d)
	for _, c := range children {
		if err := ix.absorb(ctx, c, f); err != nil {
			return d, 0, err
		}
	}
	ix.saveFolderList(ctx)
	found, err := ix.scanFirst(ctx, f.ID)
	if err != nil {
		return d, 0, err
	}
	d, err = ix.Store.Directory(ctx, d.ID)
	if found < 0 { // still walking: the names recorded so far
		found = int(d.FileCount)
	}
	return d, found, err
}

// firstScanWait is how long a watch request waits for the folder's first
// walk: a folder of thousands of files is walked by then and the answer
// counts them all, while a whole disk answers at once and goes on walking
// (its names become searchable as the walk records them).
var firstScanWait = 5 * time.Second

// firstScan asks pollLoop to walk a new folder; the walk answers on done.
type firstScan struct {
	id   int64
	done chan scanResult
}

type scanResult struct {
	found int
	err   error
}

// scanFirst starts a new folder's walk, owned by the indexer's run rather
// than the request, and waits for it at most firstScanWait: the files it
// found, or -1 while it still walks.
func (ix *Indexer) scanFirst(ctx context.Context, id int64) (int, error) {
	fs := firstScan{id: id, done: make(chan scanResult, 1)}
	select {
	case ix.firstScans <- fs:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	wait := time.NewTimer(firstScanWait)
	defer wait.Stop()
	select {
	case r := <-fs.done:
		return r.found, r.err
	case <-wait.C:
		return -1, nil
	case <-ctx.Done():
		return -1, nil // the walk goes on; the caller has gone
	}
}

// goFirstScan walks a new folder in the background (see goRescan).
func (ix *Indexer) goFirstScan(ctx context.Context, fs firstScan) {
	ix.background.Go(func() {
		var r scanResult
		if perr := ix.safely("scan", func() { r.found, r.err = ix.rescan(ctx, fs.id, false) }); perr != nil {
			r.err = perr
			ix.setErrorMessage(fs.id, fmt.Sprintf("scanning failed with an internal error (%v); Trove tries again every %v", perr, pollEvery))
		}
		fs.done <- r
	})
}

// absorb hands a watched child folder's files to its new parent.
func (ix *Indexer) absorb(ctx context.Context, child folder, parent *folder) error {
	ix.mu.Lock()
	delete(ix.folders, child.ID)
	ix.mu.Unlock()
	ix.queue.RemoveFolder(child.ID)
	if err := ix.Store.ReassignFiles(ctx, child.ID, parent.ID); err != nil {
		return fmt.Errorf("absorb %s: %w", child.Root, err)
	}
	ix.Publish(core.FolderRemoved{ID: child.ID, Path: child.Root, AbsorbedBy: parent.ID})
	return nil
}

// canonical checks a requested path and resolves it to the real directory.
func canonical(path string) (string, error) {
	if path == "" {
		return "", core.Fail(core.BadPath, "path is required")
	}
	if !filepath.IsAbs(path) {
		return "", core.Fail(core.BadPath, "path must be absolute, got %q", path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return "", core.Fail(core.BadPath, "%s %s", path, describe(err))
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", core.Fail(core.BadPath, "%s %s", path, describe(err))
	}
	if !st.IsDir() {
		return "", core.Fail(core.BadPath, "%s is not a directory", path)
	}
	dir, err := os.Open(real)
	if err == nil {
		_, err = dir.Readdirnames(1)
		dir.Close()
	}
	if err != nil && !errors.Is(err, errEOF) {
		return "", core.Fail(core.BadPath, "%s cannot be read: %s", path, describe(err))
	}
	return real, nil
}

func describe(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "cannot be read: permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot be read: " + pe.Err.Error()
	}
	return "cannot be read: " + err.Error()
}

// Unwatch stops watching a folder and removes everything indexed from it.
func (ix *Indexer) Unwatch(ctx context.Context, id int64) error {
	if err := ix.waitReady(ctx); err != nil {
		return err
	}
	ix.mu.Lock()
	f, ok := ix.folders[id]
	delete(ix.folders, id)
	ix.mu.Unlock()
	removed := core.FolderRemoved{ID: id}
	if ok {
		ix.watcher.RemoveTree(f.Root)
		ix.queue.RemoveFolder(id)
		removed.Path = f.Root
	}
	if err := ix.Store.DeleteDirectory(ctx, id); err != nil {
		return err
	}
	ix.saveFolderList(ctx)
	ix.Publish(removed)
	return nil
}

// addWatch adds a live watch for a folder's directory, switching the folder
// to periodic rescans when the kernel's watch limit is reached.
func (ix *Indexer) addWatch(id int64, dir string) error {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	polling := ok && f.polling
	ix.mu.Unlock()
	if !ok || polling {
		return nil
	}
	err := ix.watcher.Add(dir)
	if errors.Is(err, watch.ErrLimit) {
		ix.setPolling(id, fmt.Sprintf("live watching unavailable (%v); rescanning every %d minutes", err, int(pollEvery.Minutes())))
		return nil
	}
	return err
}

func (ix *Indexer) setPolling(id int64, why string) {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	if ok && !f.polling {
		f.polling = true
		f.message = why
	}
	ix.mu.Unlock()
	if ok {
		ix.Log.Warn("folder falls back to periodic rescans", "folder", f.Root, "reason", why)
		ix.watcher.RemoveTree(f.Root)
		ix.refresh(id)
	}
}
