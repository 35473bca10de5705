package service

import (
	"context"

	"trove/backend/core"
	"trove/backend/engine/filters"
	"trove/backend/engine/indexer"
)

// WatchOptions are the optional fields of a watch request.
type WatchOptions struct {
	Recursive   bool
	FilePattern string
	// Force watches a system folder or one of Trove's own, which are
	// refused otherwise.
	Force bool
	// NamesOnly indexes the folder's files by name and metadata only
	// (see systemFolders for the folders it may take).
	NamesOnly bool
	// RescanSeconds rescans the folder on this schedule; 0: as its file
	// system needs (network shares and FUSE mounts, see
	// indexer.DefaultNetworkRescan).
	RescanSeconds int
}

// WatchResult is what a watch request reports at once.
type WatchResult struct {
	Directory  core.WatchedDirectory
	FilesFound int
}

// Watch starts watching and indexing a folder. It returns when the folder's
// files are listed and queued, before they are indexed.
func (s *Service) Watch(ctx context.Context, path string, opt WatchOptions) (WatchResult, error) {
	if !opt.Force {
		if err := s.refuseSystemFolder(path, opt.NamesOnly); err != nil {
			return WatchResult{}, err
		}
	}
	if opt.FilePattern != "" {
		clean, err := filters.CheckPattern(opt.FilePattern)
		if err != nil {
			return WatchResult{}, core.FailField(core.BadPattern, "file_pattern", "%v", err)
		}
		opt.FilePattern = clean
	}
	d, n, err := s.indexer.Watch(ctx, path, indexer.Options{Recursive: opt.Recursive, FilePattern: opt.FilePattern,
		NamesOnly: opt.NamesOnly, RescanSeconds: opt.RescanSeconds})
	if err != nil {
		return WatchResult{}, err
	}
	return WatchResult{Directory: s.indexer.Status(d), FilesFound: n}, nil
}

// Unwatch stops watching a folder and removes its files from the index.
func (s *Service) Unwatch(ctx context.Context, id int64) error {
	return s.indexer.Unwatch(ctx, id)
}

// Folders lists the watched folders with their live status and counts,
// and whether the embedding provider answers.
func (s *Service) Folders(ctx context.Context) ([]core.WatchedDirectory, error) {
	dirs, err := s.store.Directories(ctx)
	emb := s.Embedding()
	for i := range dirs {
		dirs[i] = s.indexer.Status(dirs[i])
		dirs[i].Embedding = emb
	}
	return dirs, err
}

// QueueStatus reports the queue's pause state and counts.
func (s *Service) QueueStatus() core.QueueStatus { return s.indexer.QueueStatus() }

// PauseQueue pauses processing manually.
func (s *Service) PauseQueue() core.QueueStatus {
	s.indexer.Queue().Pause()
	st := s.QueueStatus()
	s.bus.Publish(st)
	return st
}

// ResumeQueue clears the manual pause (a scheduler pause may still hold).
func (s *Service) ResumeQueue() core.QueueStatus {
	s.indexer.Queue().Resume()
	st := s.QueueStatus()
	s.bus.Publish(st)
	return st
}

// QueueItems pages through the queued items (limit <= 0: all).
func (s *Service) QueueItems(offset, limit int) ([]core.QueueItem, int) {
	items, total := s.indexer.Queue().Items(offset, limit)
	out := make([]core.QueueItem, len(items))
	now := s.now()
	for i, it := range items {
		out[i] = core.QueueItem{
			ID: it.ID, Path: it.Path, Action: string(it.Action), Status: string(it.State(now)),
			EnqueuedAt: it.EnqueuedAt, ReadyAt: it.ReadyAt, Dest: it.Dest, Retries: it.Retries,
			LastError: it.LastError, DirID: it.DirID,
		}
	}
	return out, total
}

// RemoveQueueItem drops one queued item.
func (s *Service) RemoveQueueItem(id string) error {
	if !s.indexer.Queue().Remove(id) {
		return core.Fail(core.UnknownItem, "no queue item with id %s", id)
	}
	return nil
}
