package client

import "encoding/json"

// The API's JSON shapes, as the OpenAPI document names them. A client
// ignores fields it does not know, so a newer Trove stays readable.

// SearchRequest is the body of POST /api/search/. Only Query is required;
// zero values are left out, so the server's defaults apply.
type SearchRequest struct {
	Query     string         `json:"query"`
	Directory string         `json:"directory,omitempty"`
	Filters   *SearchFilters `json:"filters,omitempty"`
	Limit     int            `json:"limit,omitempty"`
	// Offset skips that many results (paging); 0 is the first page.
	Offset   int      `json:"offset,omitempty"`
	MinScore *float64 `json:"min_score,omitempty"`
	Mode     string   `json:"mode,omitempty"` // hybrid, keyword or semantic
	// Sort is relevance (the default), modified, name or size.
	Sort string `json:"sort,omitempty"`
	// Order is asc or desc; the default is desc, but asc for name.
	Order string `json:"order,omitempty"`
}

// SearchFilters narrow a search.
type SearchFilters struct {
	Extensions     []string `json:"extensions,omitempty"`
	ModifiedAfter  string   `json:"modified_after,omitempty"`
	ModifiedBefore string   `json:"modified_before,omitempty"`
	CreatedAfter   string   `json:"created_after,omitempty"`
	CreatedBefore  string   `json:"created_before,omitempty"`
	MinSize        *int64   `json:"min_size,omitempty"`
	MaxSize        *int64   `json:"max_size,omitempty"`
	Path           string   `json:"path,omitempty"`
}

// SearchResponse is the answer of POST /api/search/.
type SearchResponse struct {
	// Raw is the answer as sent, with any fields this client does not know.
	Raw json.RawMessage `json:"-"`

	Results []SearchHit `json:"results"`
	// Total is the number of matching files (more than len(Results) when
	// a page is asked for).
	Total  int    `json:"total"`
	Query  string `json:"query"`
	Notice string `json:"notice,omitempty"`
	// KeywordMatches is how many of the Total files match a word of the
	// query; 0 with results means they were found by meaning alone. nil
	// from a semantic search (which looks no word up) or an older Trove.
	KeywordMatches *int `json:"keyword_matches"`
}

// Matched reports whether the search found files matching a word of the
// query: false when it found none, or only files close in meaning, which
// Trove's clients report as "No files match". Without keyword_matches
// (see KeywordMatches), any result counts.
func (r *SearchResponse) Matched() bool {
	if r.KeywordMatches != nil {
		return *r.KeywordMatches > 0
	}
	return len(r.Results) > 0
}

// SearchHit is one result.
type SearchHit struct {
	File           SearchFile `json:"file"`
	RelevanceScore float64    `json:"relevance_score"`
	SemanticScore  float64    `json:"semantic_score"`
	KeywordScore   float64    `json:"keyword_score"`
	Snippet        string     `json:"snippet"`
	// KeywordMatch: the file holds a word of the query (or matches it by
	// name); false for a file found by meaning alone; nil as for
	// SearchResponse.KeywordMatches.
	KeywordMatch *bool `json:"keyword_match"`
}

// SearchFile is a result's file.
type SearchFile struct {
	ID        int64    `json:"id"`
	FilePath  string   `json:"file_path"`
	Filename  string   `json:"filename"`
	Extension string   `json:"extension"`
	Created   string   `json:"created"`
	Modified  string   `json:"modified"`
	Accessed  string   `json:"accessed"`
	Title     string   `json:"title"`
	Summary   string   `json:"summary"`
	Keywords  []string `json:"keywords"`
	Size      int64    `json:"size"`
	Mime      string   `json:"mime"`
}

// File is a file's record (GET /api/files/{id}).
type File struct {
	ID          int64    `json:"id"`
	Path        string   `json:"path"`
	Filename    string   `json:"filename"`
	Extension   string   `json:"extension"`
	Title       string   `json:"title"`
	Summary     string   `json:"summary"`
	Keywords    []string `json:"keywords"`
	Size        int64    `json:"size"`
	Mime        string   `json:"mime"`
	Created     string   `json:"created"`
	Modified    string   `json:"modified"`
	Accessed    string   `json:"accessed"`
	IndexedAt   *string  `json:"indexed_at"`
	Status      string   `json:"status"`
	Error       *string  `json:"error"`
	ContentHash string   `json:"content_hash"`
	DirectoryID int64    `json:"directory_id"`
}

