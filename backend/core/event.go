package core

import "time"

// Event kinds published on the event bus and streamed by /api/updates.
const (
	EventFileIndexed   = "file.indexed"
	EventFileFailed    = "file.failed"
	EventFileRemoved   = "file.removed"
	EventFileMoved     = "file.moved"
	EventFolderStatus  = "folder.status"
	EventFolderRemoved = "folder.removed"
	EventScanProgress  = "scan.progress"
	EventQueueStatus   = "queue.status"
	EventSettings      = "settings.changed"
	EventFilters       = "filters.changed"
	EventEmbedding     = "embedding.status"
	EventIndexStatus   = "index.status"  // the index's condition changed (storage, damage, rebuild)
	EventAgentCall     = "mcp.call"      // an agent called a tool of Trove's MCP server
	EventSavedMatched  = "saved.matched" // new files match a saved search that notifies
	EventSavedChanged  = "saved.changed" // a saved search was saved, changed or deleted
)

// Event is one state change: a kind and its payload, stamped by the bus.
type Event struct {
	ID   uint64    `json:"id"`
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Data EventData `json:"data"`
}

// EventData is the payload of one kind of event. Each kind has exactly one
// Go type, so one JSON shape (docs/api.md, /api/updates); the web UI's
// types are generated from these (TestEventTypesMatchTheWebUI).
type EventData interface {
	EventKind() string
}

// EventPayloads lists one value of every payload type, in the order of the
// kinds above; the generator of the web UI's types reads it.
var EventPayloads = []EventData{
	FileIndexed{}, FileFailed{}, FileRemoved{}, FileMoved{}, FolderStatus{}, FolderRemoved{}, ScanProgress{},
	QueueStatus{}, Settings{}, FiltersChanged{}, EmbeddingHealth{}, IndexHealth{}, AgentCall{}, SavedMatched{},
	SavedChanged{},
}

// FileIndexed: a file's content is in the index.
type FileIndexed struct {
	ID    int64  `json:"id"`
	Path  string `json:"path"`
	DirID int64  `json:"dir_id"`
	Title string `json:"title"`
	// Warning says why content was not fully indexed, or is "".
	Warning string `json:"warning"`
}

// FileFailed: a file could not be indexed.
type FileFailed struct {
	ID    int64  `json:"id"`
	Path  string `json:"path"`
	DirID int64  `json:"dir_id"`
	Error string `json:"error"`
}

// FileRemoved: a file left the index.
type FileRemoved struct {
	ID   int64  `json:"id"`
	Path string `json:"path"`
}

// FileMoved: a file, or a folder of files, got a new path without being
// read again. For a folder, ID is 0 and From and To are the folders.
type FileMoved struct {
	ID    int64  `json:"id"`
	From  string `json:"from"`
	To    string `json:"to"`
	DirID int64  `json:"dir_id"`
	Files int    `json:"files"` // how many files moved (1 for a file)
}

// FolderStatus: a watched folder's status or counts changed.
type FolderStatus struct {
	ID           int64  `json:"id"`
	Path         string `json:"path"`
	Status       string `json:"status"`
	Message      string `json:"message"`
	FileCount    int64  `json:"file_count"`
	IndexedCount int64  `json:"indexed_count"`
	FailedCount  int64  `json:"failed_count"`
	ProblemCount int64  `json:"problem_count"` // failures and files indexed with a warning
}

// FolderStatusOf is the folder.status event of a folder.
func FolderStatusOf(d WatchedDirectory) FolderStatus {
	return FolderStatus{ID: d.ID, Path: d.Path, Status: d.Status, Message: d.StatusMessage,
		FileCount: d.FileCount, IndexedCount: d.IndexedCount, FailedCount: d.FailedCount, ProblemCount: d.ProblemCount}
}

// FolderRemoved: a folder is no longer watched. AbsorbedBy is the folder
// that took it in when its parent was watched, or 0.
type FolderRemoved struct {
	ID         int64  `json:"id"`
	Path       string `json:"path"`
	AbsorbedBy int64  `json:"absorbed_by"`
}

// ScanProgress: a folder's counts while it is being indexed.
type ScanProgress struct {
	ID           int64  `json:"id"`
	Path         string `json:"path"`
	Status       string `json:"status"`
	FileCount    int64  `json:"file_count"`
	IndexedCount int64  `json:"indexed_count"`
	FailedCount  int64  `json:"failed_count"`
	ProblemCount int64  `json:"problem_count"` // failures and files indexed with a warning
	Pending      int    `json:"pending"`       // files waiting in the queue
	// PendingCount is the files found by name whose content is not read
	// yet: names come first, and the content pass takes them into the
	// queue a window at a time, so most of what waits waits here.
	PendingCount int64 `json:"pending_count"`
}

// AgentCall: an AI agent called a tool of Trove's MCP server. It says
// what the agent asked and how much left Trove in the answer, so the
// person sees it in Activity.
type AgentCall struct {
	Tool      string   `json:"tool"`
	Arguments string   `json:"arguments"` // the arguments as sent (JSON), cut at 1 KiB
	Results   int      `json:"results"`   // files named in the answer
	Files     []string `json:"files"`     // their paths, the first 20
	Bytes     int      `json:"bytes"`     // size of the answer's content
	Error     string   `json:"error"`     // why the call failed, or ""
}

// SavedMatched: files added to the index since a saved search (one that
// notifies) last looked match it.
type SavedMatched struct {
	ID    int64         `json:"id"`    // the saved search's
	Name  string        `json:"name"`  // the saved search's
	Count int           `json:"count"` // how many new files match (all of them, not only those in Files)
	Files []MatchedFile `json:"files"` // the first few of them, best first
}

// SavedChanged: a saved search was saved, renamed, changed or deleted,
// so every window lists the same ones.
type SavedChanged struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Deleted bool   `json:"deleted"`
}

// MatchedFile is one file of a SavedMatched event.
type MatchedFile struct {
	ID   int64  `json:"id"`
	Path string `json:"path"`
}

// FiltersChanged: the filters changed, or files they exclude were removed.
type FiltersChanged struct {
	Version      int `json:"version"`
	RemovedCount int `json:"removed_count"`
}

func (FileIndexed) EventKind() string     { return EventFileIndexed }
func (FileFailed) EventKind() string      { return EventFileFailed }
func (FileRemoved) EventKind() string     { return EventFileRemoved }
func (FileMoved) EventKind() string       { return EventFileMoved }
func (FolderStatus) EventKind() string    { return EventFolderStatus }
func (FolderRemoved) EventKind() string   { return EventFolderRemoved }
func (ScanProgress) EventKind() string    { return EventScanProgress }
func (QueueStatus) EventKind() string     { return EventQueueStatus }
func (Settings) EventKind() string        { return EventSettings }
func (FiltersChanged) EventKind() string  { return EventFilters }
func (EmbeddingHealth) EventKind() string { return EventEmbedding }
func (IndexHealth) EventKind() string     { return EventIndexStatus }
func (AgentCall) EventKind() string       { return EventAgentCall }
func (SavedMatched) EventKind() string    { return EventSavedMatched }
func (SavedChanged) EventKind() string    { return EventSavedChanged }
