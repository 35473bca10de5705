package views

import (
	"trove/backend/core"
	"trove/backend/service"
)

// File is the file record: the spec's fields first, then Trove's.
type File struct {
	ID          int64    `json:"id"`
	Filename    string   `json:"filename"`
	Extension   string   `json:"extension"`
	Created     string   `json:"created" jsonschema:"description=the creation (birth) time where the file system records one (statx), else the modification time"`
	Modified    string   `json:"modified"`
	Summary     string   `json:"summary"`
	Keywords    []string `json:"keywords"`
	Path        string   `json:"path"`
	Title       string   `json:"title"`
	Size        int64    `json:"size"`
	Mime        string   `json:"mime"`
	Accessed    string   `json:"accessed"`
	IndexedAt   *string  `json:"indexed_at"`
	Status      string   `json:"status"`
	Error       *string  `json:"error"`
	ContentHash string   `json:"content_hash"`
	DirectoryID int64    `json:"directory_id"`
}

// FileOf shows a file record.
func FileOf(f core.File) File {
	v := File{
		ID: f.ID, Filename: f.Filename, Extension: f.Extension, Created: CreatedTime(f.Created, f.Modified),
		Modified: LocalTime(f.Modified), Summary: f.Summary, Keywords: f.Keywords, Path: f.Path, Title: f.Title,
		Size: f.Size, Mime: f.Mime, Accessed: LocalTime(f.Accessed), Status: f.State,
		ContentHash: f.ContentHash, DirectoryID: f.DirID,
	}
	if v.Keywords == nil { // a file that failed has none: [] as for any other, never null
		v.Keywords = []string{}
	}
	if !f.IndexedAt.IsZero() {
		v.IndexedAt = OptionalLocal(&f.IndexedAt)
	}
	if f.Error != "" {
		v.Error = &f.Error
	}
	return v
}

// Stats are the file statistics.
type Stats struct {
	TotalFiles  int64            `json:"total_files"`
	TotalSize   int64            `json:"total_size"`
	FileTypes   map[string]int64 `json:"file_types"`
	LastIndexed *string          `json:"last_indexed"`
	FailedFiles int64            `json:"failed_files"`
}

// StatsOf shows file statistics.
func StatsOf(st core.FileStats) Stats {
	return Stats{TotalFiles: st.TotalFiles, TotalSize: st.TotalSize, FileTypes: st.FileTypes,
		LastIndexed: OptionalLocal(st.LastIndexed), FailedFiles: st.FailedFiles}
}

// Status is the service status.
type Status struct {
	Jobs          int                  `json:"jobs"`
	Version       string               `json:"version"`
	UptimeSeconds int64                `json:"uptime_seconds"`
	Embedding     core.EmbeddingHealth `json:"embedding"`
	Index         IndexStatus          `json:"index"`
	OCR           OCRStatus            `json:"ocr"`
	// Desktop says how Trove's ways into the desktop are doing (tray,
	// global shortcut, desktop search); [] in a server that tried none.
	Desktop []core.Integration `json:"desktop"`
}

// OCRStatus says whether OCR (extraction.ocr) can run on this machine,
// whatever the setting.
type OCRStatus struct {
	Available bool     `json:"available"` // tesseract found and working
	Languages []string `json:"languages"` // its language packs; [] when not available
	Message   string   `json:"message"`   // why not, for people; "" when available
}

// IndexStatus is the condition of the index itself.
type IndexStatus struct {
	Status    string  `json:"status"` // ok, storage_error, damaged, rebuilding
	Message   string  `json:"message"`
	Notice    string  `json:"notice"`
	CheckedAt *string `json:"checked_at"`
}

// StatusOf shows the service status.
func StatusOf(st service.Status) Status {
	h := st.Index
	return Status{Jobs: st.Jobs, Version: st.Version, UptimeSeconds: int64(st.UptimeSeconds), Embedding: st.Embedding,
		Index:   IndexStatus{Status: h.Status, Message: h.Message, Notice: h.Notice, CheckedAt: OptionalUTC(h.CheckedAt)},
		OCR:     OCRStatus{Available: st.OCR.Available, Languages: append([]string{}, st.OCR.Languages...), Message: st.OCR.Message},
		Desktop: append([]core.Integration{}, st.Desktop...)}
}

// titleOf is never empty: a file without a title shows its name.
func titleOf(f core.File) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Filename
}

func keywordsOf(f core.File) []string {
	if f.Keywords == nil {
		return []string{}
	}
	return f.Keywords
}
