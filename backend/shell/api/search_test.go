package api_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/backend/shell/views"
	"trove/internal/testserver"
)

// corpus writes a small, varied folder and indexes it.
func corpus(t *testing.T) (*testserver.Server, string) {
	t.Helper()
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"notes/roof-leak.md", "# Roof leak\n\nWater came through the bedroom ceiling after the storm. The roofer said the shingles were damaged and the flashing needs replacing.",
		"notes/garden.md", "# Garden plan\n\nPlant tomatoes and basil in spring. Build a raised bed near the fence.",
		"work/Q3-quarterly_report.txt", "Revenue grew by twelve percent in the third quarter. Costs were flat.",
		"work/myBudgetPlan2024.txt", "Budget for 2024: rent, food, travel and savings.",
		"work/draft-old.txt", "An old draft about the roof repair budget, superseded.",
		"archive/2019/recipes.txt", "Bread recipe: bake at 220 degrees for forty minutes.",
	)
	s.IndexDir(root, 6)
	return s, root
}

func post(t *testing.T, s *testserver.Server, body map[string]any) testserver.Response {
	t.Helper()
	return s.Do("POST", "/api/search/", body)
}

func paths(r testserver.Response) []string {
	list, _ := r.Field("results").([]any)
	var out []string
	for _, x := range list {
		f := x.(map[string]any)["file"].(map[string]any)
		out = append(out, f["file_path"].(string))
	}
	return out
}

func first(t *testing.T, r testserver.Response) map[string]any {
	t.Helper()
	list, _ := r.Field("results").([]any)
	if r.Status != 200 || len(list) == 0 {
		t.Fatalf("no results: %d %s", r.Status, r.Body)
	}
	return list[0].(map[string]any)
}

func TestSearchShapeAndRanking(t *testing.T) {
	s, root := corpus(t)
	r := post(t, s, map[string]any{"query": "notes about the roof leak"})
	top := first(t, r)
	f := top["file"].(map[string]any)
	if f["file_path"] != filepath.Join(root, "notes/roof-leak.md") {
		t.Fatalf("first result %v", f["file_path"])
	}
	for _, k := range []string{"file_path", "filename", "extension", "created", "modified", "accessed", "title", "summary", "keywords"} {
		if _, ok := f[k]; !ok {
			t.Errorf("file.%s missing", k)
		}
	}
	if _, ok := f["keywords"].([]any); !ok {
		t.Errorf("keywords must be a list: %v", f["keywords"])
	}
	score, _ := top["relevance_score"].(float64)
	kw, _ := top["keyword_score"].(float64)
	sem, _ := top["semantic_score"].(float64)
	if score <= 0 || kw <= 0 || kw > 2 || sem <= 0 || sem > 1 || fmt.Sprintf("%.4f", score) != fmt.Sprintf("%.4f", kw+sem) {
		t.Fatalf("scores: relevance %v keyword %v semantic %v", score, kw, sem)
	}
	snippet, _ := top["snippet"].(string)
	if !strings.Contains(snippet, "<mark>Roof</mark>") || !strings.Contains(snippet, "<mark>leak</mark>") {
		t.Fatalf("snippet %q", snippet)
	}
	list := r.Field("results").([]any)
	for i := 1; i < len(list); i++ {
		if list[i].(map[string]any)["relevance_score"].(float64) > list[i-1].(map[string]any)["relevance_score"].(float64) {
			t.Fatal("results not sorted by relevance_score")
		}
	}
}

func TestFilenamesAreFirstClass(t *testing.T) {
	s, root := corpus(t)
	for q, want := range map[string]string{
		"quarterly report": "work/Q3-quarterly_report.txt",
		"budget plan 2024": "work/myBudgetPlan2024.txt",
		"quart":            "work/Q3-quarterly_report.txt",
		"myBudg":           "work/myBudgetPlan2024.txt",
	} {
		top := first(t, post(t, s, map[string]any{"query": q}))
		if got := top["file"].(map[string]any)["file_path"]; got != filepath.Join(root, want) {
			t.Errorf("%q: first %v, want %s", q, got, want)
		}
	}
}

