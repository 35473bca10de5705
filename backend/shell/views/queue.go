package views

import (
	"fmt"

	"trove/backend/core"
)

// QueueItem is one queued unit of work.
type QueueItem struct {
	ID                string  `json:"id"`
	FilePath          string  `json:"file_path"`
	Action            string  `json:"action"`
	Status            string  `json:"status"`
	EnqueuedAt        float64 `json:"enqueued_at"`
	CooldownExpiresAt float64 `json:"cooldown_expires_at"`
	DestPath          *string `json:"dest_path"`
	RetryCount        int     `json:"retry_count"`
	LastError         *string `json:"last_error"`
	DirectoryID       int64   `json:"directory_id"`
}

// QueueItems is the answer of GET /api/queue/items: one page of the
// items, and how many there are in all.
type QueueItems struct {
	Items []QueueItem `json:"items"`
	Total int         `json:"total"`
	Page
}

// QueueItemsOf shows a page of queue items.
func QueueItemsOf(items []core.QueueItem, total int, page Page) QueueItems {
	out := QueueItems{Items: make([]QueueItem, len(items)), Total: total, Page: page}
	for i, it := range items {
		q := QueueItem{ID: it.ID, FilePath: it.Path, Action: it.Action, Status: it.Status,
			EnqueuedAt: UnixSeconds(it.EnqueuedAt), CooldownExpiresAt: UnixSeconds(it.ReadyAt), RetryCount: it.Retries,
			DirectoryID: it.DirID}
		if it.Dest != "" {
			q.DestPath = &it.Dest
		}
		if it.LastError != "" {
			q.LastError = &it.LastError
		}
		out.Items[i] = q
	}
	return out
}

// QueueItemDeleted is the answer of DELETE /api/queue/items/{item_id}.
type QueueItemDeleted struct {
	Success bool   `json:"success" jsonschema:"enum=true"`
	Message string `json:"message"`
	ID      string `json:"id"`
}

// QueueItemDeletedOf says that queue item id was dropped.
func QueueItemDeletedOf(id string) QueueItemDeleted {
	return QueueItemDeleted{Success: true, Message: fmt.Sprintf("Removed queue item %s", id), ID: id}
}
