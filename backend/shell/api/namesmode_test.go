package api_test

import (
	"slices"
	"testing"

	"trove/internal/testserver"
)

// Names mode finds files by name and path only, with globs, and corrects a
// mistyped name against the names of the index.
func TestNamesMode(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"src/writer.go", "package src",
		"src/reader.go", "package src // the writer's counterpart",
		"notes/writer-notes.md", "notes",
		"docs.txt", "a writer writes text",
		"journal/today.txt", "nothing here",
	)
	s.IndexDir(root, 5)
	names := func(query string) (testserver.Response, []string) {
		r := post(t, s, map[string]any{"query": query, "mode": "names"})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
		}
		return r, relPaths(root, r)
	}
	r, got := names("writer")
	if want := []string{"notes/writer-notes.md", "src/writer.go"}; !slices.Equal(got, want) {
		t.Errorf("writer: %q, want %q (names only, not the text)", got, want)
	}
	if first := paths(r)[0]; first != root+"/src/writer.go" {
		t.Errorf("writer: the shorter name comes first, got %s", first)
	}
	if _, got := names("journal"); !slices.Equal(got, []string{"journal/today.txt"}) {
		t.Errorf("journal (a folder): %q", got)
	}
	if _, got := names("*.go"); !slices.Equal(got, []string{"src/reader.go", "src/writer.go"}) {
		t.Errorf("*.go: %q", got)
	}
	r, got = names("writter.go")
	if len(got) == 0 || got[0] != "src/writer.go" {
		t.Fatalf("writter.go: %q %s", got, r.Body)
	}
	fix, _ := r.Field("did_you_mean.corrections").([]any)
	if len(fix) != 1 || fix[0].(map[string]any)["suggested"] != "writer.go" {
		t.Errorf("writter.go: no correction: %s", r.Body)
	}
	if r := post(t, s, map[string]any{"query": "writer", "mode": "telepathic"}); r.Status != 400 {
		t.Errorf("bad mode: %d", r.Status)
	}
}
