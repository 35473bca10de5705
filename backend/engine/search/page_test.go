package search

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/engine/text/query"
)

// The preview's parts are the text, cut only around whole matching words.
func FuzzPreviewMarks(f *testing.F) {
	f.Add("The roof leaks; ROOFING leaked\x00 roof", "roof leak")
	f.Add("caf\xe9 caf\u00e9 ÉTÉ été", "été quart*")
	f.Add("", "\"a b\" -c")
	f.Fuzz(func(t *testing.T, text, q string) {
		stems := map[string]bool{}
		var prefixes []string
		if pq := query.Parse(q); len(pq.Errors) == 0 {
			p := newPlan(pq)
			for _, s := range p.stems {
				stems[s] = true
			}
			prefixes = p.prefixes
		}
		// Two pages: the second starts halfway, and no part spans both.
		half := runeStart(text, len(text)/2)
		pages := core.Pages{{At: 0, Page: 1}, {At: half, Page: 2}}
		parts, n := markAll(text, pages, newMarker(stems, prefixes))
		var b strings.Builder
		marks := 0
		for i, p := range parts {
			at := b.Len()
			b.WriteString(p.Text)
			if p.Text == "" {
				t.Fatalf("empty part %d", i)
			}
			if want := pages.At(at); p.Page != want || !p.Mark && at < half && b.Len() > half {
				t.Fatalf("part %d %q at %d: page %d, want %d, on one page (the second starts at %d)", i, p.Text, at, p.Page, want, half)
			}
			if p.Mark {
				marks++
				r, _ := utf8.DecodeRuneInString(p.Text)
				if !isWordRune(r) {
					t.Fatalf("mark %q does not start a word", p.Text)
				}
			}
		}
		if b.String() != text || marks != n {
			t.Fatalf("parts %+v (%d marks, said %d) of %q", parts, marks, n, text)
		}
	})
}

func TestSearchPageOrdersAndGroups(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"b.txt", []string{"harbour ferry"}},
		{"a.txt", []string{"harbour ferry ferry ferry"}},
		{"c.txt", []string{"harbour tide"}},
	})
	ctx := context.Background()
	p, err := e.SearchPage(ctx, PageRequest{Request: Request{Query: "harbour", Limit: 2}, Sort: ByName, Asc: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != 3 || p.Groups != 3 || len(p.Results) != 2 || p.Results[0].File.Filename != "a.txt" || p.Results[1].File.Filename != "b.txt" {
		t.Fatalf("page %+v", p)
	}
	for _, r := range p.Results {
		if r.Score <= 0 {
			t.Fatalf("%s has no score", r.File.Filename)
		}
	}
	p, err = e.SearchPage(ctx, PageRequest{Request: Request{Query: "harbour", Limit: 2}, Offset: 2, Sort: ByName, Asc: true})
	if err != nil || len(p.Results) != 1 || p.Results[0].File.Filename != "c.txt" {
		t.Fatalf("second page %+v %v", p, err)
	}
	p, err = e.SearchPage(ctx, PageRequest{Request: Request{Query: "harbour", Limit: 5}, Kinds: []string{KindNone}})
	if err != nil || p.Total != 0 || len(p.Facets) != 1 || p.Facets[0] != (ExtCount{"documents", ".txt", 3}) {
		t.Fatalf("kinds %+v %v", p, err)
	}
}

// Excluded words (whole or prefix) and the path glob hold of every listed
// file and the total counts exactly the files that pass them.
func TestSearchPageTotalHonoursExclusionsAndGlob(t *testing.T) {
	var docs []testDoc
	for i := range 9 {
		text := "harbour tide"
		if i%3 == 0 {
			text += " ferryman"
		}
		docs = append(docs, testDoc{fmt.Sprintf("%c/log%d.txt", 'a'+i%2, i), []string{text}})
	}
	e := testIndex(t, docs)
	ctx := context.Background()
	for _, c := range []struct {
		query, glob string
		want        int
	}{
		{"harbour", "", 9},
		{"harbour -ferr*", "", 6},
		{"harbour -ferryman", "a/**", 3}, // a: logs 0 2 4 6 8; 0 and 6 mention the ferryman
		{"harbour", "b/**", 4},
	} {
		p, err := e.SearchPage(ctx, PageRequest{Request: Request{Query: c.query, Limit: 20, Filters: Filters{PathGlob: c.glob}}})
		if err != nil || p.Total != c.want || len(p.Results) != c.want {
			t.Errorf("%q in %q: total %d, %d results, %v; want %d", c.query, c.glob, p.Total, len(p.Results), err, c.want)
		}
		for _, r := range p.Results {
			if strings.Contains(c.query, "-ferr") && strings.Contains(r.File.Path, "log0") {
				t.Errorf("%q listed %s", c.query, r.File.Path)
			}
		}
	}
}

// A first page in relevance order starts its snippets as ranking ends;
// files the page shows that were not among the best ranked (the query's
// excluded words set those aside) get theirs too.
func TestFirstPageSnippets(t *testing.T) {
	var docs []testDoc
	for i := range 14 {
		docs = append(docs, testDoc{fmt.Sprintf("storm-%02d.txt", i), []string{fmt.Sprintf("harbour harbour harbour storm %d", i)}})
	}
	docs = append(docs, testDoc{"calm-a.txt", []string{"the harbour was calm all week"}},
		testDoc{"calm-b.txt", []string{"a calm harbour at dawn, no wind"}})
	e := testIndex(t, docs)
	for _, q := range []string{"harbour", "harbour -storm"} {
		p, err := e.SearchPage(context.Background(), PageRequest{Request: Request{Query: q, Limit: 2, Snippets: true}})
		if err != nil || len(p.Results) != 2 {
			t.Fatalf("%q: %d results, %v", q, len(p.Results), err)
		}
		for _, r := range p.Results {
			if !strings.Contains(r.Snippet, "<mark>harbour</mark>") {
				t.Errorf("%q: %s has the snippet %q", q, r.File.Path, r.Snippet)
			}
			if strings.HasSuffix(q, "-storm") != strings.Contains(r.File.Path, "calm") {
				t.Errorf("%q: %s on the first page", q, r.File.Path)
			}
		}
	}
}
