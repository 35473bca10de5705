package views

import (
	"bytes"
	"encoding/json"

	"trove/backend/core"
	"trove/backend/service"
)

// SavedSearchRequest is the body of POST /api/saved-searches: a name and
// a search request as POST /api/search/ takes it, without its page.
type SavedSearchRequest struct {
	Name      string          `json:"name" jsonschema:"description=1 to 100 characters (blanks around it trimmed); unique in any case"`
	Query     *string         `json:"query"`
	Directory *string         `json:"directory"`
	Filters   json.RawMessage `json:"filters"`
	Sort      string          `json:"sort"`
	Order     string          `json:"order"`
	Mode      string          `json:"mode"`
	Notify    bool            `json:"notify" jsonschema:"description=publish saved.matched on /api/updates when files added to the index from now on match it"`
}

// SavedSearchChange is the body of PUT /api/saved-searches/{id}: name and
// notify each change alone; query with directory, filters, sort, order
// and mode replace the saved request together (those left out take their
// defaults).
type SavedSearchChange struct {
	Name      *string         `json:"name"`
	Notify    *bool           `json:"notify"`
	Query     *string         `json:"query"`
	Directory *string         `json:"directory"`
	Filters   json.RawMessage `json:"filters"`
	Sort      *string         `json:"sort"`
	Order     *string         `json:"order"`
	Mode      *string         `json:"mode"`
}

// SavedRunRequest is the optional body of POST /api/saved-searches/{id}/run:
// the page, as in POST /api/search/.
type SavedRunRequest struct {
	Offset *int `json:"offset"`
	Limit  *int `json:"limit"`
}

// SavedSearch is a saved search as clients see it: its request as a
// search request's fields.
type SavedSearch struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Query     string          `json:"query"`
	Directory *string         `json:"directory" jsonschema:"description=the folder searched; null for every watched folder"`
	Filters   json.RawMessage `json:"filters" jsonschema:"description=the filters object as saved; null for none"`
	Sort      string          `json:"sort"`
	Order     string          `json:"order" jsonschema:"description=as saved; empty: the sort's own direction"`
	Mode      string          `json:"mode"`
	Notify    bool            `json:"notify"`
	Created   string          `json:"created"`
	Updated   string          `json:"updated"`
	Problem   string          `json:"problem,omitempty" jsonschema:"description=why the saved search no longer runs as saved (its folder is not watched now); absent when it runs"`
}

// SavedSearchList is the answer of GET /api/saved-searches.
type SavedSearchList struct {
	SavedSearches []SavedSearch `json:"saved_searches"`
	Total         int           `json:"total"`
}

// SavedSearchDeleted is the answer of DELETE /api/saved-searches/{id}.
type SavedSearchDeleted struct {
	ID      int64 `json:"id"`
	Deleted bool  `json:"deleted" jsonschema:"enum=true"`
}

// DecodeSavedSearch reads POST /api/saved-searches.
func DecodeSavedSearch(body []byte) (SavedSearchRequest, core.SavedRequest, error) {
	var req SavedSearchRequest
	if err := Decode(body, &req); err != nil {
		return req, core.SavedRequest{}, err
	}
	saved, err := savedRequestOf(req.Query, req.Directory, req.Filters, req.Sort, req.Order, req.Mode)
	return req, saved, err
}

// DecodeSavedChange reads PUT /api/saved-searches/{id}.
func DecodeSavedChange(body []byte) (service.SavedChange, error) {
	var req SavedSearchChange
	if err := Decode(body, &req); err != nil {
		return service.SavedChange{}, err
	}
	ch := service.SavedChange{Name: req.Name, Notify: req.Notify}
	if req.Query == nil {
		if req.Directory != nil || req.Filters != nil || req.Sort != nil || req.Order != nil || req.Mode != nil {
			return ch, core.FailField(core.MissingField, "query", "required with directory, filters, sort, order or mode: they replace the saved search's request together")
		}
		return ch, nil
	}
	saved, err := savedRequestOf(req.Query, req.Directory, req.Filters, deref(req.Sort), deref(req.Order), deref(req.Mode))
	ch.Request = &saved
	return ch, err
}

// DecodeSavedRun reads the optional page of POST /api/saved-searches/{id}/run.
func DecodeSavedRun(body []byte) (service.SavedPage, error) {
	var req SavedRunRequest
	if len(bytes.TrimSpace(body)) > 0 {
		if err := Decode(body, &req); err != nil {
			return service.SavedPage{}, err
		}
	}
	return service.SavedPage{Offset: req.Offset, Limit: req.Limit}, nil
}

// BuildSaved checks a saved search's request as the search endpoint
// checks its body, and builds the search (service.SavedBuilder).
func BuildSaved(r core.SavedRequest, page service.SavedPage) (service.PageRequest, error) {
	req := SearchRequest{Query: &r.Query, Filters: json.RawMessage(r.Filters), Sort: r.Sort, Order: r.Order, Mode: r.Mode,
		Offset: page.Offset, Limit: page.Limit}
	if r.Directory != "" {
		req.Directory = &r.Directory
	}
	return req.BuildPage()
}

// savedRequestOf is the request a saved search keeps of a body's fields,
// checked first as POST /api/search/ checks its body: a directory given
// empty, say, is refused, not taken for every folder.
func savedRequestOf(query, dir *string, filters json.RawMessage, sort, order, mode string) (core.SavedRequest, error) {
	req := SearchRequest{Query: query, Directory: dir, Filters: filters, Sort: sort, Order: order, Mode: mode}
	if _, err := req.BuildPage(); err != nil {
		return core.SavedRequest{}, err
	}
	out := core.SavedRequest{Query: *query, Directory: deref(dir), Sort: sort, Order: order, Mode: mode}
	if t := bytes.TrimSpace(filters); len(t) > 0 && string(t) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, t); err != nil {
			return out, core.FailField(core.BadFilter, "filters", "not JSON: %v", err)
		}
		out.Filters = buf.String()
	}
	return out, nil
}

// SavedSearchOf shows a saved search; problem says why it no longer runs
// as saved, or is "".
func SavedSearchOf(ss core.SavedSearch, problem string) SavedSearch {
	r := ss.Request
	out := SavedSearch{ID: ss.ID, Name: ss.Name, Query: r.Query, Sort: r.Sort, Order: r.Order, Mode: r.Mode, Notify: ss.Notify,
		Created: LocalTime(ss.Created), Updated: LocalTime(ss.Updated), Problem: problem}
	if r.Directory != "" {
		out.Directory = &r.Directory
	}
	if r.Filters != "" {
		out.Filters = json.RawMessage(r.Filters)
	}
	if out.Sort == "" {
		out.Sort = "relevance"
	}
	if out.Mode == "" {
		out.Mode = "hybrid"
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
