package core

import "time"

// File states. A file is searchable only in StateIndexed.
const (
	StateIndexed = "indexed"
	StateFailed  = "failed"
)

// File is one file known to the index: its metadata, its card (title,
// summary, keywords) and whether indexing it succeeded.
type File struct {
	ID          int64
	DirID       int64
	Path        string
	Filename    string
	Extension   string // lower case with the leading dot, "" when none
	Mime        string
	Size        int64
	Created     time.Time // birth time where the file system keeps it, else change time
	Modified    time.Time
	Accessed    time.Time
	ContentHash string
	// Device and Inode name the file on disk the record was made from;
	// 0 when not known (records of older versions, systems without them).
	Device, Inode uint64
	State         string
	Error         string // why indexing failed, or why only metadata was indexed
	Title         string
	Summary       string
	Keywords      []string
	IndexedAt     time.Time
}

// FileStats summarise the indexed files.
type FileStats struct {
	TotalFiles  int64
	TotalSize   int64
	FileTypes   map[string]int64
	LastIndexed *time.Time
	FailedFiles int64
}
