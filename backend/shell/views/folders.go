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
}

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
	Embedding core.EmbeddingHealth `json:"embedding"`
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
		out.Directories[i] = Folder{ID: d.ID, Path: d.Path, FileCount: d.FileCount, IndexedCount: d.IndexedCount,
			FailedCount: d.FailedCount, ProblemCount: d.ProblemCount, Status: d.Status, AddedAt: UTCTime(d.CreatedAt), StatusMessage: d.StatusMessage,
			LastScan: OptionalUTC(d.LastScan), Embedding: d.Embedding}
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
