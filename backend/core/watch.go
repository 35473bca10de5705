package core

import "time"

// Watched directory statuses, as the API reports them.
const (
	DirIndexing = "indexing"
	DirComplete = "complete"
	DirWatching = "watching"
	DirError    = "error"
)

// WatchedDirectory is a folder Trove indexes and keeps live.
type WatchedDirectory struct {
	ID            int64
	Path          string
	IsActive      bool
	Recursive     bool
	FilePattern   string // optional glob limiting which files count; "" for none
	Status        string
	StatusMessage string // why the status is error, or how the folder is watched
	FileCount     int64  // files found by the last scan, after filters, or known since if more
	IndexedCount  int64
	FailedCount   int64
	ProblemCount  int64 // failed, or indexed with a note (name only, text cut)
	LastScan      *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// Embedding is a notice, not a status: whether the embedding provider
	// answers (while it does not, new and changed files are indexed
	// without vectors). Filled in by the service, never stored.
	Embedding EmbeddingHealth
}
