package indexer

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// The integrity check runs in the background right after start and then
// daily (once the queue is idle), never before start: on the 20,000 file
// benchmark index (840 MB) it takes ~35 s, ~10 s of them holding the
// writer (see docs/decisions.md), and a damaged index is still worth
// starting, to say so and to rebuild it. A query that reads a damaged page
// reports it at once anyway; the check finds damage no query has read yet.
const (
	checkAfter = 2 * time.Second
	checkEvery = 24 * time.Hour
	// idleWait bounds the wait for an idle queue: a queue that never
	// drains does not put the check off for ever.
	idleWait = time.Hour
)

// Soundness is the part of the store that checks the index, remembers
// damage, and replaces a damaged index with a new one.
type Soundness interface {
	Check(ctx context.Context) ([]string, error)
	Damage() (string, bool)
	MarkDamaged(why string)
	Rebuild(ctx context.Context, dirs []core.WatchedDirectory) (string, error)
}

// integrity is what the indexer knows about the index's soundness.
type integrity struct {
	checkedAt  atomic.Pointer[time.Time]
	rebuilding atomic.Bool
}

// checkLoop checks the index soon after start and then every CheckEvery.
func (ix *Indexer) checkLoop(ctx context.Context) {
	every := ix.CheckEvery
	if every <= 0 {
		every = checkEvery
	}
	t := time.NewTimer(checkAfter)
	defer t.Stop()
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// The first check reads the index as this process found it; later
		// ones wait for a quiet moment, since they hold the writer.
		if !first && !ix.waitIdle(ctx, idleWait) {
			return
		}
		first = false
		ix.safely("integrity check", func() { ix.CheckIndex(ctx) })
		t.Reset(every)
	}
}

// waitIdle waits, up to limit, until nothing is queued and the index can
// be written; false when ctx ended.
func (ix *Indexer) waitIdle(ctx context.Context, limit time.Duration) bool {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	deadline := time.Now().Add(limit)
	for {
		_, held := ix.storageHeld()
		if !held && ix.queue.Status().Total == 0 || time.Now().After(deadline) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}

// CheckIndex runs the integrity check now and records what it found.
func (ix *Indexer) CheckIndex(ctx context.Context) {
	start := time.Now()
	problems, err := ix.Store.Check(ctx)
	if err != nil {
		if ctx.Err() == nil {
			ix.Log.Warn("integrity check could not run", "err", err)
		}
		return
	}
	now := time.Now()
	ix.integrity.checkedAt.Store(&now)
	if len(problems) == 0 {
		ix.Log.Info("integrity check passed", "took", time.Since(start).Round(time.Millisecond))
		return
	}
	ix.Damaged(errors.New(store.Summary(problems)))
	ix.Log.Error("the index is damaged; rebuild it from the files on disk (POST /api/index/rebuild)", "problems", problems)
}

// Damaged records that the index was found damaged (by the check, or by a
// query that hit a damaged page) and publishes the news.
func (ix *Indexer) Damaged(err error) {
	_, known := ix.Store.Damage()
	ix.Store.MarkDamaged(err.Error())
	if !known {
		ix.Publish(ix.Health())
	}
}

// DamagedError is what a request that hit a damaged page answers.
func (ix *Indexer) DamagedError() error {
	return core.Fail(core.DamagedIndex, "%s", damagedMessage(ix.damageDetail()))
}

func (ix *Indexer) damageDetail() string {
	why, _ := ix.Store.Damage()
	return why
}

func damagedMessage(why string) string {
	return fmt.Sprintf("The index is damaged (%s): searches may fail until it is rebuilt. Rebuild it from the files on disk: "+
		"POST /api/index/rebuild, or Rebuild index in the app; watched folders and settings are kept", why)
}

// Health is the condition of the index.
func (ix *Indexer) Health() core.IndexHealth {
	h := core.IndexHealth{Status: core.IndexOK, Notice: ix.Notice, CheckedAt: ix.integrity.checkedAt.Load()}
	if msg, held := ix.storageHeld(); held {
		h.Status, h.Message = core.IndexStorageError, msg
	} else if ix.integrity.rebuilding.Load() {
		h.Status, h.Message = core.IndexRebuilding, "The index is being rebuilt from the files on disk"
	} else if why, damaged := ix.Store.Damage(); damaged {
		h.Status, h.Message = core.IndexDamaged, damagedMessage(why)
	}
	return h
}

// Rebuild replaces the index with a new one that keeps the watched folders
// (read from the old index if it can be read, else from the copy in the
// config dir, else from memory) and indexes every file again from the
// disk, in the background. It returns the number of folders kept.
func (ix *Indexer) Rebuild(ctx context.Context) (int, error) {
	if err := ix.waitReady(ctx); err != nil {
		return 0, err
	}
	if !ix.integrity.rebuilding.CompareAndSwap(false, true) {
		return 0, core.Fail(core.RebuildRunning, "the index is already being rebuilt")
	}
	defer ix.integrity.rebuilding.Store(false)
	ix.Publish(ix.Health())
	dirs := ix.foldersToKeep(ctx)
	aside, err := ix.Store.Rebuild(ctx, dirs)
	if err != nil {
		return 0, fmt.Errorf("rebuild the index: %w", err)
	}
	if ix.Rebuilt != nil {
		ix.Rebuilt()
	}
	ix.mu.Lock()
	old := ix.folders
	ix.folders = map[int64]*folder{}
	ix.mu.Unlock()
	for _, d := range dirs {
		f := ix.register(d)
		if o, ok := old[d.ID]; ok {
			ix.mu.Lock() // f is in the map now: status readers see it
			f.polling, f.message = o.polling, o.message
			ix.mu.Unlock()
		}
	}
	ix.Log.Warn("the index was rebuilt; every file is indexed again", "folders", len(dirs), "old_index", aside)
	ix.saveFolderList(ctx)
	ix.integrity.rebuilding.Store(false)
	ix.Publish(ix.Health())
	ix.RescanAll(false)
	return len(dirs), nil
}

// foldersToKeep reads the watched folders from the best source there is.
func (ix *Indexer) foldersToKeep(ctx context.Context) []core.WatchedDirectory {
	if dirs, err := ix.Store.Directories(ctx); err == nil {
		return dirs
	} else {
		ix.Log.Warn("cannot read the watched folders from the damaged index; using the saved copy", "err", err)
	}
	if ix.FolderList != "" {
		if dirs, err := store.LoadFolderList(ix.FolderList); err == nil && len(dirs) > 0 {
			return dirs
		}
	}
	var dirs []core.WatchedDirectory
	for _, f := range ix.snapshot() {
		dirs = append(dirs, core.WatchedDirectory{ID: f.ID, Path: f.Root, Recursive: f.Recursive, FilePattern: f.Pattern, IsActive: true})
	}
	return dirs
}

// saveFolderList keeps the copy of the watched-folder list in step with the
// index, so a lost index does not lose the folders.
func (ix *Indexer) saveFolderList(ctx context.Context) {
	if ix.FolderList == "" {
		return
	}
	dirs, err := ix.Store.Directories(ctx)
	if err == nil {
		err = store.SaveFolderList(ix.FolderList, dirs)
	}
	if err != nil {
		ix.Log.Warn("cannot save the copy of the watched-folder list", "path", ix.FolderList, "err", err)
	}
}
