package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/backend/service"
	"trove/internal/testserver"
)

// wantError checks an error answer: its status, code and field.
func wantError(t *testing.T, what string, r testserver.Response, status int, code, field string) {
	t.Helper()
	if r.Status != status || r.Field("status") != "error" || r.Field("error.code") != code || field != "" && r.Field("error.field") != field {
		t.Errorf("%s: %d %s; want %d %s (field %q)", what, r.Status, r.Body, status, code, field)
	}
}

func savedPath(id any) string { return fmt.Sprintf("/api/saved-searches/%v", id) }

// A saved search keeps a search request under a name, and runs it as the
// search endpoint would, page by page.
func TestSavedSearchesRunAsSearches(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"a/invoice-1.txt", "invoice for the roof",
		"a/invoice-2.txt", "invoice for the garden",
		"b/invoice-3.md", "invoice in markdown",
		"b/notes.txt", "nothing to pay",
	)
	s.IndexDir(root, 4)
	changes := s.Subscribe("types=saved.changed")
	defer changes.Close()
	body := map[string]any{"name": "  Invoices ", "query": "invoice", "filters": map[string]any{"extensions": []string{"txt"}}, "sort": "name", "mode": "keyword"}
	r := s.Do("POST", "/api/saved-searches", body)
	if r.Status != 201 || r.Field("name") != "Invoices" || r.Field("sort") != "name" || r.Field("notify") != false {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	id := r.Field("id")

	search := post(t, s, map[string]any{"query": "invoice", "filters": map[string]any{"extensions": []string{"txt"}}, "sort": "name", "mode": "keyword"})
	run := s.Do("POST", savedPath(id)+"/run", nil)
	if run.Status != 200 || !slices.Equal(paths(run), paths(search)) || len(paths(run)) != 2 || run.Field("sort") != "name" {
		t.Fatalf("run: %d %s\nwant the results of %s", run.Status, run.Body, search.Body)
	}
	if page := s.Do("POST", savedPath(id)+"/run", map[string]any{"offset": 1, "limit": 1}); !slices.Equal(paths(page), paths(search)[1:]) {
		t.Errorf("run, second page in the body: %s", page.Body)
	}
	if page := s.Do("POST", savedPath(id)+"/run?limit=1", nil); !slices.Equal(paths(page), paths(search)[:1]) {
		t.Errorf("run, first page in the query: %s", page.Body)
	}
	wantError(t, "run, bad offset", s.Do("POST", savedPath(id)+"/run", map[string]any{"offset": -1}), 400, "INVALID_PARAMETER", "offset")
	wantError(t, "run, unknown field", s.Do("POST", savedPath(id)+"/run", map[string]any{"page": 2}), 400, "INVALID_JSON", "")

	wantError(t, "same name in other case", s.Do("POST", "/api/saved-searches", map[string]any{"name": "INVOICES", "query": "x"}), 409, "NAME_TAKEN", "name")
	wantError(t, "blank name", s.Do("POST", "/api/saved-searches", map[string]any{"name": "  ", "query": "x"}), 400, "INVALID_NAME", "name")
	wantError(t, "long name", s.Do("POST", "/api/saved-searches", map[string]any{"name": strings.Repeat("é", 101), "query": "x"}), 400, "INVALID_NAME", "name")
	wantError(t, "a line break", s.Do("POST", "/api/saved-searches", map[string]any{"name": "a\nb", "query": "x"}), 400, "INVALID_NAME", "name")
	wantError(t, "no query", s.Do("POST", "/api/saved-searches", map[string]any{"name": "x"}), 400, "INVALID_QUERY", "query")
	wantError(t, "bad mode", s.Do("POST", "/api/saved-searches", map[string]any{"name": "x", "query": "x", "mode": "telepathic"}), 400, "INVALID_PARAMETER", "mode")
	wantError(t, "bad filter", s.Do("POST", "/api/saved-searches", map[string]any{"name": "x", "query": "x", "filters": map[string]any{"colour": "red"}}), 400, "INVALID_FILTER", "filters")
	wantError(t, "empty directory", s.Do("POST", "/api/saved-searches", map[string]any{"name": "x", "query": "x", "directory": ""}), 400, "INVALID_DIRECTORY", "directory")
	wantError(t, "not JSON", s.Do("POST", "/api/saved-searches", "{"), 400, "INVALID_JSON", "")

	if r := s.Get(savedPath(id)); r.Status != 200 || r.Field("query") != "invoice" || r.Field("filters.extensions") == nil {
		t.Errorf("get: %d %s", r.Status, r.Body)
	}
	wantError(t, "get, unknown id", s.Get(savedPath(999)), 404, "SAVED_SEARCH_NOT_FOUND", "")
	wantError(t, "get, bad id", s.Get(savedPath("x")), 400, "INVALID_ID", "id")

	if r := s.Do("PUT", savedPath(id), map[string]any{"name": "Bills", "notify": true}); r.Status != 200 || r.Field("name") != "Bills" || r.Field("notify") != true || r.Field("query") != "invoice" {
		t.Errorf("rename: %d %s", r.Status, r.Body)
	}
	wantError(t, "change nothing", s.Do("PUT", savedPath(id), map[string]any{}), 400, "EMPTY_UPDATE", "")
	wantError(t, "sort without query", s.Do("PUT", savedPath(id), map[string]any{"sort": "size"}), 400, "MISSING_FIELD", "query")
	wantError(t, "bad sort", s.Do("PUT", savedPath(id), map[string]any{"query": "x", "sort": "colour"}), 400, "INVALID_PARAMETER", "sort")
	if r := s.Do("PUT", savedPath(id), map[string]any{"query": "garden"}); r.Status != 200 || r.Field("sort") != "relevance" || r.Field("filters") != nil {
		t.Errorf("new request: %d %s (the rest takes its defaults)", r.Status, r.Body)
	}
	if run := s.Do("POST", savedPath(id)+"/run", nil); len(paths(run)) != 1 || !strings.HasSuffix(paths(run)[0], "invoice-2.txt") {
		t.Errorf("run of the new request: %s", run.Body)
	}

	list := s.Get("/api/saved-searches")
	items, _ := list.Field("saved_searches").([]any)
	if list.Status != 200 || len(items) != 1 || list.Field("total") != 1.0 {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}
	if r := s.Do("DELETE", savedPath(id), nil); r.Status != 200 || r.Field("deleted") != true {
		t.Errorf("delete: %d %s", r.Status, r.Body)
	}
	wantError(t, "delete again", s.Do("DELETE", savedPath(id), nil), 404, "SAVED_SEARCH_NOT_FOUND", "")
	// Every window hears of each change: saved, renamed, changed, deleted.
	changes.WaitFor(t, "saved.changed", 10*time.Second, func(e testserver.Event) bool { return e.Payload()["deleted"] == true })
	var names []any
	for _, e := range changes.Events("saved.changed") {
		names = append(names, e.Payload()["name"])
	}
	if !slices.Equal(names, []any{"Invoices", "Bills", "Bills", "Bills"}) {
		t.Errorf("saved.changed names %v: want one per change", names)
	}
	wantError(t, "run deleted", s.Do("POST", savedPath(id)+"/run", nil), 404, "SAVED_SEARCH_NOT_FOUND", "")
}

