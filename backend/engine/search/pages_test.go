package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"trove/backend/core"
)

// A result's snippet names the page of the file it stands on: the page of
// its first match within the passage, by both ways a search is answered
// (a list of results, a page of them), and none for a file without pages.
func TestSnippetNamesItsPage(t *testing.T) {
	intro := "Annual report of the harbour board. " + strings.Repeat("Ships came and went. ", 5)
	second := "The quokka census was taken at dawn."
	passage := intro + second
	e := testIndexPaged(t, []testDoc{
		{"report.pdf", []string{passage, "The ledger closes the year."}},
		{"notes.txt", []string{"a quokka in the notes, and the ledger"}},
	}, nil, map[string][]core.Pages{"report.pdf": {{{At: 0, Page: 1}, {At: len(intro), Page: 2}}, {{At: 0, Page: 3}}}})
	ctx := context.Background()
	for word, want := range map[string]int{"quokka": 2, "ledger": 3, "harbour": 1} {
		rs, err := e.Search(ctx, Request{Query: word, Limit: 5, Mode: Keyword, Snippets: true})
		if err != nil {
			t.Fatal(err)
		}
		pg, err := e.SearchPage(ctx, PageRequest{Request: Request{Query: word, Limit: 5, Mode: Keyword, Snippets: true}})
		if err != nil {
			t.Fatal(err)
		}
		pages := map[string]int{}
		for _, r := range rs {
			pages["list "+r.File.Filename] = r.Page
		}
		for _, r := range pg.Results {
			pages["page "+r.File.Filename] = r.Page
		}
		if pages["list report.pdf"] != want || pages["page report.pdf"] != want {
			t.Errorf("%s: report.pdf on pages %v, want %d", word, pages, want)
		}
		if n, ok := pages["page notes.txt"]; ok && n != 0 || pages["list notes.txt"] != 0 {
			t.Errorf("%s: a text file has a page: %v", word, pages)
		}
	}
}

// A preview's parts each lie on one page and name it; a file without
// pages names none.
func TestPreviewNamesPages(t *testing.T) {
	e, fake := fakeEngine(fakeFile(1, "/w/report.pdf", 1, 1, ""), fakeFile(2, "/w/notes.txt", 1, 1, ""))
	text := "page one speaks of the roof. page two has a leak and the roof again."
	fake.texts[1], fake.texts[2] = text, text
	fake.pages = map[int64]core.Pages{1: {{At: 0, Page: 1}, {At: strings.Index(text, "page two"), Page: 2}}}
	p, err := e.Preview(t.Context(), 1, "roof leak")
	if err != nil {
		t.Fatal(err)
	}
	var marks []string
	for _, part := range p.Parts {
		if part.Mark {
			marks = append(marks, part.Text+"@"+string(rune('0'+part.Page)))
		}
		if strings.Contains(part.Text, "one") && strings.Contains(part.Text, "two") {
			t.Errorf("part %q spans two pages", part.Text)
		}
	}
	if want := []string{"roof@1", "leak@2", "roof@2"}; !slices.Equal(marks, want) {
		t.Errorf("marks %v, want %v", marks, want)
	}
	plain, err := e.Preview(t.Context(), 2, "roof")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range plain.Parts {
		if part.Page != 0 {
			t.Errorf("a file without pages: part %q on page %d", part.Text, part.Page)
		}
	}
}
