package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"trove/bench/internal/harness"
)

// baseline ranks with plain FTS5 BM25 under tokenizer tok, over the same
// pages (the name as a title of weight 2, the text of weight 1). A query
// is its space-separated words, each quoted, joined by OR, as a careful
// FTS5 user would write it: the tokenizer alone decides what a word is.
func baseline(work, name, tok string, docs []doc, items []item) [][]string {
	path := filepath.Join(work, strings.ReplaceAll(strings.ToLower(name), " ", "-")+".db")
	harness.Check(os.RemoveAll(path))
	db, err := sqlite3.OpenContext(sqlite3.WithMaxMemory(context.Background(), 1<<30), path)
	harness.Check(err)
	defer db.Close()
	harness.Check(fts5.Register(db))
	harness.Check(db.Exec(fmt.Sprintf(`PRAGMA journal_mode=off; PRAGMA synchronous=off;
		CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize=%q); BEGIN`, tok)))
	ins, _, err := db.Prepare(`INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)`)
	harness.Check(err)
	for i, d := range docs {
		ins.BindInt(1, i+1)
		ins.BindText(2, strings.TrimSuffix(filepath.Base(d.Rel), ".txt"))
		ins.BindText(3, d.Text)
		harness.Check(ins.Exec())
	}
	harness.Check(ins.Close())
	harness.Check(db.Exec(`COMMIT`))
	q, _, err := db.Prepare(`SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 2, 1) LIMIT 10`)
	harness.Check(err)
	defer q.Close()
	out := make([][]string, len(items))
	for i, it := range items {
		var terms []string
		for _, w := range strings.Fields(it.Query) {
			terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
		}
		q.BindText(1, strings.Join(terms, " OR "))
		for q.Step() {
			out[i] = append(out[i], docs[q.ColumnInt(0)-1].Rel)
		}
		_ = q.Reset() // a query the tokenizer cannot take (trigram, < 3 characters) finds nothing
	}
	return out
}
