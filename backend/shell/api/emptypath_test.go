package api_test

import (
	"strings"
	"testing"

	"trove/internal/testserver"
)

// A path that is empty or only blanks is what a script sends for an unset
// variable ("$DIR"). It must not quietly mean the current folder or every
// folder: each request that takes a path refuses it with a 400 naming the
// field, in the endpoint's own shape.
func TestEmptyPathsAreRefusedNamingTheField(t *testing.T) {
	s := testserver.Start(t)
	search := func(extra map[string]any) map[string]any {
		body := map[string]any{"query": "roof"}
		for k, v := range extra {
			body[k] = v
		}
		return body
	}
	for _, blank := range []string{"", "  ", "\t\n"} {
		for _, c := range []struct {
			method, path string
			body         any
			code, field  string
		}{
			{"POST", "/api/watch/directory", map[string]any{"path": blank}, "INVALID_PATH", "path"},
			{"POST", "/api/watch/", map[string]any{"directory_path": blank}, "INVALID_PATH", "directory_path"},
			{"POST", "/api/search/", search(map[string]any{"directory": blank}), "INVALID_DIRECTORY", "directory"},
			{"POST", "/api/search/", search(map[string]any{"filters": map[string]any{"path": blank}}), "INVALID_FILTER", "filters.path"},
			{"GET", "/api/files/lookup?path=" + strings.NewReplacer(" ", "%20", "\t", "%09", "\n", "%0A").Replace(blank), nil, "MISSING_FIELD", "path"},
		} {
			r := s.Do(c.method, c.path, c.body)
			if r.Status != 400 || errorCode(r) != c.code || !strings.HasPrefix(errorMessage(r), c.field+": ") {
				t.Errorf("%s %s %v: %d %s, want 400 %s naming %s", c.method, c.path, c.body, r.Status, r.Body, c.code, c.field)
			}
			if f := r.Field("error.field"); f != nil && f != c.field {
				t.Errorf("%s %s %v: field %v, want %s", c.method, c.path, c.body, f, c.field)
			}
		}
	}
	// A relative path names its field too: it would be read against
	// Trove's working folder.
	for field, path := range map[string]string{"path": "/api/watch/directory", "directory_path": "/api/watch/"} {
		r := s.Do("POST", path, map[string]any{field: "notes"})
		if r.Status != 400 || errorCode(r) != "INVALID_PATH" || !strings.HasPrefix(errorMessage(r), field+": ") {
			t.Errorf("%s, relative: %d %s", path, r.Status, r.Body)
		}
	}
	if r := s.Get("/api/files/lookup?path=notes/a.txt"); r.Status != 400 || errorCode(r) != "INVALID_PATH" {
		t.Errorf("lookup, relative: %d %s", r.Status, r.Body)
	}
	if r := s.Get("/api/watch/jobs"); r.Field("total") != float64(0) {
		t.Errorf("a refused path was watched: %s", r.Body)
	}
}

// errorCode and errorMessage read an error in any of the three shapes.
func errorCode(r testserver.Response) any {
	if c := r.Field("error.code"); c != nil {
		return c
	}
	return r.Field("code")
}

func errorMessage(r testserver.Response) string {
	for _, k := range []string{"error.message", "message", "error"} {
		if m, ok := r.Field(k).(string); ok {
			return m
		}
	}
	return ""
}
