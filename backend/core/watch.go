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
	ID          int64
	Path        string
	IsActive    bool
	Recursive   bool
	FilePattern string // optional glob limiting which files count; "" for none
	// NamesOnly: the folder's files are indexed by name and metadata only
	// (whole disks, photo archives, build trees): their content is never
	// read.
	NamesOnly bool
	// RescanSeconds is how often the folder is rescanned on a schedule,
	// as asked when it was watched; 0: as its file system needs (see
	// Watching.RescanEvery).
	RescanSeconds int
	// MountPoint is where the file system holding the folder was mounted
	// when it was watched; "" when not known.
	MountPoint    string
	Status        string
	StatusMessage string // why the status is error, or how the folder is watched
	FileCount     int64  // files found by the last scan, after filters, or known since if more
	IndexedCount  int64
	FailedCount   int64
	ProblemCount  int64 // failed, or indexed with a note (name only, text cut)
	PendingCount  int64 // found by name, content not read yet (StatePending)
	NamedCount    int64 // recorded by name and metadata only (names-only folders)
	LastScan      *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// Embedding is a notice, not a status: whether the embedding provider
	// answers (while it does not, new and changed files are indexed
	// without vectors). Filled in by the service, never stored.
	Embedding EmbeddingHealth
	// Watching says how changes are found and whether the folder's file
	// system is there; Progress is each pass's progress. Both are live,
	// filled in by the indexer, never stored.
	Watching FolderWatching
	Progress FolderProgress
}

// FolderWatching is how a folder's changes are found.
type FolderWatching struct {
	// FileSystem is the type of the file system holding the folder
	// ("ext4", "nfs", "cifs", "fuse", ...); "" when not known.
	FileSystem string
	// LiveEvents: the kernel reports changes below the folder as they
	// happen (inotify). False on network shares and FUSE mounts, whose
	// changes made elsewhere the kernel never sees, and past the inotify
	// limit.
	LiveEvents bool
	// RescanEvery is the period of scheduled rescans; 0 for none (live
	// events find every change).
	RescanEvery time.Duration
	// WatchLimit: live watching stopped at the inotify watch limit
	// (fs.inotify.max_user_watches); the folder is rescanned instead.
	WatchLimit bool
	// Offline: the folder's drive or share is not there (unplugged,
	// unmounted, unreachable). Its files stay in the index and are found,
	// marked offline, until it returns.
	Offline      bool
	OfflineSince *time.Time
}

// FolderProgress is the progress of a folder's two passes: names first
// (every file's name, path, size and dates, written in large batches),
// then content (most recently modified first).
type FolderProgress struct {
	Names   PassProgress
	Content PassProgress
}

// Pass states.
const (
	PassCounting = "counting" // the walk is still finding files
	PassRunning  = "running"
	PassPaused   = "paused" // the queue is paused, or the folder offline
	PassDone     = "done"
	PassOff      = "off" // names-only folders have no content pass
)

// PassProgress is one pass over a folder's files.
type PassProgress struct {
	State string
	Done  int64
	// Total is -1 while it is not known (the first walk is still
	// counting the folder's files).
	Total int64
	// Rate is files a second over the last half minute or so; 0 when not
	// measured.
	Rate float64
	// ETA is -1 when it cannot be told honestly (no rate yet, the total
	// not known, paused).
	ETA time.Duration
}
