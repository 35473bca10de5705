package service

import (
	"context"

	"trove/backend/core"
	"trove/backend/engine/indexer"
	"trove/backend/engine/queue"
	"trove/backend/engine/search"
	"trove/backend/store"
)

// Index is the part of the store the service reads directly: records,
// counts and the pruning of files the filters no longer let in. Writes of
// file contents go through the indexer, never here.
type Index interface {
	CountActiveDirectories(ctx context.Context) (int, error)
	Stats(ctx context.Context) (core.FileStats, error)
	File(ctx context.Context, id int64) (core.File, error)
	FileByPath(ctx context.Context, path string) (core.File, error)
	Directory(ctx context.Context, id int64) (core.WatchedDirectory, error)
	Directories(ctx context.Context) ([]core.WatchedDirectory, error)
	Problems(ctx context.Context, dirID int64, limit int) ([]core.File, int, error)
	FilePaths(ctx context.Context) ([]store.FilePath, error)
	DeleteFiles(ctx context.Context, ids []int64) (int, error)
	SavedIndex
}

var _ Index = (*store.Store)(nil)

// Indexing is the part of the indexer the service drives: folders, their
// live status, the queue and the index's condition.
type Indexing interface {
	Watch(ctx context.Context, path string, opt indexer.Options) (core.WatchedDirectory, int, error)
	Unwatch(ctx context.Context, id int64) error
	Status(d core.WatchedDirectory) core.WatchedDirectory
	RescanAll(reprocess bool)
	Queue() *queue.Queue
	QueueStatus() core.QueueStatus
	Health() core.IndexHealth
	Damaged(err error)
	DamagedError() error
	Rebuild(ctx context.Context) (int, error)
	// Offline: the folder's drive or share is not there.
	Offline(dirID int64) bool
}

var _ Indexing = (*indexer.Indexer)(nil)

// Searcher answers one search.
type Searcher interface {
	Search(ctx context.Context, req search.Request) ([]search.Result, error)
	SearchPage(ctx context.Context, req search.PageRequest) (search.Page, error)
	Preview(ctx context.Context, id int64, text string) (search.Preview, error)
}

var _ Searcher = (*search.Engine)(nil)