func TestQueryLanguage(t *testing.T) {
	s, root := corpus(t)
	check := func(q string, want ...string) {
		t.Helper()
		got := paths(post(t, s, map[string]any{"query": q, "mode": "keyword"}))
		var rel []string
		for _, p := range got {
			rel = append(rel, strings.TrimPrefix(p, root+"/"))
		}
		slices.Sort(rel)
		slices.Sort(want)
		if strings.Join(rel, ",") != strings.Join(want, ",") {
			t.Errorf("%q: got %v, want %v", q, rel, want)
		}
	}
	check(`"raised bed"`, "notes/garden.md")
	check(`"bed raised"`)
	check(`roof -draft`, "notes/roof-leak.md")
	check(`roof -"old draft"`, "notes/roof-leak.md")
	check(`tomat*`, "notes/garden.md")
	check(`roof ext:md`, "notes/roof-leak.md")
	check(`budget in:work`, "work/myBudgetPlan2024.txt", "work/draft-old.txt")
	check(`bread in:`+root+`/archive`, "archive/2019/recipes.txt")
	check(`"raised bed" OR "twelve percent"`, "notes/garden.md", "work/Q3-quarterly_report.txt")
}

func TestDateOperatorsAndFilters(t *testing.T) {
	s, root := corpus(t)
	old := filepath.Join(root, "archive/2019/recipes.txt")
	when := time.Date(2019, 5, 1, 12, 0, 0, 0, time.Local)
	if err := os.Chtimes(old, when, when); err != nil {
		t.Fatal(err)
	}
	testserver.Eventually(t, 10*time.Second, "the new time to be indexed", func() bool {
		r := s.Get("/api/files/lookup?path=" + url.QueryEscape(old))
		return strings.HasPrefix(fmt.Sprint(r.Field("modified")), "2019-05-01")
	})
	if got := paths(post(t, s, map[string]any{"query": "bread before:2020"})); len(got) != 1 || got[0] != old {
		t.Fatalf("before: %v", got)
	}
	if got := paths(post(t, s, map[string]any{"query": "bread after:2020-01-01"})); len(got) != 0 {
		t.Fatalf("after: %v", got)
	}
	for _, c := range []struct {
		filters map[string]any
		want    int
	}{
		{map[string]any{"modified_before": "2019-05-01"}, 1},
		{map[string]any{"modified_before": "2019-04-30"}, 0},
		{map[string]any{"modified_after": "2019-05-02T00:00:00"}, 0},
		{map[string]any{"created_after": "2000-01-01"}, 1},
		{map[string]any{"extensions": "txt"}, 1},
		{map[string]any{"extensions": []string{".md"}}, 0},
		{map[string]any{"min_size": 10, "max_size": 100000}, 1},
		{map[string]any{"max_size": 5}, 0},
		{map[string]any{"path": "*recipe*"}, 1},
		{map[string]any{"path": "**/2019/**"}, 1},
		{map[string]any{"path": "*.md"}, 0},
	} {
		r := post(t, s, map[string]any{"query": "bread", "filters": c.filters, "mode": "keyword"})
		if got := paths(r); len(got) != c.want {
			t.Errorf("filters %v: %v (%s)", c.filters, got, r.Body)
		}
	}
}

func TestDirectoryScopeUsesComponents(t *testing.T) {
	s, root := corpus(t)
	testserver.WriteFiles(t, root, "notes-old/roof.txt", "roof roof roof")
	s.WaitIdle(root, 7)
	got := paths(post(t, s, map[string]any{"query": "roof", "directory": root + "/notes"}))
	if len(got) != 1 || got[0] != filepath.Join(root, "notes/roof-leak.md") {
		t.Fatalf("scoped: %v", got)
	}
	if r := post(t, s, map[string]any{"query": "roof", "directory": "notes"}); r.Status != 400 || r.Field("error.code") != "INVALID_DIRECTORY" {
		t.Fatalf("relative directory: %d %s", r.Status, r.Body)
	}
}

func TestLimitAndMinScore(t *testing.T) {
	s, _ := corpus(t)
	if got := paths(post(t, s, map[string]any{"query": "the roof budget garden bread revenue", "limit": 2})); len(got) != 2 {
		t.Fatalf("limit 2: %d results", len(got))
	}
	if r := post(t, s, map[string]any{"query": "roof", "limit": 100000}); r.Status != 200 {
		t.Fatalf("a large limit is capped, not refused: %d", r.Status)
	}
	for _, bad := range []any{0, -1, "ten"} {
		if r := post(t, s, map[string]any{"query": "roof", "limit": bad}); r.Status != 400 {
			t.Errorf("limit %v: %d", bad, r.Status)
		}
	}
	r := s.Get("/api/search/stream?query=roof&min_score=1")
	list, _ := r.Field("data.results").([]any)
	for _, x := range list {
		if x.(map[string]any)["score"].(float64) < 1 {
			t.Fatalf("min_score 1 let through %v", x)
		}
	}
	all := s.Get("/api/search/stream?query=roof")
	if n, m := all.Field("data.total_results").(float64), r.Field("data.total_results").(float64); m > n || m < 1 {
		t.Fatalf("min_score: %v of %v", m, n)
	}
}

