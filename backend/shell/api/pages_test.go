package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trove/internal/desktoptest"
	"trove/internal/pdftest"
	"trove/internal/testserver"
)

// pagedReport indexes a PDF of four pages, a word on each, and a text
// file holding the same words; it returns the PDF's id.
func pagedReport(t *testing.T, s *testserver.Server) (int64, string) {
	t.Helper()
	root := t.TempDir()
	pdf := filepath.Join(root, "report.pdf")
	if err := os.WriteFile(pdf, pdftest.Pages("harbour board minutes", "ferry timetable", "quokka census", "ledger closing"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "notes.txt", "the quokka census and the ledger")
	s.IndexDir(root, 2)
	return s.FileID(pdf), pdf
}

// A PDF hit names the page its snippet stands on, in both search
// endpoints; a text file's names none. Each part of the PDF's preview
// names its page.
func TestSearchAndPreviewNamePages(t *testing.T) {
	s := testserver.Start(t)
	id, _ := pagedReport(t, s)
	for word, page := range map[string]float64{"quokka": 3, "ledger": 4} {
		r := post(t, s, map[string]any{"query": word})
		got := map[string]any{}
		for _, x := range r.Field("results").([]any) {
			hit := x.(map[string]any)
			got[hit["file"].(map[string]any)["filename"].(string)] = hit["page"]
		}
		if got["report.pdf"] != page || got["notes.txt"] != nil {
			t.Errorf("%s: pages %v, want report.pdf on %v and none for notes.txt", word, got, page)
		}
		st, _ := s.Get("/api/search/stream?query=" + word).Field("data.results").([]any)
		found := false
		for _, x := range st {
			hit := x.(map[string]any)
			if strings.HasSuffix(hit["path"].(string), "report.pdf") {
				found = true
				if hit["page"] != page {
					t.Errorf("%s: the stream says page %v", word, hit["page"])
				}
			}
		}
		if !found {
			t.Errorf("%s: the stream did not find report.pdf", word)
		}
	}
	r := s.Get(fmt.Sprintf("/api/files/%d/preview?query=quokka+ferry", id))
	var marks []string
	for _, x := range r.Field("parts").([]any) {
		p := x.(map[string]any)
		if p["page"] == nil {
			t.Errorf("part %q has no page", p["text"])
		}
		if p["mark"] == true {
			marks = append(marks, fmt.Sprintf("%s@%v", p["text"], p["page"]))
		}
	}
	if want := []string{"ferry@2", "quokka@3"}; !slices.Equal(marks, want) {
		t.Errorf("preview marks %v, want %v", marks, want)
	}
}

// Open at a page starts the default PDF viewer with its page argument; a
// bad page is refused in the endpoint's shape, before anything is opened.
func TestOpenAtPage(t *testing.T) {
	v := desktoptest.PDFViewer(t, "evince-test.desktop", "evince", "%U")
	s := testserver.Start(t)
	id, pdf := pagedReport(t, s)
	open := fmt.Sprintf("/api/files/%d/open", id)
	for _, bad := range []any{0, -2, 100001, 2.5, "3", true} {
		r := s.Do("POST", open, map[string]any{"page": bad})
		if r.Status != 400 || r.Field("error") == nil || !strings.Contains(fmt.Sprint(r.Field("field"), r.Field("error")), "page") {
			t.Errorf("page %v: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := s.Do("POST", open, map[string]any{"pages": 3}); r.Status != 400 {
		t.Errorf("an unknown field: %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(v.Argv); err == nil {
		t.Fatal("a refused request opened the file")
	}
	if r := s.Do("POST", open, map[string]any{"page": 3}); r.Status != 200 || r.Field("path") != pdf {
		t.Fatalf("open at page 3: %d %s", r.Status, r.Body)
	}
	if got := desktoptest.Ran(t, v.Argv); !slices.Equal(got, []string{"--page-index=3", pdf}) {
		t.Errorf("the viewer ran with %q", got)
	}
	// No page: opened as before, by xdg-open.
	if r := s.Do("POST", open, nil); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	if got := desktoptest.Ran(t, v.OpenerArgv); !slices.Equal(got, []string{pdf}) {
		t.Errorf("xdg-open ran with %q", got)
	}
}
