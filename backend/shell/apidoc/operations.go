package apidoc

import (
	"net/http"
	"strconv"

	"github.com/invopop/jsonschema"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// operation is one endpoint as the document describes it.
type operation struct {
	method, path, id, summary string
	params                    []param
	body                      any      // a value of the request body's type; nil for none
	bodyOptional              bool     // the body may be left out
	required                  []string // the body's required fields
	status                    int      // the success status
	answer                    any      // a value of the answer's type; nil for an event stream
	failure                   any      // a value of the error body's type
}

type param struct {
	name, in, typ, about string
}

func query(name, typ, about string) param  { return param{name, "query", typ, about} }
func inPath(name, typ, about string) param { return param{name, "path", typ, about} }

var paging = []param{
	query("offset", "integer", "items to skip (default 0)"),
	query("limit", "integer", "items to return (0 or none: the list's default; more than its largest: the largest)"),
}

var savedParam = inPath("id", "integer", "the saved search's id")

// operations lists every endpoint, grouped as docs/api.md is.
var operations = []operation{
	{method: "GET", path: "/api/openapi.json", id: "getOpenAPI", summary: "This document", status: 200, answer: map[string]any{}, failure: ErrorStatus{}},

	{method: "GET", path: "/api/settings/", id: "getSettings", summary: "Current settings", status: 200, answer: core.Settings{}, failure: ErrorStatus{}},
	{method: "PUT", path: "/api/settings/", id: "updateSettings", summary: "Change settings by dotted keys (checked, then saved)", body: SettingsPatch{}, status: 200, answer: core.Settings{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/settings/defaults", id: "getSettingsDefaults", summary: "Default settings", status: 200, answer: core.Settings{}, failure: ErrorStatus{}},

	{method: "GET", path: "/api/filters/config", id: "getFilterConfig", summary: "Filter configuration", status: 200, answer: core.FilterConfig{}, failure: ErrorSuccess{}},
	{method: "PUT", path: "/api/filters/config", id: "updateFilterConfig", summary: "Replace parts of the filter configuration", body: core.FilterUpdate{}, status: 200, answer: views.FilterChange{}, failure: ErrorSuccess{}},
	{method: "POST", path: "/api/filters/pattern", id: "addFilterPattern", summary: "Add an exclude or include pattern", body: views.PatternRequest{}, required: []string{"pattern"}, status: 200, answer: views.FilterChange{}, failure: ErrorSuccess{}},
	{method: "DELETE", path: "/api/filters/pattern", id: "removeFilterPattern", summary: "Remove a pattern", body: views.PatternRequest{}, required: []string{"pattern"}, status: 200, answer: views.FilterChange{}, failure: ErrorSuccess{}},
	{method: "POST", path: "/api/filters/apply", id: "applyFilters", summary: "Remove indexed files the filters now exclude", status: 200, answer: views.Applied{}, failure: ErrorSuccess{}},
	{method: "GET", path: "/api/filters/defaults", id: "getFilterDefaults", summary: "Default patterns", status: 200, answer: core.FilterPatterns{}, failure: ErrorSuccess{}},
	{method: "POST", path: "/api/filters/reset", id: "resetFilters", summary: "Back to the default patterns", status: 200, answer: views.FilterChange{}, failure: ErrorSuccess{}},

	{method: "GET", path: "/api/files/stats", id: "getFileStats", summary: "Counts and sizes of indexed files", status: 200, answer: views.Stats{}, failure: ErrorBare{}},
	{method: "GET", path: "/api/files/lookup", id: "lookupFile", summary: "The record of one path", params: []param{query("path", "string", "absolute path of the file (required)")}, status: 200, answer: views.File{}, failure: ErrorBare{}},
	{method: "GET", path: "/api/files/{file_id}", id: "getFile", summary: "One file's record", params: []param{inPath("file_id", "integer", "the file's id")}, status: 200, answer: views.File{}, failure: ErrorBare{}},
	{method: "POST", path: "/api/files/{file_id}/open", id: "openFile", summary: "Open an indexed file with the desktop's default application, at a page if asked", params: []param{inPath("file_id", "integer", "the file's id")}, body: views.OpenRequest{}, bodyOptional: true, status: 200, answer: views.Opened{}, failure: ErrorBare{}},
	{method: "GET", path: "/api/files/{file_id}/preview", id: "previewFile", summary: "An indexed file's text as indexed, with the query's words marked", params: []param{inPath("file_id", "integer", "the file's id"), query("query", "string", "the words to mark (optional)")}, status: 200, answer: views.PreviewView{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/files/{file_id}/image", id: "fileImage", summary: "An indexed image's bytes, for the preview (never SVG)", params: []param{inPath("file_id", "integer", "the file's id")}, status: 200, answer: ImageBytes{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/files/{file_id}/thumbnail", id: "fileThumbnail", summary: "A small picture of an indexed image, PDF (its first page) or video (a frame near its start), as PNG", params: []param{inPath("file_id", "integer", "the file's id"),
		query("size", "integer", "pixels on the picture's long side, 32 to 512 (default 256)")}, status: 200, answer: ImageBytes{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/files/{file_id}/apps", id: "fileApps", summary: "The desktop's applications for the file's type", params: []param{inPath("file_id", "integer", "the file's id")}, status: 200, answer: views.AppList{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/files/{file_id}/open-with", id: "openWith", summary: "Open an indexed file with one of its applications", params: []param{inPath("file_id", "integer", "the file's id")}, body: views.OpenWithRequest{}, required: []string{"app"}, status: 200, answer: views.Opened{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/files/{file_id}/reveal", id: "revealFile", summary: "Show an indexed file in its folder", params: []param{inPath("file_id", "integer", "the file's id")}, status: 200, answer: views.Opened{}, failure: ErrorBare{}},

	{method: "GET", path: "/api/status/", id: "getStatus", summary: "Service status: jobs, version, uptime, embedding provider, index condition, whether OCR can run", status: 200, answer: views.Status{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/index/rebuild", id: "rebuildIndex", summary: "Replace the index and index every file again (in the background)", status: 202, answer: views.RebuildAnswer{}, failure: ErrorStatus{}},

	{method: "POST", path: "/api/watch/directory", id: "watchDirectory", summary: "Watch a folder and index it", body: views.WatchRequest{}, status: 200, answer: views.WatchDirectoryAnswer{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/watch/", id: "watchDirectoryLegacy", summary: "Watch a folder (the spec's older form, directory_path)", body: views.WatchRequest{}, status: 201, answer: views.WatchLegacyAnswer{}, failure: ErrorWatch{}},
	{method: "GET", path: "/api/watch/jobs", id: "listWatchJobs", summary: "Watch jobs", params: paging, status: 200, answer: views.JobList{}, failure: ErrorSuccess{}},
	{method: "DELETE", path: "/api/watch/jobs/{job_id}", id: "deleteWatchJob", summary: "Stop watching a folder and remove its files from the index", params: []param{inPath("job_id", "integer", "the job's id")}, status: 200, answer: views.JobDeleted{}, failure: ErrorJob{}},
	{method: "GET", path: "/api/watched-directories", id: "listWatchedDirectories", summary: "Watched folders and their progress", params: paging, status: 200, answer: views.FolderListAnswer{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/watched-directories/{id}/problems", id: "listFolderProblems", summary: "Files of a folder that failed or were indexed by name only", params: []param{inPath("id", "integer", "the folder's id"), query("limit", "integer", "most problems to return")}, status: 200, answer: views.ProblemListAnswer{}, failure: ErrorStatus{}},

	{method: "GET", path: "/api/queue/status", id: "getQueueStatus", summary: "Queue counts and pause state", status: 200, answer: core.QueueStatus{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/queue/pause", id: "pauseQueue", summary: "Pause indexing", status: 200, answer: core.QueueStatus{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/queue/resume", id: "resumeQueue", summary: "Resume indexing", status: 200, answer: core.QueueStatus{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/queue/items", id: "listQueueItems", summary: "Queued work", params: paging, status: 200, answer: views.QueueItems{}, failure: ErrorStatus{}},
	{method: "DELETE", path: "/api/queue/items/{item_id}", id: "deleteQueueItem", summary: "Drop a queued item", params: []param{inPath("item_id", "string", "the item's id")}, status: 200, answer: views.QueueItemDeleted{}, failure: ErrorQueueItem{}},

	{method: "GET", path: "/api/updates", id: "streamUpdates", summary: "Server-Sent Events: the current state, then every change", params: []param{
		query("types", "string", "comma-separated event kinds to receive (default: all); an unknown kind is a 400 INVALID_PARAMETER naming the kinds"),
		query("heartbeat", "integer", "seconds between heartbeat comments, 1-60 (default 15)")}, status: 200, failure: ErrorStatus{}},

	{method: "GET", path: "/api/saved-searches", id: "listSavedSearches", summary: "Saved searches, by name", status: 200, answer: views.SavedSearchList{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/saved-searches", id: "createSavedSearch", summary: "Save a search under a name", body: views.SavedSearchRequest{}, required: []string{"name", "query"}, status: 201, answer: views.SavedSearch{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/saved-searches/{id}", id: "getSavedSearch", summary: "One saved search", params: []param{savedParam}, status: 200, answer: views.SavedSearch{}, failure: ErrorStatus{}},
	{method: "PUT", path: "/api/saved-searches/{id}", id: "updateSavedSearch", summary: "Rename a saved search, turn its notifications on or off, or replace its search", params: []param{savedParam}, body: views.SavedSearchChange{}, status: 200, answer: views.SavedSearch{}, failure: ErrorStatus{}},
	{method: "DELETE", path: "/api/saved-searches/{id}", id: "deleteSavedSearch", summary: "Forget a saved search", params: []param{savedParam}, status: 200, answer: views.SavedSearchDeleted{}, failure: ErrorStatus{}},
	{method: "POST", path: "/api/saved-searches/{id}/run", id: "runSavedSearch", summary: "Run a saved search: answers as POST /api/search/", params: []param{savedParam,
		query("offset", "integer", "results to skip, as offset of POST /api/search/ (when the body has no page)"),
		query("limit", "integer", "results to return, as limit of POST /api/search/ (when the body has no page)")}, body: views.SavedRunRequest{}, status: 200, answer: views.PageResponse{}, failure: ErrorStatus{}},

	{method: "POST", path: "/api/search/", id: "search", summary: "Search the index", body: views.SearchRequest{}, required: []string{"query"}, status: 200, answer: views.PageResponse{}, failure: ErrorStatus{}},
	{method: "GET", path: "/api/search/stream", id: "searchAsYouType", summary: "Search as you type", params: []param{
		query("query", "string", "the query, at least 2 characters (required)"),
		query("limit", "integer", "most results (default 20)"),
		query("min_score", "number", "lowest relevance score"),
		query("mode", "string", "hybrid (default), keyword, semantic or names")}, status: 200, answer: views.SearchStreamAnswer{}, failure: ErrorStatus{}},
}

// Operations lists the document's operations as "METHOD /path" pairs.
func Operations() [][2]string {
	out := make([][2]string, len(operations))
	for i, o := range operations {
		out[i] = [2]string{o.method, o.path}
	}
	return out
}

func (o operation) build(g *registry) map[string]any {
	op := map[string]any{"operationId": o.id, "summary": o.summary}
	var params []any
	for _, p := range o.params {
		params = append(params, map[string]any{"name": p.name, "in": p.in, "required": p.in == "path",
			"description": p.about, "schema": map[string]any{"type": p.typ}})
	}
	if params != nil {
		op["parameters"] = params
	}
	if o.body != nil {
		op["requestBody"] = map[string]any{"required": !o.bodyOptional, "content": jsonContent(g.request(o.body, o.required...))}
	}
	ok := map[string]any{"description": http.StatusText(o.status)}
	switch {
	case o.answer == nil:
		ok["content"] = map[string]any{"text/event-stream": map[string]any{
			"schema": map[string]any{"type": "string",
				"description": "SSE: each event's name is its kind and its data line is an Event (components/schemas/Event); a client that falls behind gets a resync event whose data is a ResyncEvent"}}}
	case o.answer == ImageBytes{}:
		ok["content"] = map[string]any{"image/*": map[string]any{
			"schema": map[string]any{"type": "string", "contentMediaType": "image/*", "description": "the image's bytes, sandboxed (Content-Security-Policy: sandbox)"}}}
	case o.path == "/api/openapi.json":
		ok["content"] = jsonContent(&jsonschema.Schema{Type: "object", Description: "an OpenAPI 3.1 document"})
	default:
		ok["content"] = jsonContent(g.ref(o.answer))
	}
	op["responses"] = map[string]any{
		strconv.Itoa(o.status): ok,
		"default": map[string]any{
			"description": "an error, in this endpoint's family's shape (docs/api.md, Error bodies), with a code",
			"content":     jsonContent(g.ref(o.failure)),
		},
	}
	return op
}

func jsonContent(s *jsonschema.Schema) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": s}}
}
