package core

import "time"

// SavedSearch is a search request kept under a name. Its request is kept
// as a client sent it, so it is checked as a search request each time it
// runs (a folder it names may have gone since).
type SavedSearch struct {
	ID      int64
	Name    string
	Request SavedRequest
	// Notify: say on the event bus when new files match it.
	Notify           bool
	Created, Updated time.Time
	// SeenFileID: every file up to this id was checked for notifications.
	SeenFileID int64
}

// SavedRequest is the part of a search request a saved search keeps:
// everything but the page and the explanation.
type SavedRequest struct {
	Query     string
	Directory string // "" for every folder
	Filters   string // the filters object as JSON; "" for none
	Sort      string
	Order     string
	Mode      string
}
