package views

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/service"
)

// Unit tests of the shapes and checks both shells share. The API tests
// (backend/shell/api) run the same code through HTTP.

func errCode(err error) string { return CodeOf(err, "") }

func TestDecodeIsStrict(t *testing.T) {
	type body struct {
		N int     `json:"n"`
		F float64 `json:"f"`
		S string  `json:"s"`
	}
	for raw, want := range map[string]string{
		``:               "request body is empty",
		`  `:             "request body is empty",
		`{"n": 1} {}`:    "unexpected data after the JSON value",
		`{"x": 1}`:       `unknown field "x"`,
		`{"n": "one"}`:   `field "n" must be a number, got string`,
		`{"s": 5}`:       `field "s" must be a string`,
		`{"n": 2.5}`:     "n: must be a whole number within range, got 2.5",
		`{"f": 1e999}`:   "f: must be a finite number, got 1e999",
		`{"n": 1`:        "the JSON ends too early",
		`{"n": 1,,}`:     "at byte",
		`[1]`:            "expected an object, got array",
		`{"n": [1]}`:     `field "n" must be a number, got array`,
		`{"s": {"a":1}}`: `field "s" must be a string, got object`,
	} {
		var b body
		err := Decode([]byte(raw), &b)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, core.ErrInvalid) {
			t.Errorf("Decode(%q) = %v, want an invalid error containing %q", raw, err, want)
		}
	}
	var b body
	if err := Decode([]byte(`{"n": 3, "f": 0.5, "s": "x"}`), &b); err != nil || b.N != 3 || b.F != 0.5 || b.S != "x" {
		t.Errorf("a good body: %+v %v", b, err)
	}
}

