package search

import (
	"context"
	"io"
	"log/slog"
	"path"
	"strings"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/vecquant"
	"trove/backend/store"
)

// testDoc is a file of a test index: its path below /w, and its passages.
type testDoc struct {
	path     string
	passages []string
}

// testIndex builds a real index (SQLite file, builtin embedder) of docs
// under the watched folder /w and returns an engine over it.
func testIndex(t testing.TB, docs []testDoc) *Engine {
	t.Helper()
	return testIndexIn(t, docs, nil)
}

// testIndexIn is testIndex with the languages of docs' texts, by path
// (English when not given).
func testIndexIn(t testing.TB, docs []testDoc, langs map[string]string) *Engine {
	t.Helper()
	return testIndexPaged(t, docs, langs, nil)
}

// testIndexPaged is testIndexIn with the pages of docs' passages, by path.
func testIndexPaged(t testing.TB, docs []testDoc, langs map[string]string, pages map[string][]core.Pages) *Engine {
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
	d, err := st.AddDirectory(ctx, "/w", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	var batch []store.Document
	flush := func() {
		if _, err := st.PutDocuments(ctx, batch); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	for _, doc := range docs {
		name := path.Base(doc.path)
		rel := strings.TrimPrefix(doc.path, "/")
		vs, err := em.Embed(ctx, doc.passages)
		if err != nil {
			t.Fatal(err)
		}
		chunks := make([]store.Chunk, len(doc.passages))
		for i, p := range doc.passages {
			chunks[i] = store.Chunk{Text: p, Vec: vecquant.Encode(vs[i])}
			if i < len(pages[doc.path]) {
				chunks[i].Pages = pages[doc.path][i]
			}
		}
		batch = append(batch, store.Document{
			File: core.File{DirID: d.ID, Path: "/w/" + rel, Filename: name, Extension: path.Ext(name),
				Created: now, Modified: now, Accessed: now, Title: name},
			Rel: rel, Chunks: chunks, EmbedModel: em.Model(), Lang: langs[doc.path],
		})
		if len(batch) == 500 {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
	return &Engine{Store: st, Vectors: vecs, Embedder: func() embedding.Embedder { return em },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// paths returns the result paths below /w.
func paths(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = strings.TrimPrefix(r.File.Path, "/w/")
	}
	return out
}

func search(t testing.TB, e *Engine, req Request) []Result {
	t.Helper()
	if req.Limit == 0 {
		req.Limit = 10
	}
	rs, err := e.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("%q: %v", req.Query, err)
	}
	return rs
}
