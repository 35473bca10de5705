package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"trove/backend/core"
)

// engineFor builds an engine over a real index of a few documents.
func engineFor(t testing.TB) *Engine {
	return testIndex(t, []testDoc{
		{"roof-leak.md", []string{"The roof leaks above the bedroom after every storm."}},
		{"Q3_report.txt", []string{"Quarterly revenue grew by twelve percent; costs were flat."}},
		{"bread.txt", []string{"Bread recipe: bake at 220 degrees for forty minutes."}},
		{"tricky.txt", []string{`Tricky text: "quotes", NEAR(a b), AND OR NOT, col:value, 'single', * and ^ and \ escapes.`}},
	})
}

func TestEngineFindsAndHighlights(t *testing.T) {
	e := engineFor(t)
	rs, err := e.Search(context.Background(), Request{Query: "roof leaking", Limit: 5, Snippets: true})
	if err != nil || len(rs) == 0 || rs[0].File.Path != "/w/roof-leak.md" {
		t.Fatalf("%+v %v", rs, err)
	}
	if rs[0].Snippet != "The <mark>roof</mark> <mark>leaks</mark> above the bedroom after every storm." {
		t.Fatalf("snippet %q", rs[0].Snippet)
	}
}

func FuzzSearch(f *testing.F) {
	for _, q := range []string{`roof`, `"unclosed`, `NEAR(`, `AND`, `*`, `a:b`, `'; DROP TABLE files; --`,
		`-"x" ext:txt in:/d after:2024 before:2020-02`, `quart* OR "raised bed"`, `col:value`, `\"`, `""""`,
		`Q3_report.txt`, `w/roof-leak.md`, `/w/Q3 report`, `1.5.2.5.txt`, `roof-leak.md roof-leak.md`,
		`return -1, err --user x->y type:"string" ext:tar.gz`,
		strings.Repeat(`the "roof -leak ext:pdf after:lunch quart* `, 9)} {
		f.Add(q, "hybrid")
	}
	e := engineFor(f)
	f.Fuzz(func(t *testing.T, q, mode string) {
		m := Mode(mode)
		if m != Keyword && m != Semantic {
			m = Hybrid
		}
		_, err := e.Search(context.Background(), Request{Query: q, Limit: 10, Mode: m, Snippets: true})
		if err != nil && !errors.Is(err, core.ErrInvalid) {
			t.Fatalf("query %q: %v", q, err)
		}
	})
}
