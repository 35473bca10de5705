package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// fieldTree is a folder of files of known sizes, kinds, times and
// metadata, indexed.
func fieldTree(t *testing.T) (*testserver.Server, string) {
	t.Helper()
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"code/main.go", "package main // ledger entry point",
		"code/util.go", "package main // ledger helpers",
		"notes/small.txt", "ledger small note",
		"notes/report-2026-q1.md", "# Ledger report\n\nThe first quarter ledger.",
		"notes/old.txt", "an old ledger from long ago",
	)
	write := func(rel string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes/mid.txt", []byte("ledger "+strings.Repeat("middle ", 3000)))    // about 21 KB
	write("big.log", []byte("ledger "+strings.Repeat("big log line\n", 200000))) // about 2.5 MB
	for _, f := range []string{"writer.pdf", "writer.docx", "photo.jpg", "tone.flac"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "engine", "extract", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		write("media/"+f, data)
	}
	old := time.Date(2020, 5, 10, 12, 0, 0, 0, time.Local)
	if err := os.Chtimes(filepath.Join(root, "notes/old.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	s.IndexDir(root, 11)
	return s, root
}

// fileInfo is what the test knows of each file, to compute what a field
// must return.
type fileInfo struct {
	rel  string
	size int64
	mod  time.Time
}

func treeFiles(t *testing.T, root string) []fileInfo {
	var out []fileInfo
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, fileInfo{rel: rel, size: info.Size(), mod: info.ModTime()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func relPaths(root string, r testserver.Response) []string {
	var out []string
	for _, p := range paths(r) {
		rel, _ := filepath.Rel(root, p)
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// Every result of a field matches it, and every file that matches it is
// a result.
func TestQueryFieldsThroughTheAPI(t *testing.T) {
	s, root := fieldTree(t)
	files := treeFiles(t, root)
	where := func(keep func(fileInfo) bool) []string {
		var out []string
		for _, f := range files {
			if keep(f) {
				out = append(out, f.rel)
			}
		}
		slices.Sort(out)
		return out
	}
	named := func(names ...string) func(fileInfo) bool {
		return func(f fileInfo) bool { return slices.Contains(names, f.rel) }
	}
	cases := []struct {
		query string
		want  func(fileInfo) bool
	}{
		{"ext:go", func(f fileInfo) bool { return filepath.Ext(f.rel) == ".go" }},
		{"*.go", func(f fileInfo) bool { return filepath.Ext(f.rel) == ".go" }},
		{"report-2026-*.md", named("notes/report-2026-q1.md")},
		{"name:util", named("code/util.go")},
		{"path:notes", func(f fileInfo) bool { return strings.HasPrefix(f.rel, "notes/") }},
		{"path:media/*.jpg", named("media/photo.jpg")},
		{"kind:code", func(f fileInfo) bool { return filepath.Ext(f.rel) == ".go" }},
		{"kind:pdf", named("media/writer.pdf")},
		{"kind:image", named("media/photo.jpg")},
		{"size:>1mb", func(f fileInfo) bool { return f.size > 1<<20 }},
		{"size:10kb..1mb", func(f fileInfo) bool { return f.size >= 10<<10 && f.size <= 1<<20 }},
		{"size:<100b", func(f fileInfo) bool { return f.size < 100 }},
		{"ledger size:>10kb", func(f fileInfo) bool { return f.size > 10<<10 && (f.rel == "notes/mid.txt" || f.rel == "big.log") }},
		{"modified:2020-05", named("notes/old.txt")},
		{"modified:<2021", named("notes/old.txt")},
		{"modified:>-7d", func(f fileInfo) bool { return f.rel != "notes/old.txt" }},
		{"ledger modified:>-7d", func(f fileInfo) bool {
			return f.rel != "notes/old.txt" && (strings.HasPrefix(f.rel, "code/") || strings.HasPrefix(f.rel, "notes/") || f.rel == "big.log")
		}},
		{"author:lovelace", named("media/writer.pdf", "media/writer.docx")},
		{`author:"Ada Lovelace" ext:pdf`, named("media/writer.pdf")},
		{"title:quokka", named("media/writer.pdf", "media/writer.docx")},
		{"pages:1", named("media/writer.pdf")},
		{"camera:trovecam", named("media/photo.jpg")},
		{"width:24 height:16", named("media/photo.jpg")},
		{"artist:bandicoots", named("media/tone.flac")},
		{"album:outback", named("media/tone.flac")},
	}
	for _, c := range cases {
		// Every mode gives the same files: the semantic side of a hybrid
		// search adds none that the fields refuse, and names mode serves
		// a query of fields alone.
		modes := []string{"keyword", "hybrid"}
		if !strings.Contains(c.query, "ledger") {
			modes = append(modes, "names")
		}
		for _, mode := range modes {
			r := post(t, s, map[string]any{"query": c.query, "limit": 100, "mode": mode})
			if r.Status != 200 {
				t.Errorf("%s (%s): %d %s", c.query, mode, r.Status, r.Body)
				continue
			}
			want := where(c.want)
			if got := relPaths(root, r); !slices.Equal(got, want) {
				t.Errorf("%s (%s): got %q, want %q", c.query, mode, got, want)
			}
			if fields, _ := r.Field("fields").([]any); len(fields) == 0 {
				t.Errorf("%s (%s): no fields echoed: %s", c.query, mode, r.Body)
			}
		}
	}
}

func TestQueryFieldsEchoAndErrors(t *testing.T) {
	s, _ := corpus(t)
	r := post(t, s, map[string]any{"query": `budget ext:txt size:<1mb *.txt author:"Jane Doe"`})
	want := []any{
		map[string]any{"field": "ext", "value": "txt"},
		map[string]any{"field": "size", "value": "<1mb"},
		map[string]any{"field": "name", "value": "*.txt"},
		map[string]any{"field": "author", "value": "Jane Doe"},
	}
	if got, _ := r.Field("fields").([]any); r.Status != 200 || !slices.EqualFunc(got, want, func(a, b any) bool {
		am, bm := a.(map[string]any), b.(map[string]any)
		return am["field"] == bm["field"] && am["value"] == bm["value"]
	}) {
		t.Errorf("fields: %d %s", r.Status, r.Body)
	}
	if got, _ := post(t, s, map[string]any{"query": "budget"}).Field("fields").([]any); got == nil || len(got) != 0 {
		t.Errorf("a query of words has an empty list of fields, got %v", got)
	}

	r = post(t, s, map[string]any{"query": "auther:smith budget"})
	msg, _ := r.Field("error.message").(string)
	if r.Status != 400 || r.Field("error.code") != "UNKNOWN_FIELD" || !strings.Contains(msg, "auther") || !strings.Contains(msg, "author") {
		t.Errorf("unknown field: %d %s", r.Status, r.Body)
	}
	for q, code := range map[string]string{"size:huge": "INVALID_QUERY", "kind:spaceships": "INVALID_QUERY",
		"lang:english budget": "INVALID_QUERY", "modified:someday": "INVALID_QUERY", "pages:>3": "INVALID_QUERY"} {
		if r := post(t, s, map[string]any{"query": q}); r.Status != 400 || r.Field("error.code") != code {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	// Colons of text stay text.
	for _, q := range []string{"http://example.com budget", "meet at 10:30", `C:\Users budget`} {
		if r := post(t, s, map[string]any{"query": q}); r.Status != 200 {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
}

// A compressed document is a document, a compressed tar an archive: in
// results, kind: and the facets alike.
func TestCompressedFilesAreOfTheirInnerKind(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	gz := func(name string, data []byte) {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		if err := os.WriteFile(filepath.Join(root, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gz("changelog.gz", []byte("wombat release notes: fixed the burrow"))
	gz("README.Debian.gz", []byte("wombat packaging notes for Debian"))
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	body := []byte("wombat in a tarball")
	tw.WriteHeader(&tar.Header{Name: "inside.txt", Mode: 0o644, Size: int64(len(body))})
	tw.Write(body)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz("backup.tar.gz", tarball.Bytes())
	s.IndexDir(root, 3)
	r := post(t, s, map[string]any{"query": "wombat", "mode": "keyword"})
	kinds := map[string]string{}
	for _, x := range r.Field("results").([]any) {
		hit := x.(map[string]any)
		kinds[hit["file"].(map[string]any)["filename"].(string)], _ = hit["kind"].(string)
	}
	want := map[string]string{"changelog.gz": "documents", "README.Debian.gz": "documents", "backup.tar.gz": "archives"}
	if !maps.Equal(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	if got := relPaths(root, post(t, s, map[string]any{"query": "wombat kind:documents"})); !slices.Equal(got, []string{"README.Debian.gz", "changelog.gz"}) {
		t.Errorf("kind:documents: %q", got)
	}
	if got := relPaths(root, post(t, s, map[string]any{"query": "wombat", "filters": map[string]any{"kinds": "archives"}})); !slices.Equal(got, []string{"backup.tar.gz"}) {
		t.Errorf("filters.kinds archives: %q", got)
	}
}

// A glob typed in the query ignores case unless it holds a capital letter
// (smart case): *.jpg finds IMG_0001.JPG, READ*.* only READMEs so written.
func TestQueryGlobsIgnoreCaseUnlessCapitalised(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"Photos/IMG_0001.JPG", "not really a picture",
		"photos/beach.jpg", "not really a picture either",
		"docs/README.md", "read me first",
		"docs/readme.txt", "read me second",
	)
	s.IndexDir(root, 4)
	for query, want := range map[string][]string{
		"*.jpg":          {"Photos/IMG_0001.JPG", "photos/beach.jpg"},
		"*.JPG":          {"Photos/IMG_0001.JPG"},
		"name:img_*":     {"Photos/IMG_0001.JPG"},
		"read*.*":        {"docs/README.md", "docs/readme.txt"},
		"READ*.*":        {"docs/README.md"},
		"path:photos":    {"Photos/IMG_0001.JPG", "photos/beach.jpg"},
		"path:Photos":    {"Photos/IMG_0001.JPG"},
		"path:docs/*.md": {"docs/README.md"},
	} {
		for _, mode := range []string{"keyword", "names"} {
			r := post(t, s, map[string]any{"query": query, "limit": 100, "mode": mode})
			if got := relPaths(root, r); !slices.Equal(got, want) {
				t.Errorf("%s (%s): got %q, want %q", query, mode, got, want)
			}
		}
	}
}