// A saved search whose folder is no longer watched still lists, saying
// so, and running it is a clear error naming it.
func TestSavedSearchOfAFolderGone(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "docs/a.txt", "alpha")
	job := s.IndexDir(root, 1)
	r := s.Do("POST", "/api/saved-searches", map[string]any{"name": "Docs", "query": "alpha", "directory": filepath.Join(root, "docs")})
	if r.Status != 201 || r.Field("problem") != nil {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	id := r.Field("id")
	if run := s.Do("POST", savedPath(id)+"/run", nil); len(paths(run)) != 1 {
		t.Fatalf("run: %s", run.Body)
	}
	if r := s.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", job), nil); r.Status != 200 {
		t.Fatalf("unwatch: %d %s", r.Status, r.Body)
	}
	list := s.Get("/api/saved-searches")
	items, _ := list.Field("saved_searches").([]any)
	if len(items) != 1 || !strings.Contains(fmt.Sprint(items[0].(map[string]any)["problem"]), "not in a watched folder") {
		t.Errorf("list: %s", list.Body)
	}
	run := s.Do("POST", savedPath(id)+"/run", nil)
	wantError(t, "run", run, 400, "INVALID_DIRECTORY", "directory")
	if msg := fmt.Sprint(run.Field("error.message")); !strings.Contains(msg, `"Docs"`) {
		t.Errorf("the message does not name the saved search: %s", msg)
	}
}

