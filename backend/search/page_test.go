package search

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"trove/backend/query"
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
		parts, n := markAll(text, stems, prefixes)
		var b strings.Builder
		marks := 0
		for i, p := range parts {
			b.WriteString(p.Text)
			if p.Text == "" {
				t.Fatalf("empty part %d", i)
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
	if err != nil || p.Total != 0 || len(p.Facets) != 1 || p.Facets[0] != (ExtCount{".txt", 3}) {
		t.Fatalf("kinds %+v %v", p, err)
	}
}
