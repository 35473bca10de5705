package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync/atomic"
	"time"

	"trove/backend/core"
	"trove/backend/platform/mounts"
)

// DefaultNetworkRescan is how often a folder on a network share or a FUSE
// mount is rescanned when its watch request named no period: the kernel
// does not report the changes other machines (or the FUSE server) make,
// and a rescan that finds nothing changed reads no file, only sizes and
// times.
const DefaultNetworkRescan = 10 * time.Minute

// defaultMountCheck is how often folders on a mount of their own (a
// drive, a share) are checked for being there.
const defaultMountCheck = 10 * time.Second

// lookTimeout bounds one look at a folder's file system: a statfs or
// stat on a dead share can wait in the kernel for ever.
const lookTimeout = 5 * time.Second

// maxStuckLooks caps the looks left waiting in the kernel: past it a
// folder whose look would start is taken as unreachable at once. Only
// looks that overran lookTimeout count: looks in flight are many when
// several workers drop files at once, and they are no sign of a dead
// share.
const maxStuckLooks = 4

var stuckLooks atomic.Int32

// bounded runs look and waits for it for lookTimeout at most. A look that
// does not answer is left to finish on its own (nothing can cancel a
// system call on a dead mount) and reports false; at most maxStuckLooks
// are left so.
func bounded[T any](look func() T) (T, bool) {
	var zero T
	if stuckLooks.Load() >= maxStuckLooks {
		return zero, false
	}
	done := make(chan T, 1)
	// decided is set by the first of the answer and the wait's giving
	// up: a look given up on counts as stuck until it returns.
	var decided atomic.Bool
	go func() {
		var v T
		if err := core.Safe(func() { v = look() }); err == nil {
			done <- v
		}
		close(done)
		if !decided.CompareAndSwap(false, true) {
			stuckLooks.Add(-1)
		}
	}()
	t := time.NewTimer(lookTimeout)
	defer t.Stop()
	select {
	case v, ok := <-done:
		return v, ok
	case <-t.C:
		if decided.CompareAndSwap(false, true) {
			stuckLooks.Add(1)
			return zero, false
		}
		v, ok := <-done // it answered as the time ran out
		return v, ok
	}
}

// fileSystem finds what holds a folder: its type (whether the kernel
// reports its changes) and its mount point. The mount point recorded when
// the folder was watched stands: read now, an unplugged drive's folder
// would seem to live on the root file system. One not recorded yet (a
// folder watched by an older Trove) is recorded now.
func (ix *Indexer) fileSystem(d core.WatchedDirectory) mounts.FS {
	got, ok := bounded(func() mounts.FS { return mounts.Of(d.Path) })
	if !ok {
		got = mounts.FS{Kind: mounts.Unknown, MountPoint: mounts.MountOf(d.Path)}
	}
	if d.MountPoint != "" {
		got.MountPoint = d.MountPoint
	} else if got.MountPoint != "" {
		if err := ix.Store.SetDirectoryMount(context.Background(), d.ID, got.MountPoint); err != nil {
			ix.Log.Warn("cannot record the folder's mount point", "folder", d.Path, "err", err)
		}
	}
	return got
}

// ownMount reports whether a folder lives on a mount of its own (a drive,
// a share), which can go away without its files being deleted.
func (f *folder) ownMount() bool { return f.fs.MountPoint != "" && f.fs.MountPoint != "/" }