// savedAndListening indexes root's files (with no cooldown, so new files
// are read at once), saves the search "invoice" as Invoices, and listens
// for saved.matched; it returns the saved search's id and the stream.
func savedAndListening(t *testing.T, s *testserver.Server, root string, files int, notify bool) (any, *testserver.Stream) {
	t.Helper()
	s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0})
	s.IndexDir(root, files)
	r := s.Do("POST", "/api/saved-searches", map[string]any{"name": "Invoices", "query": "invoice", "notify": notify})
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	st := s.Subscribe("types=saved.matched")
	t.Cleanup(st.Close)
	return r.Field("id"), st
}

// A saved search that notifies announces the new files that match it,
// once their content is read; a file that does not match announces none.
func TestSavedSearchNotifiesOfNewMatches(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "old-invoice.txt", "invoice from last year")
	id, st := savedAndListening(t, s, root, 1, true)

	testserver.WriteFiles(t, root, "shopping.txt", "bread and milk")
	s.WaitIdle(root, 2)
	if err := os.WriteFile(filepath.Join(root, "new-bill.txt"), []byte("the invoice for March"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := st.WaitFor(t, "saved.matched", 30*time.Second, nil).Payload()
	files, _ := ev["files"].([]any)
	if ev["id"] != id || ev["name"] != "Invoices" || ev["count"] != 1.0 || len(files) != 1 ||
		files[0].(map[string]any)["path"] != filepath.Join(root, "new-bill.txt") {
		t.Errorf("event %v: want the new bill alone (not the old invoice, not the shopping list)", ev)
	}
	for _, e := range st.Events("saved.matched") {
		if fs, _ := e.Payload()["files"].([]any); len(fs) != 1 || !strings.HasSuffix(fmt.Sprint(fs[0].(map[string]any)["path"]), "new-bill.txt") {
			t.Errorf("an event for another file: %v", e.Payload())
		}
	}
}

// Trove keeps a bounded number of saved searches: any local program may
// save them, and those that notify run as files are indexed.
func TestSavedSearchesAreBounded(t *testing.T) {
	s := testserver.Start(t)
	for i := range service.MaxSaved {
		if r := s.Do("POST", "/api/saved-searches", map[string]any{"name": fmt.Sprint("s", i), "query": "x"}); r.Status != 201 {
			t.Fatalf("saved search %d: %d %s", i, r.Status, r.Body)
		}
	}
	wantError(t, "one more", s.Do("POST", "/api/saved-searches", map[string]any{"name": "more", "query": "x"}), 409, "TOO_MANY_SAVED_SEARCHES", "")
	if r := s.Get("/api/saved-searches"); r.Field("total") != float64(service.MaxSaved) {
		t.Errorf("list: total %v", r.Field("total"))
	}
}

// Notifications turned on start from the files there are: a file indexed
// while they were off is not new to the saved search.
func TestSavedSearchNotifiesFromWhenTurnedOn(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	id, st := savedAndListening(t, s, root, 0, false)
	testserver.WriteFiles(t, root, "quiet-invoice.txt", "an invoice while notifications are off")
	s.WaitIdle(root, 1)
	if r := s.Do("PUT", savedPath(id), map[string]any{"notify": true}); r.Status != 200 {
		t.Fatalf("notify on: %d %s", r.Status, r.Body)
	}
	testserver.WriteFiles(t, root, "loud-invoice.txt", "an invoice once they are on")
	ev := st.WaitFor(t, "saved.matched", 30*time.Second, nil).Payload()
	files, _ := ev["files"].([]any)
	if ev["count"] != 1.0 || len(files) != 1 || !strings.HasSuffix(fmt.Sprint(files[0].(map[string]any)["path"]), "loud-invoice.txt") {
		t.Errorf("event %v: want the file indexed after notifications were turned on, alone", ev)
	}
}
