package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"trove/backend/core"
)

// ExcludedAmong returns which of the given files' text or metadata match
// q (for exclusions). The matches are read in one pass over q's
// posting lists, from the lowest of the ids to the highest, and only the
// given files are kept, so memory follows the files asked about, not how
// many files q matches (a file-by-file lookup would parse and seek
// q once per file, far slower for a common or prefix word).
func (s *Store) ExcludedAmong(ctx context.Context, q Expr, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 || q.Empty() {
		return out, nil
	}
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		asked[id] = true
	}
	rows, err := s.rdb().QueryContext(ctx, `SELECT rowid FROM fts_content WHERE fts_content MATCH ?1 AND rowid BETWEEN ?2 AND ?3
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?1 AND rowid BETWEEN ?2 AND ?3`, q.fts5(), slices.Min(ids), slices.Max(ids))
	if err != nil {
		return nil, fmt.Errorf("exclusion search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if asked[id] {
			out[id] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("exclusion search: %w", err)
	}
	return out, nil
}

// IndexedFiles returns the records of the given ids that are indexed.
func (s *Store) IndexedFiles(ctx context.Context, ids []int64) (map[int64]core.File, error) {
	out := make(map[int64]core.File, len(ids))
	err := queryIn(ctx, s.rdb(), `SELECT `+fileColumns+` FROM files NOT INDEXED WHERE `+searchable+` AND id IN {list}`, nil, ids,
		func(rows *sql.Rows) error {
			f, err := scanFile(rows)
			if err == nil {
				out[f.ID] = f
			}
			return err
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PassageKey names a passage.
type PassageKey struct {
	FileID int64
	Ord    int32
}

// Passages returns the given passages, in one query.
func (s *Store) Passages(ctx context.Context, keys []PassageKey) (map[PassageKey]Passage, error) {
	out := make(map[PassageKey]Passage, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	args := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k.FileID, k.Ord)
	}
	rows, err := s.rdb().QueryContext(ctx, `SELECT file_id, ord, text, pages FROM chunks WHERE (file_id, ord) IN (VALUES (?, ?)`+
		strings.Repeat(`, (?, ?)`, len(keys)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("passages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k PassageKey
		var p Passage
		var pages sql.NullString
		if err := rows.Scan(&k.FileID, &k.Ord, &p.Text, &pages); err != nil {
			return nil, err
		}
		p.Ord, p.Pages = k.Ord, core.ParsePages(pages.String)
		out[k] = p
	}
	return out, rows.Err()
}

// Passage is a stored passage of a file: its place, its text and the
// pages it was read from (nil: none known).
type Passage struct {
	Ord   int32
	Text  string
	Pages core.Pages
}

// BestPassages picks, for each file, the passage holding the most of the
// given words (lower-case word stems, matched as substrings, so "leak"
// counts in "leaking"), among its first maxOrd passages, the first of
// equals. Files with no such passage are absent. The words are counted
// here rather than in SQL: SQLite's lower() folds only ASCII, and the
// chosen passage's text comes back with it.
func (s *Store) BestPassages(ctx context.Context, files []int64, words []string, maxOrd int) (map[int64]Passage, error) {
	out := map[int64]Passage{}
	if len(files) == 0 || len(words) == 0 {
		return out, nil
	}
	words = words[:min(len(words), 16)]
	best := map[int64]int{}
	err := queryIn(ctx, s.rdb(), `SELECT file_id, ord, text, pages FROM chunks WHERE ord < ? AND file_id IN {list}`,
		[]any{maxOrd}, files, func(rows *sql.Rows) error {
			var f int64
			var p Passage
			var pages sql.NullString
			if err := rows.Scan(&f, &p.Ord, &p.Text, &pages); err != nil {
				return err
			}
			n := 0
			lower := strings.ToLower(p.Text)
			for _, w := range words {
				if strings.Contains(lower, w) {
					n++
				}
			}
			if cur, ok := out[f]; n > 0 && (!ok || n > best[f] || n == best[f] && p.Ord < cur.Ord) {
				p.Pages = core.ParsePages(pages.String)
				out[f], best[f] = p, n
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("best passages: %w", err)
	}
	return out, nil
}

// PassageCount is the number of passages in the index.
func (s *Store) PassageCount() int { return int(s.passages.Load()) }

// DocCount is the number of files with indexed text.
func (s *Store) DocCount() int { return int(s.docs.Load()) }

// Changes counts the files whose full-text rows were written or removed
// since the store opened (a rebuild removes them all): what is derived
// from the full-text index, such as a word list, is stale once enough of
// them have changed.
func (s *Store) Changes() int64 { return s.changes.Load() }

// LoadVectors streams every stored vector of files indexed with model.
func (s *Store) LoadVectors(ctx context.Context, model string, fn func(fileID int64, ord int32, vec []byte)) error {
	rows, err := s.rdb().QueryContext(ctx, `SELECT c.file_id, c.ord, v.vec FROM files f
		JOIN chunks c ON c.file_id = f.id JOIN vectors v ON v.chunk_id = c.id
		WHERE f.state = 'indexed' AND f.embed_model = ?`, model)
	if err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var ord int32
		var vec []byte
		if err := rows.Scan(&id, &ord, &vec); err != nil {
			return err
		}
		fn(id, ord, vec)
	}
	return rows.Err()
}