// presence tells whether a folder's file system is there, and if not,
// why, in words. A folder whose root is missing on a file system that is
// there was deleted: that is an error (see setError), not offline.
func presence(f folder) (bool, string) {
	if f.ownMount() && !mounts.Mounted(f.fs.MountPoint) {
		return false, fmt.Sprintf("nothing is mounted at %s (a drive unplugged or a share unmounted)", f.fs.MountPoint)
	}
	err, answered := bounded(func() error { _, err := os.Stat(f.Root); return err })
	switch {
	case !answered:
		return false, fmt.Sprintf("%s does not answer (a share that cannot be reached)", f.Root)
	case err == nil, errors.Is(err, fs.ErrNotExist) && !f.ownMount():
		return true, ""
	case errors.Is(err, fs.ErrNotExist):
		// The mount is there but the folder is not: another drive, or
		// the folder deleted on the share; either way its files are not
		// here to be found.
		return false, fmt.Sprintf("%s is not on what is mounted at %s now", f.Root, f.fs.MountPoint)
	case errors.Is(err, fs.ErrPermission):
		return true, "" // the scan says so
	}
	return false, fmt.Sprintf("%s cannot be reached (%v)", f.Root, unwrapPath(err))
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// present is the pipeline's check before it drops a file that is gone:
// when the folder's drive or share went, the file is not gone, only out
// of reach.
func (ix *Indexer) present(id int64) bool {
	f, ok := ix.folderByID(id)
	if !ok {
		return true
	}
	if f.offline {
		return false
	}
	there, why := presence(f)
	if !there {
		ix.setOffline(id, why)
	}
	return there
}

// setOffline marks a folder offline: its files stay in the index and are
// found, marked offline; nothing of it is scanned or read until the mount
// check sees it back.
func (ix *Indexer) setOffline(id int64, why string) {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	changed := ok && !f.offline
	if changed {
		f.offline, f.offlineSince = true, time.Now()
		f.status = core.DirError
		f.message = "offline: " + why + "; its files stay searchable and Trove catches up when it returns"
	}
	ix.mu.Unlock()
	if changed {
		ix.Log.Warn("folder offline", "folder", f.Root, "reason", why)
		ix.watcher.RemoveTree(f.Root)
		ix.persistStatus(id)
	}
}

// setOnline brings an offline folder back: its file system is looked at
// again (a drive may come back on another device) and it is rescanned,
// which reads only the files that changed meanwhile.
func (ix *Indexer) setOnline(ctx context.Context, id int64) {
	ix.mu.Lock()
	f, ok := ix.folders[id]
	back := ok && f.offline
	var d core.WatchedDirectory
	if back {
		f.offline, f.offlineSince = false, time.Time{}
		f.status, f.message = core.DirIndexing, ""
		d = core.WatchedDirectory{ID: f.ID, Path: f.Root, MountPoint: f.fs.MountPoint}
	}
	ix.mu.Unlock()
	if !back {
		return
	}
	got := ix.fileSystem(d)
	ix.mu.Lock()
	f.fs = got
	ix.mu.Unlock()
	ix.Log.Info("folder back online", "folder", d.Path)
	ix.persistStatus(id)
	ix.goRescan(ctx, id, false)
}

// mountLoop checks, every MountCheck, that folders on mounts of their own
// are there (offline when not, caught up when back), and starts the
// scheduled rescans that are due.
func (ix *Indexer) mountLoop(ctx context.Context) {
	every := ix.MountCheck
	if every <= 0 {
		every = defaultMountCheck
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ix.safely("checking mounts", func() { ix.checkMounts(ctx) })
	}
}

func (ix *Indexer) checkMounts(ctx context.Context) {
	now := time.Now()
	for _, f := range ix.snapshot() {
		if ctx.Err() != nil {
			return
		}
		if f.ownMount() || !f.fs.EventsReliable() || f.offline {
			there, why := presence(f)
			switch {
			case !there:
				ix.setOffline(f.ID, why)
				continue
			case f.offline:
				ix.setOnline(ctx, f.ID)
				continue
			}
		}
		if every := ix.rescanEvery(f); every > 0 && f.scanning == 0 && f.status != core.DirError && now.Sub(f.lastScan) >= every {
			ix.goRescan(ctx, f.ID, false)
		}
	}
}

// rescanEvery is a folder's period of scheduled rescans: as asked when it
// was watched; else every pollEvery past the inotify limit; else, on a
// file system whose changes the kernel may not report, every
// NetworkRescan; else none.
func (ix *Indexer) rescanEvery(f folder) time.Duration {
	switch {
	case f.RescanSeconds > 0:
		return time.Duration(f.RescanSeconds) * time.Second
	case f.polling:
		return pollEvery
	case !f.fs.EventsReliable():
		if ix.NetworkRescan > 0 {
			return ix.NetworkRescan
		}
		return DefaultNetworkRescan
	}
	return 0
}
