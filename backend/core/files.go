package core

import "time"

// File states. A file is searchable in every state but StateFailed: by its
// content too in StateIndexed, by its name, path and metadata alone in
// StatePending and StateNamed.
const (
	StateIndexed = "indexed"
	StateFailed  = "failed"
	// StatePending is a file the names pass recorded (name, path, size,
	// dates) whose content the content pass has not read yet.
	StatePending = "pending"
	// StateNamed is a file of a names-only folder: its name and metadata
	// are all Trove keeps of it, by the folder's choice.
	StateNamed = "named"
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
	// Offline: the file's folder is on a drive or share that is not
	// there now (filled in by the service, never stored).
	Offline bool
}

// FileStats summarise the indexed files.
type FileStats struct {
	TotalFiles  int64
	TotalSize   int64
	FileTypes   map[string]int64
	LastIndexed *time.Time
	FailedFiles int64
	// PendingFiles are found by name while their content waits for the
	// content pass (counted in TotalFiles).
	PendingFiles int64
}