func TestStreamShape(t *testing.T) {
	s, root := corpus(t)
	r := s.Get("/api/search/stream?query=" + url.QueryEscape("garden plan") + "&limit=3")
	if r.Status != 200 || r.Field("status") != "success" || r.Field("data.query") != "garden plan" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	list, _ := r.Field("data.results").([]any)
	if len(list) == 0 || len(list) > 3 || r.Field("data.total_results") != float64(len(list)) {
		t.Fatalf("results %d total %v", len(list), r.Field("data.total_results"))
	}
	top := list[0].(map[string]any)
	if top["path"] != filepath.Join(root, "notes/garden.md") || top["title"] != "Garden plan" {
		t.Fatalf("top %v", top)
	}
	for _, k := range []string{"path", "title", "summary", "keywords", "score", "semantic_score", "keyword_score"} {
		if _, ok := top[k]; !ok {
			t.Errorf("%s missing", k)
		}
	}
	for _, q := range []string{"", "x", " y "} {
		r := s.Get("/api/search/stream?query=" + url.QueryEscape(q))
		if r.Status != 400 || r.Field("status") != "error" || r.Field("error.code") != "INVALID_QUERY" {
			t.Errorf("%q: %d %s", q, r.Status, r.Body)
		}
	}
	if r := s.Get("/api/search/stream?query=roof&min_score=high"); r.Status != 400 {
		t.Fatalf("bad min_score: %d", r.Status)
	}
	if r := s.Get("/api/search/stream?query=roof&mode=magic"); r.Status != 400 {
		t.Fatalf("bad mode: %d", r.Status)
	}
}

func TestModes(t *testing.T) {
	s, _ := corpus(t)
	kw := first(t, post(t, s, map[string]any{"query": "roof leak", "mode": "keyword"}))
	if kw["semantic_score"] != float64(0) || kw["keyword_score"].(float64) <= 0 || kw["relevance_score"] != kw["keyword_score"] {
		t.Fatalf("keyword mode: %v", kw)
	}
	sem := first(t, post(t, s, map[string]any{"query": "roof leak", "mode": "semantic"}))
	if sem["keyword_score"] != float64(0) || sem["semantic_score"].(float64) <= 0 {
		t.Fatalf("semantic mode: %v", sem)
	}
}

func TestHostileQueriesNeverFail(t *testing.T) {
	s, _ := corpus(t)
	for _, q := range []string{`"unclosed`, `AND`, `NEAR(`, `*`, `a:b`, `'; DROP TABLE files; --`, `roof" OR 1=1 --`,
		`NOT roof`, `^roof`, `roof:*`, `(((`, `"""`, `-`, `-*`, `\x00`, `ext:`, `in:`, `{}[]`, strings.Repeat("roof ", 300),
		"\u202e\u200broof", `col:roof`, `roof NEAR/2 leak`, `*roof*`} {
		r := post(t, s, map[string]any{"query": q})
		if r.Status != 200 && r.Status != 400 {
			t.Errorf("%q: %d %s", q, r.Status, r.Body)
		}
		if r.Status == 400 && r.Field("error.code") == nil {
			t.Errorf("%q: 400 without a code", q)
		}
	}
	if r := post(t, s, map[string]any{"query": "after:someday roof"}); r.Status != 400 || r.Field("error.code") != "INVALID_QUERY" {
		t.Fatalf("bad date: %d %s", r.Status, r.Body)
	}
	if r := post(t, s, map[string]any{"query": strings.Repeat("x", views.MaxQueryLength+1)}); r.Status != 400 {
		t.Fatalf("too long: %d", r.Status)
	}
	if st := s.Get("/api/files/stats"); st.Field("total_files") != float64(6) {
		t.Fatal("hostile queries changed the index")
	}
}

