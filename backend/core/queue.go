package core

import "time"

// QueueStatus is the indexing queue's pause state and counts, with the
// JSON names the API uses.
type QueueStatus struct {
	Paused            bool   `json:"paused"`
	PausedManually    bool   `json:"paused_manually"`
	PausedByScheduler bool   `json:"paused_by_scheduler"`
	SchedulerReason   string `json:"scheduler_reason"`
	// PausedByStorage: the index cannot be written (its disk is full, or
	// failing); processing resumes by itself once it can.
	PausedByStorage bool   `json:"paused_by_storage"`
	StorageReason   string `json:"storage_reason"`
	Total           int    `json:"total"`
	CoolingDown     int    `json:"cooling_down"`
	Ready           int    `json:"ready"`
	Processing      int    `json:"processing"`
	// Merging: the full-text index is merging its segments into one, in
	// the background, after it grew (searches are served meanwhile).
	Merging bool `json:"merging"`
}

// QueueItem is one pending unit of indexing work.
type QueueItem struct {
	ID         string
	Path       string
	Action     string // index, delete, move
	Status     string // cooling_down, ready, processing
	EnqueuedAt time.Time
	ReadyAt    time.Time
	Dest       string // for moves
	Retries    int
	LastError  string
	DirID      int64
}
