package apidoc

import (
	"trove/backend/core"
	"trove/backend/shell/views"

	"github.com/invopop/jsonschema"
)

// The answers the error handler builds as literal maps, written down as
// types so they are reflected like the rest. The response-validation test keeps
// them true: a handler that adds, renames or retypes a field no longer
// matches its schema.

// Error bodies, one per family (docs/api.md, "Error bodies").
type (
	// ErrorStatus is the status family's error.
	ErrorStatus struct {
		Status string      `json:"status" jsonschema:"enum=error"`
		Error  ErrorDetail `json:"error"`
	}
	ErrorDetail struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
		Field   string `json:"field,omitempty" jsonschema:"description=the input field at fault, when there is one"`
	}
	// ErrorSuccess is the success family's error.
	ErrorSuccess struct {
		Success bool   `json:"success" jsonschema:"enum=false"`
		Message string `json:"message"`
		Code    Code   `json:"code"`
	}
	// ErrorWatch is the success family's error of POST /api/watch/.
	ErrorWatch struct {
		ErrorSuccess
		FilesIndexed *int `json:"files_indexed,omitempty" jsonschema:"enum=0,description=0; absent when the request was refused before the endpoint ran (token, Host, Origin)"`
	}
	// ErrorJob is the success family's error of DELETE /api/watch/jobs/{job_id}.
	ErrorJob struct {
		ErrorSuccess
		JobID *int64 `json:"job_id,omitempty" jsonschema:"description=the job asked for; null when the id is not a number; absent when the request was refused before the endpoint ran"`
	}
	// ErrorQueueItem is the success family's error of DELETE /api/queue/items/{item_id}.
	ErrorQueueItem struct {
		ErrorSuccess
		ID string `json:"id,omitempty" jsonschema:"description=the item asked for; absent when the request was refused before the endpoint ran"`
	}
	// ErrorBare is the files family's error.
	ErrorBare struct {
		Error string `json:"error"`
		Code  Code   `json:"code"`
	}
)

// Code is an error's code: one of the codes views gives (views.AllCodes),
// so an answer with a code the document does not list fails the checks.
type Code string

// JSONSchema lists the codes.
func (Code) JSONSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: "stable machine-readable code (docs/api.md lists what each means)"}
	for _, c := range views.AllCodes() {
		s.Enum = append(s.Enum, c)
	}
	return s
}

// SettingsPatch is PUT /api/settings/'s body: dotted keys and values.
type SettingsPatch map[string]any

// EventEnvelope is one /api/updates event: the SSE data line.
type EventEnvelope struct {
	ID   uint64 `json:"id" jsonschema:"description=increasing; 0 for the state sent when a stream opens"`
	Type string `json:"type"`
	Time string `json:"time" jsonschema:"format=date-time"`
	Data any    `json:"data"`
}

// Event payloads, by kind: core's event types themselves, so the document
// cannot drift from what the bus sends (resync is the stream's own,
// views.ResyncEvent).

// eventKinds pairs each kind with its payload.
var eventKinds = []struct {
	kind    string
	payload any
}{
	{core.EventFileIndexed, core.FileIndexed{}},
	{core.EventFileFailed, core.FileFailed{}},
	{core.EventFileRemoved, core.FileRemoved{}},
	{core.EventFileMoved, core.FileMoved{}},
	{core.EventFolderStatus, core.FolderStatus{}},
	{core.EventFolderRemoved, core.FolderRemoved{}},
	{core.EventScanProgress, core.ScanProgress{}},
	{core.EventQueueStatus, core.QueueStatus{}},
	{core.EventSettings, core.Settings{}},
	{core.EventFilters, core.FiltersChanged{}},
	{core.EventEmbedding, core.EmbeddingHealth{}},
	{core.EventIndexStatus, core.IndexHealth{}},
	{core.EventSavedMatched, core.SavedMatched{}},
	{core.EventSavedChanged, core.SavedChanged{}},
}

// ImageBytes marks an answer of raw image bytes (not JSON).
type ImageBytes struct{}