// Status is GET /api/status/.
type Status struct {
	// Raw is the answer as sent.
	Raw           json.RawMessage `json:"-"`
	Jobs          int             `json:"jobs"`
	Version       string          `json:"version"`
	UptimeSeconds float64         `json:"uptime_seconds"`
	Embedding     EmbeddingHealth `json:"embedding"`
	Index         IndexStatus     `json:"index"`
}

// EmbeddingHealth is whether the embedding provider answers.
type EmbeddingHealth struct {
	State          string  `json:"state"` // ok or failing
	Model          string  `json:"model"`
	Message        string  `json:"message"`
	Since          *string `json:"since"`
	FailedRequests int     `json:"failed_requests"`
}

// IndexStatus is the index's condition.
type IndexStatus struct {
	Status    string  `json:"status"` // ok, storage_error, damaged, rebuilding
	Message   string  `json:"message"`
	Notice    string  `json:"notice"`
	CheckedAt *string `json:"checked_at"`
}

// FolderList is the data of GET /api/watched-directories.
type FolderList struct {
	TotalDirectories int      `json:"total_directories"`
	Directories      []Folder `json:"directories"`
	Offset           int      `json:"offset"`
	Limit            int      `json:"limit"`
}

// Folder is a watched folder and its progress.
type Folder struct {
	ID            int64           `json:"id"`
	Path          string          `json:"path"`
	FileCount     int64           `json:"file_count"`
	IndexedCount  int64           `json:"indexed_count"`
	FailedCount   int64           `json:"failed_count"`
	Status        string          `json:"status"` // indexing, watching, complete, error
	AddedAt       string          `json:"added_at"`
	StatusMessage string          `json:"status_message"`
	LastScan      *string         `json:"last_scan"`
	Embedding     EmbeddingHealth `json:"embedding"`
	PendingCount  int64           `json:"pending_count"` // found by name, content not read yet
	NamesOnly     bool            `json:"names_only"`
	Progress      FolderProgress  `json:"progress"`
}

// FolderProgress is the progress of a folder's names pass and content
// pass.
type FolderProgress struct {
	Names   PassProgress `json:"names"`
	Content PassProgress `json:"content"`
}

// PassProgress is one pass over a folder's files.
type PassProgress struct {
	State      string  `json:"state"` // counting, running, paused, done, off
	Done       int64   `json:"done"`
	Total      int64   `json:"total"` // -1 while not known
	Rate       float64 `json:"rate"`
	ETASeconds int64   `json:"eta_seconds"` // -1 when not known
}

// Indexed reports whether every file the folder's scan found is processed
// (for a names-only folder: recorded by name).
func (f Folder) Indexed() bool {
	done := f.IndexedCount + f.FailedCount
	if f.NamesOnly {
		done = f.Progress.Names.Done
	}
	return f.Status != "indexing" && f.Status != "error" && done >= f.FileCount
}

// Watched is what POST /api/watch/directory reports.
type Watched struct {
	Directory       string `json:"directory"`
	FilesFound      int    `json:"files_found"`
	IndexingStarted bool   `json:"indexing_started"`
	JobID           int64  `json:"job_id"`
}

// QueueStatus is GET /api/queue/status.
type QueueStatus struct {
	Paused            bool   `json:"paused"`
	PausedManually    bool   `json:"paused_manually"`
	PausedByScheduler bool   `json:"paused_by_scheduler"`
	SchedulerReason   string `json:"scheduler_reason"`
	PausedByStorage   bool   `json:"paused_by_storage"`
	StorageReason     string `json:"storage_reason"`
	Total             int    `json:"total"`
	CoolingDown       int    `json:"cooling_down"`
	Ready             int    `json:"ready"`
	Processing        int    `json:"processing"`
	Merging           bool   `json:"merging"` // the full-text index is merging its segments
}
