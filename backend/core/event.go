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
	EventIndexStatus   = "index.status" // the index's condition changed (storage, damage, rebuild)
)

// Event is one state change. Data is a JSON-encodable value whose shape
// depends on Type (documented in docs/api.md).
type Event struct {
	ID   uint64    `json:"id"`
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Data any       `json:"data"`
}
