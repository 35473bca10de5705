package search

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/embedding"
	"trove/backend/store"
	"trove/backend/tokens"
	"trove/backend/vecquant"
)

// engineFor builds an engine over a real index of a few documents.
func engineFor(t testing.TB) *Engine {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	em, err := embedding.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	vecs := NewVectors(em.Model())
	st.Observe(vecs)
	ctx := context.Background()
	d, _ := st.AddDirectory(ctx, "/d", true, "", time.Now())
	for i, text := range []string{
		"The roof leaks above the bedroom after every storm.",
		"Quarterly revenue grew by twelve percent; costs were flat.",
		"Bread recipe: bake at 220 degrees for forty minutes.",
		`Tricky text: "quotes", NEAR(a b), AND OR NOT, col:value, 'single', * and ^ and \ escapes.`,
	} {
		v, _ := em.Embed(ctx, []string{text})
		name := []string{"roof-leak.md", "Q3_report.txt", "bread.txt", "tricky.txt"}[i]
		_, err := st.PutDocument(ctx, store.Document{
			File: core.File{DirID: d.ID, Path: "/d/" + name, Filename: name, Extension: ".txt",
				Created: time.Now(), Modified: time.Now(), Accessed: time.Now(), Title: name},
			NameTerms: tokens.NameTerms(name), Chunks: []store.Chunk{{Text: text, Vec: vecquant.Encode(v[0])}},
			EmbedModel: em.Model(),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return &Engine{Store: st, Vectors: vecs, Embedder: func() embedding.Embedder { return em },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func TestEngineFindsAndHighlights(t *testing.T) {
	e := engineFor(t)
	rs, err := e.Search(context.Background(), Request{Query: "roof leaking", Limit: 5, Snippets: true})
	if err != nil || len(rs) == 0 || rs[0].File.Path != "/d/roof-leak.md" {
		t.Fatalf("%+v %v", rs, err)
	}
	if rs[0].Snippet != "The <mark>roof</mark> <mark>leaks</mark> above the bedroom after every storm." {
		t.Fatalf("snippet %q", rs[0].Snippet)
	}
}

func FuzzSearch(f *testing.F) {
	for _, q := range []string{`roof`, `"unclosed`, `NEAR(`, `AND`, `*`, `a:b`, `'; DROP TABLE files; --`,
		`-"x" ext:txt in:/d after:2024 before:2020-02`, `quart* OR "raised bed"`, `col:value`, `\"`, `""""`} {
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