func TestJSONTypeNames(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{[]string{}, "a list"}, {[2]int{}, "a list"}, {map[string]int{}, "an object"}, {struct{}{}, "an object"},
		{"", "a string"}, {new(string), "a string"}, {false, "true or false"}, {int64(0), "a number"},
		{0.5, "a number"}, {make(chan int), "another type"},
	} {
		if got := jsonTypeName(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("jsonTypeName(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for _, ok := range []string{"0.5", "-2e-3", "10", "+1"} {
		if _, err := ParseNumber("x", ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "NaN", "inf", "-Infinity", "0x10", "1e999", "1,5", " 1"} {
		if _, err := ParseNumber("min_score", bad); errCode(err) != "INVALID_PARAMETER" || core.FieldOf(err) != "min_score" {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestErrorsMapToStatusesAndCodes(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{core.Fail(core.BadQuery, "bad"), 400, "INVALID_QUERY"},
		{core.FailField(core.Untrusted, "f", "no"), 403, "UNTRUSTED"},
		{core.Fail(core.UnknownFolder, "none"), 404, "JOB_NOT_FOUND"},
		{core.Fail(core.AlreadyWatching, "twice"), 409, "ALREADY_WATCHING"},
		{core.Fail(core.SearchTimeout, "slow"), 503, "SEARCH_TIMEOUT"},
		{fmt.Errorf("wrapped: %w", core.ErrNotFound), 404, "NOT_FOUND"},
		{errors.New("disk on fire"), 500, "INTERNAL"},
	} {
		info := ErrorOf(c.err)
		if info.Status != c.status || info.Code != c.code {
			t.Errorf("ErrorOf(%v) = %+v, want %d %s", c.err, info, c.status, c.code)
		}
		if c.status == 500 && (info.Message != InternalMessage || strings.Contains(info.Message, "fire")) {
			t.Errorf("an internal error shows its detail: %+v", info)
		}
	}
	if f := ErrorOf(core.FailField(core.BadFilter, "filters.path", "bad glob")).Field; f != "filters.path" {
		t.Errorf("field %q", f)
	}
	// The engine's bad glob is the search request's path filter.
	bad := fmt.Errorf("search: %w", &core.BadGlob{Glob: "[oops"})
	want := ErrorInfo{Status: 400, Code: "INVALID_FILTER", Field: "filters.path", Message: `filters.path: "[oops" is not a valid glob pattern`}
	if got := ErrorOf(bad); got != want {
		t.Errorf("ErrorOf(bad glob) = %+v, want %+v", got, want)
	}
	for status, want := range map[int]string{
		404: "NOT_FOUND", 413: "BODY_TOO_LARGE", 502: "BAD_GATEWAY", 418: "I_M_A_TEAPOT", 599: "INTERNAL", 499: "BAD_REQUEST",
	} {
		if got := CodeOfStatus(status); got != want {
			t.Errorf("CodeOfStatus(%d) = %q, want %q", status, got, want)
		}
	}
	if HTTPStatus(nil) != 0 || HTTPStatus(errors.New("x")) != 0 || HTTPStatus(core.ErrInvalid) != http.StatusBadRequest {
		t.Error("HTTPStatus of plain errors")
	}
}

func TestSearchRequestChecks(t *testing.T) {
	for raw, code := range map[string]string{
		`{}`:              "INVALID_QUERY",
		`{"query": "  "}`: "INVALID_QUERY",
		`{"query": "` + strings.Repeat("é", MaxQueryLength+1) + `"}`:    "INVALID_QUERY",
		`{"query": "roof", "limit": 0}`:                                 "INVALID_LIMIT",
		`{"query": "roof", "mode": "psychic"}`:                          "INVALID_PARAMETER",
		`{"query": "roof", "directory": "notes"}`:                       "INVALID_DIRECTORY",
		`{"query": "roof", "filters": {"colour": "red"}}`:               "INVALID_FILTER",
		`{"query": "roof", "filters": {"min_size": -1}}`:                "INVALID_FILTER",
		`{"query": "roof", "filters": {"min_size": 5, "max_size": 2}}`:  "INVALID_FILTER",
		`{"query": "roof", "filters": {"min_size": 1.5}}`:               "INVALID_FILTER",
		`{"query": "roof", "filters": {"modified_after": "yesterday"}}`: "INVALID_FILTER",
		`{"query": "roof", "filters": {"extensions": 3}}`:               "INVALID_FILTER",
		`{"query": "roof", "filters": {"language": "german"}}`:          "INVALID_FILTER",
		`{"query": 3}`: "INVALID_JSON",
	} {
		if _, err := DecodeSearch([]byte(raw)); errCode(err) != code {
			t.Errorf("%s: %v, want %s", raw[:min(len(raw), 80)], err, code)
		}
	}
	req, err := DecodeSearch([]byte(`{"query": " roof leak ", "limit": 9999, "min_score": 0.2, "mode": "keyword", "directory": "/home/me/",
		"filters": {"extensions": "md", "modified_after": "2024-01-31", "created_before": "2024-02-01T10:00:00", "max_size": 0, "path": "**/notes/**",
		"language": ["DE", "ja"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 1, 31, 0, 0, 0, 0, time.Local)
	f := req.Filters
	if req.Query != "roof leak" || req.Limit != MaxLimit || req.MinScore != 0.2 || req.Mode != service.ModeKeyword ||
		req.Directory != "/home/me" || len(f.Extensions) != 1 || f.Extensions[0] != "md" || !f.ModifiedAfter.Equal(day) ||
		f.CreatedBefore.Hour() != 10 || f.MaxSize != 1 || f.PathGlob != "**/notes/**" || !req.Snippets ||
		!slices.Equal(f.Languages, []string{"de", "ja"}) {
		t.Errorf("built %+v", req)
	}
	before, err := parseTime("modified_before", "2024-01-31", true)
	if err != nil || !before.Equal(day.AddDate(0, 0, 1)) {
		t.Errorf("a before date ends with its day: %v %v", before, err)
	}
	if _, err := BuildQuery("a", 10, 0, "", MinStreamQuery); errCode(err) != "INVALID_QUERY" {
		t.Errorf("a stream query under its minimum: %v", err)
	}
}

func TestWatchAndPatternRequests(t *testing.T) {
	_, _, err := DecodeWatch([]byte(`{"directory_path": "/a"}`), "path")
	if errCode(err) != "INVALID_PATH" || core.FieldOf(err) != "path" || !strings.HasPrefix(err.Error(), "path: required") {
		t.Errorf("missing path: %v", err)
	}
	p, o, err := DecodeWatch([]byte(`{"directory_path": "/a", "recursive": false, "file_pattern": "*.md", "force": true}`), "directory_path")
	if err != nil || p != "/a" || o.Recursive || o.FilePattern != "*.md" || !o.Force {
		t.Errorf("watch: %q %+v %v", p, o, err)
	}
	if _, o, _ := DecodeWatch([]byte(`{"path": "/a"}`), "path"); !o.Recursive {
		t.Error("recursive is the default")
	}
	if _, err := DecodePattern([]byte(`{"pattern_type": "include"}`)); errCode(err) != "MISSING_FIELD" {
		t.Errorf("pattern missing: %v", err)
	}
	req, err := DecodePattern([]byte(`{"pattern": "*.bak"}`))
	if err != nil || req.PatternType != "exclude" || !req.Apply() {
		t.Errorf("pattern defaults: %+v %v", req, err)
	}
	ch := core.FilterChange{RemovedCount: 2}
	for got, want := range map[string]string{
		PatternAdded(req, ch, true).Message:                     "Added exclude pattern '*.bak'",
		PatternAdded(req, ch, false).Message:                    "Pattern '*.bak' is already among the exclude patterns",
		PatternRemoved(req, ch).Message:                         "Removed exclude pattern '*.bak'",
		FiltersReset(ch).Message:                                "Filters reset to defaults",
		FiltersApplied(3).Message:                               "Removed 3 files excluded by the filters",
		FilterUpdated(core.FilterChange{}).Message:              "Filter configuration updated",
		FilterUpdated(ch).Message:                               "Filter configuration updated; removed 2 files from the index",
		FilterUpdated(core.FilterChange{Pending: true}).Message: "Filter configuration updated; excluded files stay indexed until POST /api/filters/apply",
	} {
		if got != want {
			t.Errorf("message %q, want %q", got, want)
		}
	}
	if _, err := DecodeSettingsPatch([]byte(`null`)); errCode(err) != "INVALID_JSON" {
		t.Errorf("a null settings patch: %v", err)
	}
	if patch, err := DecodeSettingsPatch([]byte(`{"queue.max_retries": 3}`)); err != nil || len(patch) != 1 {
		t.Errorf("a settings patch: %v %v", patch, err)
	}
	if u, err := DecodeFilterUpdate([]byte(`{"mode": "whitelist"}`)); err != nil || u.Mode == nil || *u.Mode != "whitelist" {
		t.Errorf("a filter update: %+v %v", u, err)
	}
}

func TestPages(t *testing.T) {
	for _, c := range []struct{ off, lim, wantLim int }{{0, 0, 100}, {5, 10, 10}, {0, 5000, 1000}} {
		p, err := PageOf(c.off, c.lim, DefaultQueueItems, MaxQueueItems)
		if err != nil || p.Limit != c.wantLim || p.Offset != c.off {
			t.Errorf("PageOf(%d, %d) = %+v %v", c.off, c.lim, p, err)
		}
	}
	for _, c := range [][2]int{{-1, 0}, {0, -1}} {
		if _, err := PageOf(c[0], c[1], 10, 20); errCode(err) != "INVALID_PARAMETER" {
			t.Errorf("PageOf(%v): %v", c, err)
		}
	}
	if from, to := (Page{Offset: 8, Limit: 5}).Window(10); from != 8 || to != 10 {
		t.Errorf("window %d..%d", from, to)
	}
	if from, to := (Page{Offset: 20, Limit: 5}).Window(10); from != 10 || to != 10 {
		t.Errorf("window past the end %d..%d", from, to)
	}
}

// jsonOf is the JSON of v as a generic value, so tests compare shapes as
// clients see them.
func jsonOf(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestShapesOfRecords(t *testing.T) {
	mod := time.Date(2026, 11, 20, 18, 2, 11, 0, time.Local)
	f := core.File{ID: 4, DirID: 1, Path: "/d/scan.pdf", Filename: "scan.pdf", Extension: ".pdf", Modified: mod,
		State: core.StateIndexed, Error: "encrypted PDF"}
	v := jsonOf(t, FileOf(f))
	if v["modified"] != "2026-11-20T18:02:11" || v["error"] != "encrypted PDF" || v["indexed_at"] != nil || v["directory_id"] != 4.0-3 {
		t.Errorf("file %v", v)
	}
	if v := jsonOf(t, FileOf(core.File{})); v["error"] != nil {
		t.Errorf("a file without error: %v", v["error"])
	}
	found := service.SearchResult{File: f, Score: 0.1234567891, Keyword: 1, Semantic: 0.5, Matched: true}
	page := service.PageAnswer{Page: service.Page{Results: []service.PageResult{{Result: found}}, Total: 1, Matches: 1}, Notice: "n"}
	s := jsonOf(t, PageResponseOf("q", service.PageRequest{}, page))
	hit := s["results"].([]any)[0].(map[string]any)
	file := hit["file"].(map[string]any)
	if s["total"] != 1.0 || s["notice"] != "n" || hit["relevance_score"] != 0.123457 || file["title"] != "scan.pdf" ||
		file["keywords"] == nil || hit["keyword_match"] != true || s["keyword_matches"] != 1.0 {
		t.Errorf("search response %v", s)
	}
	ans := service.SearchAnswer{Results: []service.SearchResult{found}, Notice: "n"}
	st := jsonOf(t, StreamDataOf("q", service.SearchRequest{}, ans))
	if st["total_results"] != 1.0 || st["results"].([]any)[0].(map[string]any)["path"] != "/d/scan.pdf" || st["keyword_matches"] != 1.0 {
		t.Errorf("stream %v", st)
	}
	// A semantic search looks no word up: whether files hold one is not known.
	sem := jsonOf(t, StreamDataOf("q", service.SearchRequest{Mode: service.ModeSemantic}, ans))
	if sem["keyword_matches"] != nil || sem["results"].([]any)[0].(map[string]any)["keyword_match"] != nil {
		t.Errorf("semantic stream %v", sem)
	}
	when := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	dirs := []core.WatchedDirectory{{ID: 1, Path: "/a", CreatedAt: when, FilePattern: "*.md"}, {ID: 2, Path: "/b", CreatedAt: when, LastScan: &when}}
	fl := jsonOf(t, FoldersOf(dirs, Page{Offset: 1, Limit: 5}))
	if fl["total_directories"] != 2.0 || len(fl["directories"].([]any)) != 1 || fl["offset"] != 1.0 {
		t.Errorf("folders %v", fl)
	}
	d := fl["directories"].([]any)[0].(map[string]any)
	if d["added_at"] != "2026-11-22T09:00:00Z" || d["last_scan"] != "2026-11-22T09:00:00Z" {
		t.Errorf("folder %v", d)
	}
	jobs := jsonOf(t, JobsOf(dirs, Page{Limit: 5}))["jobs"].([]any)
	if jobs[0].(map[string]any)["file_pattern"] != "*.md" || jobs[1].(map[string]any)["file_pattern"] != nil {
		t.Errorf("jobs %v", jobs)
	}
	w := jsonOf(t, WatchedOf(service.WatchResult{Directory: dirs[0], FilesFound: 3}))
	if w["job_id"] != 1.0 || w["files_found"] != 3.0 || w["indexing_started"] != true {
		t.Errorf("watched %v", w)
	}
	if p := ProblemsOf([]core.File{f}); len(p) != 1 || p[0].Error != "encrypted PDF" || p[0].Modified != "2026-11-20T18:02:11" {
		t.Errorf("problems %+v", p)
	}
	q := jsonOf(t, QueueItemsOf([]core.QueueItem{{ID: "x", Path: "/a", Action: "move", Dest: "/b", EnqueuedAt: time.UnixMilli(1500)},
		{ID: "y", Path: "/c", LastError: "boom"}}, 2, Page{Limit: 10}))
	items := q["items"].([]any)
	if items[0].(map[string]any)["dest_path"] != "/b" || items[0].(map[string]any)["enqueued_at"] != 1.5 ||
		items[1].(map[string]any)["dest_path"] != nil || items[1].(map[string]any)["last_error"] != "boom" {
		t.Errorf("queue items %v", q)
	}
	last := time.Date(2026, 11, 22, 9, 0, 0, 0, time.Local)
	stats := jsonOf(t, StatsOf(core.FileStats{TotalFiles: 3, LastIndexed: &last}))
	if stats["total_files"] != 3.0 || stats["last_indexed"] != "2026-11-22T09:00:00" {
		t.Errorf("stats %v", stats)
	}
	status := jsonOf(t, StatusOf(service.Status{Jobs: 2, UptimeSeconds: 61.9, Index: core.IndexHealth{Status: core.IndexOK, CheckedAt: &when}}))
	if status["uptime_seconds"] != 61.0 || status["index"].(map[string]any)["checked_at"] != "2026-11-22T09:00:00Z" {
		t.Errorf("status %v", status)
	}
	if OptionalLocal(nil) != nil || OptionalUTC(nil) != nil {
		t.Error("no time is null")
	}
}

// The store says which thing is missing; the codes and words are views'.
func TestMissingThingsGetTheirCodesHere(t *testing.T) {
	for _, c := range []struct {
		err        error
		code, text string
	}{
		{&core.Missing{Thing: core.ThingFolder, ID: 4}, "JOB_NOT_FOUND", "Watch job 4 not found"},
		{fmt.Errorf("unwatch: %w", &core.Missing{Thing: core.ThingFolder, ID: 4}), "JOB_NOT_FOUND", "Watch job 4 not found"},
		{&core.Missing{Thing: core.ThingFile, ID: 7}, "FILE_NOT_FOUND", "file 7 not found"},
		{&core.Missing{Thing: core.ThingFile, Path: "/a/b.txt"}, "FILE_NOT_FOUND", "file /a/b.txt not found"},
		{&core.Missing{Thing: "planet", ID: 3}, "NOT_FOUND", "planet 3 not found"},
	} {
		info := ErrorOf(c.err)
		if info.Status != 404 || info.Code != c.code || info.Message != c.text {
			t.Errorf("%v: %+v, want 404 %s %q", c.err, info, c.code, c.text)
		}
	}
	// An error that already has its code keeps it.
	own := core.Fail(core.UnknownItem, "no queue item with id x")
	if got := Shown(own); got != own {
		t.Errorf("Shown replaced %v with %v", own, got)
	}
}

// A creation time the file system does not record is the modification
// time (a string, as the spec has it), never 1970.
func TestUnknownCreationTimeIsTheModificationTime(t *testing.T) {
	modified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	b, _ := json.Marshal(searchFileOf(core.File{Modified: modified}))
	if !strings.Contains(string(b), `"created":"2026-01-02T03:04:05"`) {
		t.Fatalf("search file: %s", b)
	}
	b, _ = json.Marshal(FileOf(core.File{Modified: modified}))
	if !strings.Contains(string(b), `"created":"2026-01-02T03:04:05"`) {
		t.Fatalf("file: %s", b)
	}
	created := time.Date(2025, 2, 3, 4, 5, 6, 0, time.Local)
	if b, _ = json.Marshal(FileOf(core.File{Created: created})); !strings.Contains(string(b), `"created":"2025-02-03T04:05:06"`) {
		t.Fatalf("known: %s", b)
	}
}