func TestSearchBadBodies(t *testing.T) {
	s := testserver.Start(t)
	for _, body := range []any{map[string]any{}, map[string]any{"query": ""}, map[string]any{"query": 5},
		map[string]any{"query": "x", "filters": map[string]any{"colour": "red"}},
		map[string]any{"query": "x", "filters": map[string]any{"modified_after": "last week"}},
		map[string]any{"query": "x", "filters": map[string]any{"min_size": -1}},
		map[string]any{"query": "x", "filters": map[string]any{"path": "[oops"}},
		map[string]any{"query": "x", "filters": "ext:pdf"}, `{"query": `} {
		r := s.Do("POST", "/api/search/", body)
		if r.Status != 400 || r.Field("status") != "error" {
			t.Errorf("%v: %d %s", body, r.Status, r.Body)
		}
	}
}

func TestBrowseWithFiltersOnly(t *testing.T) {
	s, root := corpus(t)
	got := paths(post(t, s, map[string]any{"query": "ext:md"}))
	if len(got) != 2 || !strings.HasPrefix(got[0], root+"/notes/") {
		t.Fatalf("ext:md alone: %v", got)
	}
}

// "explain": true says, per result, which words matched in which field,
// the keyword and semantic parts, and how the name matched.
func TestSearchExplain(t *testing.T) {
	s, _ := corpus(t)
	top := first(t, post(t, s, map[string]any{"query": "roof laeks", "explain": true}))
	x, ok := top["explain"].(map[string]any)
	if !ok {
		t.Fatalf("no explain: %v", top)
	}
	kw := x["keyword"].(map[string]any)
	sem := x["semantic"].(map[string]any)
	if fmt.Sprintf("%.4f", kw["score"]) != fmt.Sprintf("%.4f", top["keyword_score"]) ||
		fmt.Sprintf("%.4f", sem["score"]) != fmt.Sprintf("%.4f", top["semantic_score"]) {
		t.Fatalf("explain parts %v / %v do not add up to the scores %v", kw, sem, top)
	}
	words := map[string]map[string]any{}
	for _, w := range x["words"].([]any) {
		m := w.(map[string]any)
		words[m["word"].(string)] = m
	}
	if f, _ := words["roof"]["fields"].(map[string]any); words["roof"]["source"] != "query" || f["text"] == nil {
		t.Errorf("roof: %v", words["roof"])
	}
	if words["leaks"]["source"] != "correction" || words["leaks"]["of"] != "laeks" {
		t.Errorf("the correction of laeks: %v", x["words"])
	}
	if names, _ := x["name"].([]any); len(names) == 0 {
		t.Errorf("roof-leak.md matches by name: %v", x["name"])
	}
	if _, ok := x["feedback"].([]any); !ok {
		t.Errorf("feedback must be a list: %v", x["feedback"])
	}
	if _, ok := kw["name_exact"]; ok {
		t.Errorf("roof laeks does not spell roof-leak.md out: %v", kw)
	}
	plain := first(t, post(t, s, map[string]any{"query": "roof leak"}))
	if _, ok := plain["explain"]; ok {
		t.Fatalf("explain without asking: %v", plain)
	}
}

// A query that spells a name out says so in the explanation, and the
// parts still add up to keyword_score.
func TestSearchExplainSpelledName(t *testing.T) {
	s, root := corpus(t)
	top := first(t, post(t, s, map[string]any{"query": "roof-leak.md", "explain": true}))
	if top["file"].(map[string]any)["file_path"] != root+"/notes/roof-leak.md" {
		t.Fatalf("first: %v", top["file"])
	}
	kw := top["explain"].(map[string]any)["keyword"].(map[string]any)
	exact, _ := kw["name_exact"].(float64)
	sum := kw["text"].(float64) + kw["name_weight"].(float64)*(kw["name"].(float64)+exact)
	if exact <= 0 || fmt.Sprintf("%.3f", sum) != fmt.Sprintf("%.3f", top["keyword_score"]) {
		t.Fatalf("explain keyword %v, keyword_score %v", kw, top["keyword_score"])
	}
}

// A path filter that is not a glob is the request's fault, named by its
// field, in the error shape of the search endpoint, whether or not the
// query has words. The answer is pinned byte for byte.
func TestBadPathGlobNamesTheField(t *testing.T) {
	s := testserver.Start(t)
	const want = `{"error":{"code":"INVALID_FILTER","field":"filters.path","message":"filters.path: \"[oops\" is not a valid glob pattern"},"status":"error"}`
	for _, query := range []string{"roof", "ext:md"} {
		r := s.Do("POST", "/api/search/", map[string]any{"query": query, "filters": map[string]any{"path": "[oops"}})
		if r.Status != 400 || string(r.Body) != want {
			t.Errorf("%q: %d %s\nwant 400 %s", query, r.Status, r.Body, want)
		}
	}
}
