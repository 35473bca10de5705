package views

import (
	"encoding/json"

	"trove/backend/core"
	"trove/backend/service"
)

// The request bodies both shells receive (the API as HTTP bodies, the
// desktop bindings as JSON arguments), decoded and checked in one place.

// DecodeSearch reads a search request (POST /api/search/) and builds the
// engine's; its Query is the query as sent.
func DecodeSearch(body []byte) (service.SearchRequest, error) {
	var req SearchRequest
	if err := Decode(body, &req); err != nil {
		return service.SearchRequest{}, err
	}
	return req.Build()
}

// DecodeWatch reads a watch request whose folder is in field (path or
// directory_path).
func DecodeWatch(body []byte, field string) (string, service.WatchOptions, error) {
	var req WatchRequest
	if err := Decode(body, &req); err != nil {
		return "", service.WatchOptions{}, err
	}
	return req.Target(field)
}

// DecodeSettingsPatch reads a settings update: an object of dotted keys.
func DecodeSettingsPatch(body []byte) (map[string]json.RawMessage, error) {
	var patch map[string]json.RawMessage
	if err := Decode(body, &patch); err != nil {
		return nil, err
	}
	if patch == nil {
		return nil, core.Fail(core.BadJSON, "send a JSON object of dotted keys, like {\"queue.max_retries\": 3}")
	}
	return patch, nil
}

// DecodePattern reads and checks a filter pattern request.
func DecodePattern(body []byte) (PatternRequest, error) {
	var req PatternRequest
	if err := Decode(body, &req); err != nil {
		return req, err
	}
	return req, req.Check()
}

// Apply reports whether an added pattern applies at once (the default).
func (p PatternRequest) Apply() bool { return p.ApplyImmediately == nil || *p.ApplyImmediately }

// DecodeFilterUpdate reads a filter configuration update.
func DecodeFilterUpdate(body []byte) (core.FilterUpdate, error) {
	var u core.FilterUpdate
	err := Decode(body, &u)
	return u, err
}

// Lists come in pages, so no answer grows with the index: each list has a
// default page size and a largest one.
const (
	DefaultProblems   = 200
	MaxProblems       = 10000
	DefaultQueueItems = 100
	MaxQueueItems     = 1000
	DefaultFolders    = 1000
	MaxFolders        = 10000
)

// Page is a window on a list: Offset items skipped, then at most Limit.
type Page struct {
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// PageOf checks a requested window on a list whose default and largest
// page sizes are def and most: a limit of 0 (or none) means def, a larger
// one than most means most; a negative offset or limit is an error.
func PageOf(offset, limit, def, most int) (Page, error) {
	switch {
	case offset < 0:
		return Page{}, core.FailField(core.BadParameter, "offset", "must not be negative, got %d", offset)
	case limit < 0:
		return Page{}, core.FailField(core.BadParameter, "limit", "must not be negative, got %d", limit)
	case limit == 0:
		limit = def
	}
	return Page{Offset: offset, Limit: min(limit, most)}, nil
}

// Window returns the page's part of a list of n items: [from, to).
func (p Page) Window(n int) (from, to int) {
	from = min(p.Offset, n)
	return from, min(from+p.Limit, n)
}
