// Package fts5base is the ranking benchmarks' baseline: plain SQLite FTS5
// BM25 over the same documents, built in the same run. Documents have two
// fields, a title (weight 2) and a body (weight 1), tokenised with
// "porter unicode61"; a query is the OR of its words with stopwords dropped
// (all of them when nothing else is left), as a careful FTS5 user would
// write it.
package fts5base

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"trove/backend/store/tokens"
)

// Index is an FTS5 table of documents.
type Index struct {
	db  *sqlite3.Conn
	ids []string // rowid-1 -> document id
}

// Doc is one document of the baseline.
type Doc struct{ ID, Title, Body string }

// Build indexes docs in a database file in dir. With a non-empty key, a
// database built before from documents of the same key is used again.
func Build(dir string, docs []Doc, key ...string) (*Index, error) {
	path := filepath.Join(dir, "fts5-baseline.db")
	stamp := path + ".key"
	db, err := open(path)
	if err != nil {
		return nil, err
	}
	if err := fts5.Register(db); err != nil {
		return nil, err
	}
	if len(key) > 0 {
		if b, err := os.ReadFile(stamp); err == nil && string(b) == key[0] {
			ix := &Index{db: db}
			for _, d := range docs {
				ix.ids = append(ix.ids, d.ID)
			}
			return ix, nil
		}
		os.Remove(stamp)
	}
	if err := db.Exec(`PRAGMA journal_mode=off; PRAGMA synchronous=off;
		DROP TABLE IF EXISTS docs;
		CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61');
		BEGIN`); err != nil {
		return nil, err
	}
	st, _, err := db.Prepare(`INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	ix := &Index{db: db}
	for _, d := range docs {
		ix.ids = append(ix.ids, d.ID)
		st.BindInt(1, len(ix.ids))
		st.BindText(2, d.Title)
		st.BindText(3, d.Body)
		if err := st.Exec(); err != nil {
			return nil, err
		}
	}
	st.Close()
	if err := db.Exec(`COMMIT; INSERT INTO docs(docs) VALUES('optimize')`); err != nil {
		return nil, err
	}
	if len(key) > 0 {
		if err := os.WriteFile(stamp, []byte(key[0]), 0o644); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// open opens the baseline's database with room for long queries: FTS5
// reads the matches of every word of a query's OR at once, and the 256 MB
// a connection gets by default ran out on a pasted paragraph of common
// words over the 20,000-file corpus.
func open(path string) (*sqlite3.Conn, error) {
	return sqlite3.OpenContext(sqlite3.WithMaxMemory(context.Background(), 2<<30), path)
}

// Open opens a baseline built before in dir; Search then returns rowids
// (1-based, in the order the documents were given) as ids.
func Open(dir string) (*Index, error) {
	db, err := open(filepath.Join(dir, "fts5-baseline.db"))
	if err != nil {
		return nil, err
	}
	if err := fts5.Register(db); err != nil {
		db.Close()
		return nil, err
	}
	st, _, err := db.Prepare(`SELECT max(rowid) FROM docs`)
	if err != nil {
		db.Close()
		return nil, err
	}
	defer st.Close()
	ix := &Index{db: db}
	if st.Step() {
		for i := range st.ColumnInt(0) {
			ix.ids = append(ix.ids, strconv.Itoa(i+1))
		}
	}
	return ix, st.Err()
}

// Close releases the database.
func (ix *Index) Close() error { return ix.db.Close() }

// Expr is the baseline's FTS5 expression for a query: its words, quoted,
// joined by OR, stopwords dropped unless nothing else is left.
func Expr(query string) string {
	var words, stop []string
	for _, w := range tokens.Words(query) {
		q := `"` + strings.ToLower(w) + `"`
		if tokens.IsStopword(w) {
			stop = append(stop, q)
		} else {
			words = append(words, q)
		}
	}
	if len(words) == 0 {
		words = stop
	}
	return strings.Join(words, " OR ")
}

// Search returns the ids of the best limit documents for query.
func (ix *Index) Search(query string, limit int) ([]string, error) {
	expr := Expr(query)
	if expr == "" {
		return nil, nil
	}
	st, _, err := ix.db.Prepare(`SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 2, 1) LIMIT ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	st.BindText(1, expr)
	st.BindInt(2, limit)
	var out []string
	for st.Step() {
		out = append(out, ix.ids[st.ColumnInt(0)-1])
	}
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("baseline %q: %w", expr, err)
	}
	return out, nil
}
