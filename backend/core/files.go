package core

import (
	"path/filepath"
	"strings"
	"time"
)

// CreatedOr is a file's creation time: its birth time where the file
// system records one, else its modification time, the latest it can have
// been created (the inode's change time is no creation time: any chmod or
// rename moves it). Whatever records or shows a creation time falls back
// here, so that a filter on created and the time shown agree.
func CreatedOr(birth, modified time.Time) time.Time {
	if birth.IsZero() {
		return modified
	}
	return birth
}

// ExtensionOf is a file's extension as the index records it: lower case,
// with its dot; "" for none, and for dot-files such as ".bashrc", whose
// whole name is not an extension. name may be a base name or a path.
func ExtensionOf(name string) string {
	base := filepath.Base(name)
	ext := filepath.Ext(base)
	if ext == base {
		return ""
	}
	return strings.ToLower(ext)
}

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
