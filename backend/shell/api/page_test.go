package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// pagingCorpus is 64 files about one word (sizes, dates and names differ),
// three of them copies of one content, a few without it, and an image.
func pagingCorpus(t *testing.T) (*testserver.Server, string) {
	t.Helper()
	s := testserver.Start(t)
	root := t.TempDir()
	var pairs []string
	for i := range 60 {
		pairs = append(pairs, fmt.Sprintf("notes/harbour-%02d.txt", i),
			fmt.Sprintf("Harbour log %d. %s", i, strings.Repeat("The ferry waited at the pier. ", i+1)))
	}
	same := "Changelog of the lighthouse keeper: the harbour lamp was replaced and the license renewed."
	pairs = append(pairs, "a/changelog", same, "b/changelog", same, "c/changelog", same)
	pairs = append(pairs, "other/garden.md", "Tomatoes and basil in the raised bed.")
	testserver.WriteFiles(t, root, pairs...)
	// Known dates: harbour-NN is NN days old.
	now := time.Now()
	for i := range 60 {
		p := filepath.Join(root, fmt.Sprintf("notes/harbour-%02d.txt", i))
		d := now.Add(-time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(p, d, d); err != nil {
			t.Fatal(err)
		}
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	if err := os.WriteFile(filepath.Join(root, "harbour-photo.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	s.IndexDir(root, 65)
	return s, root
}

func num(r testserver.Response, path string) int {
	f, _ := r.Field(path).(float64)
	return int(f)
}

func TestSearchTotalAndPaging(t *testing.T) {
	s, _ := pagingCorpus(t)
	seen := map[string]bool{}
	var total int
	for off := 0; ; off += 25 {
		r := post(t, s, map[string]any{"query": "harbour", "limit": 25, "offset": off})
		if r.Status != 200 {
			t.Fatalf("offset %d: %d %s", off, r.Status, r.Body)
		}
		total = num(r, "total")
		if r.Field("total_estimated") != false || num(r, "offset") != off {
			t.Fatalf("page fields: %s", r.Body)
		}
		ps := paths(r)
		if len(ps) == 0 {
			break
		}
		for _, p := range ps {
			if seen[p] {
				t.Fatalf("%s on two pages", p)
			}
			seen[p] = true
		}
	}
	// 60 logs, 3 changelogs (one result with two copies), the photo by name.
	if total < 63 || total > 64 {
		t.Fatalf("total %d, want 63 or 64 matching files", total)
	}
	r := post(t, s, map[string]any{"query": "harbour", "limit": 5})
	if num(r, "total_groups") != total-2 {
		t.Fatalf("total_groups %d, total %d: three copies are one result", num(r, "total_groups"), total)
	}
	if len(seen) != total-2 {
		t.Fatalf("paged through %d results, want %d", len(seen), total-2)
	}
}

func TestSearchSortOrders(t *testing.T) {
	s, _ := pagingCorpus(t)
	get := func(sort, order string) []map[string]any {
		body := map[string]any{"query": "ferry", "limit": 100, "sort": sort}
		if order != "" {
			body["order"] = order
		}
		r := post(t, s, body)
		if r.Status != 200 {
			t.Fatalf("%s %s: %d %s", sort, order, r.Status, r.Body)
		}
		var out []map[string]any
		for _, x := range r.Field("results").([]any) {
			out = append(out, x.(map[string]any))
		}
		if len(out) != 60 {
			t.Fatalf("%s: %d results", sort, len(out))
		}
		return out
	}
	file := func(h map[string]any, k string) any { return h["file"].(map[string]any)[k] }
	sorted := func(name string, hits []map[string]any, less func(a, b map[string]any) bool) {
		for i := 1; i < len(hits); i++ {
			if less(hits[i], hits[i-1]) {
				t.Fatalf("%s: %v before %v", name, file(hits[i-1], "filename"), file(hits[i], "filename"))
			}
		}
	}
	sorted("modified desc", get("modified", ""), func(a, b map[string]any) bool {
		return file(a, "modified").(string) > file(b, "modified").(string)
	})
	sorted("name asc", get("name", ""), func(a, b map[string]any) bool {
		return file(a, "filename").(string) < file(b, "filename").(string)
	})
	sorted("size desc", get("size", ""), func(a, b map[string]any) bool {
		return file(a, "size").(float64) > file(b, "size").(float64)
	})
	sorted("size asc", get("size", "asc"), func(a, b map[string]any) bool {
		return file(a, "size").(float64) < file(b, "size").(float64)
	})
	rel := get("relevance", "")
	sorted("relevance", rel, func(a, b map[string]any) bool {
		return a["relevance_score"].(float64) > b["relevance_score"].(float64)
	})
	// Every order scores what it shows.
	for _, h := range get("name", "") {
		if h["relevance_score"].(float64) <= 0 {
			t.Fatalf("no score for %v sorted by name", file(h, "filename"))
		}
	}
}

func TestSearchPagingErrors(t *testing.T) {
	s, _ := corpus(t)
	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"query": "roof", "offset": -1}, "INVALID_PARAMETER"},
		{map[string]any{"query": "roof", "offset": "3"}, "INVALID_JSON"},
		{map[string]any{"query": "roof", "offset": 1.5}, "INVALID_NUMBER"},
		{map[string]any{"query": "roof", "sort": "date"}, "INVALID_PARAMETER"},
		{map[string]any{"query": "roof", "order": "up"}, "INVALID_PARAMETER"},
		{map[string]any{"query": "roof", "filters": map[string]any{"kinds": []string{"pictures"}}}, "INVALID_FILTER"},
	} {
		r := post(t, s, tc.body)
		if r.Status != 400 || r.Field("error.code") != tc.code {
			t.Errorf("%v: %d %s, want 400 %s", tc.body, r.Status, r.Body, tc.code)
		}
	}
	r := post(t, s, map[string]any{"query": "roof", "offset": 1000})
	if r.Status != 200 || len(paths(r)) != 0 || num(r, "total") == 0 {
		t.Fatalf("offset past the end: %d %s", r.Status, r.Body)
	}
	r = post(t, s, map[string]any{"query": "roof", "sort": "name"})
	if r.Field("order") != "asc" || r.Field("sort") != "name" {
		t.Fatalf("name sorts ascending by default: %s", r.Body)
	}
}

func TestSearchGroupsCopies(t *testing.T) {
	s, root := pagingCorpus(t)
	r := post(t, s, map[string]any{"query": "lighthouse keeper"})
	list := r.Field("results").([]any)
	if len(list) != 1 || num(r, "total") != 3 || num(r, "total_groups") != 1 {
		t.Fatalf("three copies: %d results, total %d: %s", len(list), num(r, "total"), r.Body)
	}
	copies := list[0].(map[string]any)["copies"].([]any)
	var got []string
	for _, c := range copies {
		got = append(got, c.(map[string]any)["file_path"].(string))
	}
	got = append(got, list[0].(map[string]any)["file"].(map[string]any)["file_path"].(string))
	slices.Sort(got)
	want := []string{filepath.Join(root, "a/changelog"), filepath.Join(root, "b/changelog"), filepath.Join(root, "c/changelog")}
	if !slices.Equal(got, want) {
		t.Fatalf("copies %v", got)
	}
}

func TestSearchDidYouMean(t *testing.T) {
	s, root := pagingCorpus(t)
	r := post(t, s, map[string]any{"query": "licnese"})
	if r.Field("did_you_mean.query") != "license" {
		t.Fatalf("did_you_mean: %s", r.Body)
	}
	r = post(t, s, map[string]any{"query": "license"})
	if p := paths(r); len(p) == 0 || filepath.Dir(filepath.Dir(p[0])) != root {
		t.Fatalf("the suggestion finds nothing: %s", r.Body)
	}
	r = post(t, s, map[string]any{"query": "qqqxxyyzz"})
	if r.Status != 200 || len(paths(r)) != 0 || num(r, "total") != 0 || r.Field("did_you_mean") != nil {
		t.Fatalf("nonsense: %s", r.Body)
	}
}

func TestSearchKindsAndFacets(t *testing.T) {
	s, _ := pagingCorpus(t)
	r := post(t, s, map[string]any{"query": "harbour", "filters": map[string]any{"kinds": []string{"images"}}})
	ps := paths(r)
	if len(ps) != 1 || !strings.HasSuffix(ps[0], "harbour-photo.png") || num(r, "total") != 1 {
		t.Fatalf("images: %s", r.Body)
	}
	kinds := map[string]float64{}
	for _, k := range r.Field("facets.kinds").([]any) {
		m := k.(map[string]any)
		kinds[m["kind"].(string)] = m["count"].(float64)
	}
	// Facets count before the type filter, so every kind can be picked.
	if kinds["documents"] != 60 || kinds["none"] != 3 || kinds["images"] != 1 {
		t.Fatalf("facets %v", kinds)
	}
	r = post(t, s, map[string]any{"query": "harbour", "filters": map[string]any{"kinds": "none"}})
	if num(r, "total") != 3 {
		t.Fatalf("no extension: %s", r.Body)
	}
}

func TestPreviewMarksMatchesOfIndexedFilesOnly(t *testing.T) {
	s, root := pagingCorpus(t)
	id := s.FileID(filepath.Join(root, "notes/harbour-02.txt"))
	r := s.Get(fmt.Sprintf("/api/files/%d/preview?query=ferry", id))
	if r.Status != 200 || num(r, "matches") != 3 {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	var text strings.Builder
	for _, p := range r.Field("parts").([]any) {
		m := p.(map[string]any)
		if m["mark"] == true && m["text"] != "ferry" {
			t.Fatalf("marked %q", m["text"])
		}
		text.WriteString(m["text"].(string))
	}
	if !strings.HasPrefix(text.String(), "Harbour log 2.") {
		t.Fatalf("text %q", text.String())
	}
	if r := s.Get("/api/files/999999/preview"); r.Status != 404 {
		t.Fatalf("unknown id: %d %s", r.Status, r.Body)
	}
	if r := s.Get("/api/files/abc/preview"); r.Status != 400 {
		t.Fatalf("bad id: %d %s", r.Status, r.Body)
	}
	img := s.FileID(filepath.Join(root, "harbour-photo.png"))
	if r := s.Get(fmt.Sprintf("/api/files/%d/image", img)); r.Status != 200 || !strings.HasPrefix(string(r.Body), "\x89PNG") {
		t.Fatalf("image: %d", r.Status)
	}
	if r := s.Get(fmt.Sprintf("/api/files/%d/image", id)); r.Status != 400 || r.Field("error.code") != "NOT_AN_IMAGE" {
		t.Fatalf("text as image: %d %s", r.Status, r.Body)
	}
	// A link swapped in for the indexed image is not followed.
	secret := filepath.Join(t.TempDir(), "secret.png")
	if err := os.WriteFile(secret, []byte("\x89PNG secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	photo := filepath.Join(root, "harbour-photo.png")
	if err := os.Remove(photo); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, photo); err != nil {
		t.Fatal(err)
	}
	if r := s.Get(fmt.Sprintf("/api/files/%d/image", img)); r.Status == 200 || strings.Contains(string(r.Body), "secret") {
		t.Fatalf("followed a link: %d %s", r.Status, r.Body)
	}
}

func TestPreviewKeepsTheLocalAPIGuards(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("s3cret"))
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "private words about the harbour")
	s.IndexDir(root, 1)
	id := s.FileID(filepath.Join(root, "a.txt"))
	path := fmt.Sprintf("/api/files/%d/preview?query=harbour", id)
	s.Token = ""
	for _, p := range []string{path, fmt.Sprintf("/api/files/%d/image", id)} {
		if r := s.Get(p); r.Status != 401 || strings.Contains(string(r.Body), "private") {
			t.Fatalf("%s without the token: %d %s", p, r.Status, r.Body)
		}
	}
	s.Token = "s3cret"
	if r := s.Do("GET", path, nil, "Origin", "https://evil.example"); r.Status != 403 || strings.Contains(string(r.Body), "private") {
		t.Fatalf("foreign origin: %d %s", r.Status, r.Body)
	}
	if r := s.Do("GET", path, nil, "Host", "evil.example:80"); r.Status != 403 {
		t.Fatalf("foreign host: %d %s", r.Status, r.Body)
	}
	if r := s.Get(path); r.Status != 200 || num(r, "matches") != 1 {
		t.Fatalf("with the token: %d %s", r.Status, r.Body)
	}
}

// folder and kind sort every result (not a page of them), ascending by
// default, ties by name.
func TestSearchSortsByFolderAndKind(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"zeta/notes.txt", "ferry times",
		"alpha/main.go", "package main // ferry",
		"mid/table.csv", "ferry,10\n",
		"alpha/readme.md", "# Ferry",
		"mid/sub/log.txt", "ferry log")
	s.IndexDir(root, 5)
	get := func(sort, order string) (names []string, kinds []string) {
		body := map[string]any{"query": "ferry", "sort": sort, "mode": "keyword"}
		if order != "" {
			body["order"] = order
		}
		r := post(t, s, body)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", sort, r.Status, r.Body)
		}
		for _, x := range r.Field("results").([]any) {
			h := x.(map[string]any)
			rel, _ := filepath.Rel(root, h["file"].(map[string]any)["file_path"].(string))
			names = append(names, rel)
			kind, _ := h["kind"].(string)
			kinds = append(kinds, kind)
		}
		return names, kinds
	}
	want := []string{"alpha/main.go", "alpha/readme.md", "mid/table.csv", "mid/sub/log.txt", "zeta/notes.txt"}
	if got, _ := get("folder", ""); !slices.Equal(got, want) {
		t.Errorf("by folder: %v, want %v", got, want)
	}
	if got, _ := get("folder", "desc"); got[0] != "zeta/notes.txt" || got[len(got)-1] != "alpha/main.go" {
		t.Errorf("by folder, descending: %v", got)
	}
	names, kinds := get("kind", "")
	if len(names) != 5 || !slices.IsSorted(kinds) || slices.Compact(slices.Clone(kinds))[0] == "" {
		t.Errorf("by kind: %v %v", names, kinds)
	}
	if i, j := slices.Index(names, "zeta/notes.txt"), slices.Index(names, "mid/sub/log.txt"); j != i-1 {
		t.Errorf("by kind: the two texts are not together by name: %v", names)
	}
}
