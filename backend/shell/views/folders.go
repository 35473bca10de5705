package views

import (
	"fmt"

	"trove/backend/core"
	"trove/backend/service"
)

// WatchRequest is the body of both watch requests: the spec's path field
// (path or directory_path) and Trove's optional recursive, file_pattern
// and force.
type WatchRequest struct {
	Path          *string `json:"path"`
	DirectoryPath *string `json:"directory_path"`
	Recursive     *bool   `json:"recursive"`
	FilePattern   *string `json:"file_pattern"`
	Force         bool    `json:"force"`
	NamesOnly     bool    `json:"names_only" jsonschema:"description=index the folder's files by name, path, size and dates only: no file is read. Allowed also for /etc, /boot, /var, /var/lib and /var/cache (their names say nothing of their content)"`
	RescanSeconds *int    `json:"rescan_seconds" jsonschema:"description=rescan the folder every so many seconds (60 to 604800); absent or 0: as its file system needs (network shares and FUSE mounts every 600 s, local disks never)"`
}

// Rescan periods a watch may ask for.
const (
	minRescanSeconds = 60
	maxRescanSeconds = 7 * 24 * 3600
)

// Target returns the requested folder from the field the endpoint names,
// and the options.
func (r WatchRequest) Target(field string) (string, service.WatchOptions, error) {
	p := r.Path
	if field == "directory_path" {
		p = r.DirectoryPath
	}
	path, err := folderPath(field, p)
	if err != nil {
		return "", service.WatchOptions{}, err
	}
	o := service.WatchOptions{Recursive: true, Force: r.Force}
	if r.Recursive != nil {
		o.Recursive = *r.Recursive
	}
	if r.FilePattern != nil {
		o.FilePattern = *r.FilePattern
	}
	o.NamesOnly = r.NamesOnly
	if r.RescanSeconds != nil && *r.RescanSeconds != 0 {
		n := *r.RescanSeconds
		if n < minRescanSeconds || n > maxRescanSeconds {
			return "", service.WatchOptions{}, core.FailField(core.BadNumber, "rescan_seconds",
				"must be 0 (as the file system needs) or between %d and %d seconds, got %d", minRescanSeconds, maxRescanSeconds, n)
		}
		o.RescanSeconds = n
	}
	return path, o, nil
}

// Watched is what POST /api/watch/directory reports in its data.
type Watched struct {
	Directory       string `json:"directory"`
	FilesFound      int    `json:"files_found"`
	IndexingStarted bool   `json:"indexing_started"`
	JobID           int64  `json:"job_id"`
}

// WatchLegacyAnswer is the answer of POST /api/watch/ (the spec's older
// form of watching a folder).
type WatchLegacyAnswer struct {
	Success      bool   `json:"success" jsonschema:"enum=true"`
	FilesIndexed int    `json:"files_indexed"`
	JobID        int64  `json:"job_id"`
	FilesFound   int    `json:"files_found"`
	Message      string `json:"message"`
}

// WatchedLegacyOf shows a watch result in the older form.
func WatchedLegacyOf(r service.WatchResult) WatchLegacyAnswer {
	return WatchLegacyAnswer{Success: true, JobID: r.Directory.ID, FilesFound: r.FilesFound,
		Message: fmt.Sprintf("Watching %s: %d files queued for indexing", r.Directory.Path, r.FilesFound)}
}

// JobDeleted is the answer of DELETE /api/watch/jobs/{job_id}.
type JobDeleted struct {
	Success bool   `json:"success" jsonschema:"enum=true"`
	Message string `json:"message"`
	JobID   int64  `json:"job_id"`
}

// JobDeletedOf says that the folder of job id is no longer watched.
func JobDeletedOf(id int64) JobDeleted {
	return JobDeleted{Success: true, JobID: id,
		Message: fmt.Sprintf("Stopped watching job %d and removed its files from the index", id)}
}

// ProblemList is one folder's problem files and how many there are in all.
type ProblemList struct {
	Problems []Problem `json:"problems"`
	Total    int       `json:"total"`
}

// WatchedOf shows a watch result.
func WatchedOf(r service.WatchResult) Watched {
	return Watched{Directory: r.Directory.Path, FilesFound: r.FilesFound, IndexingStarted: true, JobID: r.Directory.ID}
}

// Folder is a watched directory's summary.
type Folder struct {
	ID            int64   `json:"id"`
	Path          string  `json:"path"`
	FileCount     int64   `json:"file_count"`
	IndexedCount  int64   `json:"indexed_count"`
	FailedCount   int64   `json:"failed_count"`
	ProblemCount  int64   `json:"problem_count"`
	Status        string  `json:"status"`
	AddedAt       string  `json:"added_at"`
	StatusMessage string  `json:"status_message"`
	LastScan      *string `json:"last_scan"`
	// Embedding is a notice: whether the embedding provider answers.
	Embedding     core.EmbeddingHealth `json:"embedding"`
	PendingCount  int64                `json:"pending_count" jsonschema:"description=files found by name whose content is not read yet"`
	NamesOnly     bool                 `json:"names_only"`
	RescanSeconds int                  `json:"rescan_seconds" jsonschema:"description=the rescan period the watch asked for; 0: as the file system needs (see watching.rescan_every_seconds)"`
	Watching      FolderWatching       `json:"watching"`
	Progress      FolderProgress       `json:"progress"`
}

