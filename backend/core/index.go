package core

import "time"

// Index conditions, as /api/status/ reports them.
const (
	IndexOK           = "ok"
	IndexStorageError = "storage_error" // its disk is full or failing: indexing is on hold
	IndexDamaged      = "damaged"       // an integrity check or a query found corruption
	IndexRebuilding   = "rebuilding"    // being rebuilt from the files on disk
)

// IndexHealth is the condition of the index itself, beside its contents.
// The JSON names are those of the index.status event.
type IndexHealth struct {
	Status    string     `json:"status"`
	Message   string     `json:"message"`    // what is wrong and what to do; empty when ok
	Notice    string     `json:"notice"`     // what Trove did about the index at start (folders restored), if anything
	CheckedAt *time.Time `json:"checked_at"` // the last completed integrity check
}