// FolderWatching is how a folder's changes are found, and whether it is
// there.
type FolderWatching struct {
	FileSystem         string  `json:"file_system" jsonschema:"description=the type of the file system holding the folder (ext4, nfs, cifs, fuse.sshfs...); empty when not known"`
	LiveEvents         bool    `json:"live_events" jsonschema:"description=the kernel reports changes as they happen; false on network shares and FUSE mounts (changes made elsewhere go unseen), past the inotify watch limit, and while offline"`
	RescanEverySeconds int     `json:"rescan_every_seconds" jsonschema:"description=period of scheduled rescans (sizes and times compared, only changed files read); 0 for none"`
	WatchLimit         bool    `json:"watch_limit" jsonschema:"description=live watching stopped at the inotify watch limit; the folder is rescanned instead"`
	Offline            bool    `json:"offline" jsonschema:"description=the folder's drive or share is not there: its files stay searchable (marked offline) and opening them is refused until it returns"`
	OfflineSince       *string `json:"offline_since"`
}

// FolderProgress is the progress of a folder's two passes.
type FolderProgress struct {
	Names   PassProgress `json:"names" jsonschema:"description=the names pass: every file's name, path, size and dates recorded (searchable by name)"`
	Content PassProgress `json:"content" jsonschema:"description=the content pass: files read and indexed, most recently modified first"`
}

// PassProgress is one pass over a folder's files.
type PassProgress struct {
	State      string  `json:"state" jsonschema:"enum=counting,enum=running,enum=paused,enum=done,enum=off"`
	Done       int64   `json:"done"`
	Total      int64   `json:"total" jsonschema:"description=-1 while not known (the first walk is still counting)"`
	Rate       float64 `json:"rate" jsonschema:"description=files a second over the last half minute; 0 when not measured"`
	ETASeconds int64   `json:"eta_seconds" jsonschema:"description=-1 when it cannot be told"`
}

func passOf(p core.PassProgress) PassProgress {
	eta := int64(-1)
	if p.ETA >= 0 {
		eta = int64(p.ETA.Seconds())
	}
	return PassProgress{State: p.State, Done: p.Done, Total: p.Total, Rate: round(p.Rate), ETASeconds: eta}
}

func watchingOf(w core.FolderWatching) FolderWatching {
	return FolderWatching{FileSystem: w.FileSystem, LiveEvents: w.LiveEvents, RescanEverySeconds: int(w.RescanEvery.Seconds()),
		WatchLimit: w.WatchLimit, Offline: w.Offline, OfflineSince: OptionalUTC(w.OfflineSince)}
}

// FolderOf shows a watched folder.
func FolderOf(d core.WatchedDirectory) Folder {
	return Folder{ID: d.ID, Path: d.Path, FileCount: d.FileCount, IndexedCount: d.IndexedCount,
		FailedCount: d.FailedCount, ProblemCount: d.ProblemCount, Status: d.Status, AddedAt: UTCTime(d.CreatedAt), StatusMessage: d.StatusMessage,
		LastScan: OptionalUTC(d.LastScan), Embedding: d.Embedding, PendingCount: d.PendingCount, NamesOnly: d.NamesOnly,
		RescanSeconds: d.RescanSeconds, Watching: watchingOf(d.Watching),
		Progress: FolderProgress{Names: passOf(d.Progress.Names), Content: passOf(d.Progress.Content)}}
}

// FolderList is the data of GET /api/watched-directories: one page of the
// folders, and how many there are in all.
type FolderList struct {
	TotalDirectories int      `json:"total_directories"`
	Directories      []Folder `json:"directories"`
	Page
}

// FoldersOf shows a page of the watched folders.
func FoldersOf(all []core.WatchedDirectory, page Page) FolderList {
	from, to := page.Window(len(all))
	dirs := all[from:to]
	out := FolderList{TotalDirectories: len(all), Directories: make([]Folder, len(dirs)), Page: page}
	for i, d := range dirs {
		out.Directories[i] = FolderOf(d)
	}
	return out
}

// Job is a watch job.
type Job struct {
	ID          int64   `json:"id"`
	Path        string  `json:"path"`
	IsActive    bool    `json:"is_active"`
	Recursive   bool    `json:"recursive"`
	FilePattern *string `json:"file_pattern"`
	LastScan    *string `json:"last_scan"`
	CreatedAt   *string `json:"created_at"`
	UpdatedAt   *string `json:"updated_at"`
}

// JobList is the answer of GET /api/watch/jobs: the spec's jobs (one page
// of them), and how many there are in all.
type JobList struct {
	Jobs  []Job `json:"jobs"`
	Total int   `json:"total"`
	Page
}

// JobsOf shows a page of the watch jobs.
func JobsOf(all []core.WatchedDirectory, page Page) JobList {
	from, to := page.Window(len(all))
	dirs := all[from:to]
	jobs := make([]Job, len(dirs))
	for i, d := range dirs {
		j := Job{ID: d.ID, Path: d.Path, IsActive: d.IsActive, Recursive: d.Recursive,
			LastScan: OptionalUTC(d.LastScan), CreatedAt: OptionalUTC(&d.CreatedAt), UpdatedAt: OptionalUTC(&d.UpdatedAt)}
		if d.FilePattern != "" {
			j.FilePattern = &d.FilePattern
		}
		jobs[i] = j
	}
	return JobList{Jobs: jobs, Total: len(all), Page: page}
}

// Problem is a file of a folder that failed, or was indexed by name only,
// with the reason.
type Problem struct {
	ID       int64  `json:"id"`
	Path     string `json:"path"`
	Status   string `json:"status"` // failed, or indexed (by name only)
	Error    string `json:"error"`
	Modified string `json:"modified"`
}

// ProblemsOf shows a folder's problem files.
func ProblemsOf(files []core.File) []Problem {
	out := make([]Problem, len(files))
	for i, f := range files {
		out[i] = Problem{ID: f.ID, Path: f.Path, Status: f.State, Error: f.Error, Modified: LocalTime(f.Modified)}
	}
	return out
}
