package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"trove/backend/core"
)

// FileKey is what the result list needs of a matching file before ranking
// it: its type (for the type facets), its sort keys and its content (to
// group copies).
type FileKey struct {
	ID        int64
	Path      string
	Extension string
	Filename  string
	Size      int64
	Modified  int64 // Unix ns
	Hash      string
	Lang      string // the language of its text (files.lang), "" when not told
}

const fileKeyColumns = `f.id, f.path, f.extension, f.filename, f.size, f.modified_ns, f.content_hash, f.lang`

// countKeyColumns are the columns of a key that counting and grouping
// read: the type, the content and the language (for the facets).
const countKeyColumns = `f.id, f.extension, f.size, f.content_hash, f.lang`

// scanKeys reads the keys keep accepts (nil: all) up to limit, and
// whether more follow; it stops reading there. narrow keys hold only
// countKeyColumns.
func scanKeys(rows *sql.Rows, narrow bool, keep func(FileKey) bool, limit int) (keys []FileKey, more bool, err error) {
	for rows.Next() {
		var k FileKey
		var err error
		if narrow {
			err = rows.Scan(&k.ID, &k.Extension, &k.Size, &k.Hash, &k.Lang)
		} else {
			k, err = scanKey(rows)
		}
		if err != nil {
			return nil, false, err
		}
		if keep != nil && !keep(k) {
			continue
		}
		if limit > 0 && len(keys) == limit {
			return keys, true, nil
		}
		keys = append(keys, k)
	}
	return keys, false, rows.Err()
}

func scanKey(row interface{ Scan(...any) error }) (FileKey, error) {
	var k FileKey
	err := row.Scan(&k.ID, &k.Path, &k.Extension, &k.Filename, &k.Size, &k.Modified, &k.Hash, &k.Lang)
	return k, err
}

// Matches says which files a listing wants: those whose text or card hold
// any of Any and match nothing of Exclude (an empty one excludes nothing)
// and that Keep accepts (nil accepts all). CountOnly asks for
// keys that hold the ID, Extension, Size, Hash and Lang alone (a page in
// relevance order counts and groups the matches it does not show: a
// quarter less time on 15,000 matches); it is ignored when Keep is set, as
// Keep may read any field.
type Matches struct {
	Any       []Phrase
	Exclude   Expr
	Keep      func(FileKey) bool
	CountOnly bool
}

// MatchingKeys returns the indexed files passing f that m wants, in id
// order, up to limit; more reports that more than limit are wanted. The
// ids matching Any, and those matching Exclude, are each gathered in one
// pass over the tables' posting lists (counted, not scored); the files are
// then walked in id order and looked up by rowid until limit+1 pass Keep.
// So the listing is the same whatever plan SQLite picks, and exclusions
// and Keep cut before the limit, not after it (which would undercount).
// A file-by-file exclusion test (NOT EXISTS ... MATCH ... rowid = f.id)
// would parse and seek the expression once per file: hundreds of times
// slower for a common or prefix word.
func (s *Store) MatchingKeys(ctx context.Context, m Matches, f FileFilter, limit int) (keys []FileKey, more bool, err error) {
	if m.CountOnly && m.Keep == nil && f.Empty() {
		if c := s.currentKeys(ctx); c != nil {
			return s.matchingCounted(ctx, m, c, limit)
		}
	}
	return s.matchingRows(ctx, m, f, limit)
}

// matchingRows is MatchingKeys reading each matching file's row.
func (s *Store) matchingRows(ctx context.Context, m Matches, f FileFilter, limit int) (keys []FileKey, more bool, err error) {
	cond, fargs := f.where("f")
	args := append([]any{Any(m.Any...).fts5()}, fargs...)
	// NOT INDEXED: walk the matches and look each file up by rowid, which
	// yields id order for free; an index on state would walk every file.
	narrow := m.CountOnly && m.Keep == nil
	cols := fileKeyColumns
	if narrow {
		cols = countKeyColumns
	}
	q := `SELECT ` + cols + ` FROM files f NOT INDEXED WHERE f.id IN (
		SELECT rowid FROM fts_content WHERE fts_content MATCH ?1
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?1) AND ` + renumber(cond, 2)
	if !m.Exclude.Empty() {
		args = append(args, m.Exclude.fts5())
		n := len(args)
		q += fmt.Sprintf(` AND f.id NOT IN (
		SELECT rowid FROM fts_content WHERE fts_content MATCH ?%d
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?%d)`, n, n)
	}
	q += ` ORDER BY f.id`
	rows, err := s.rdb().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, false, fmt.Errorf("matching files: %w", err)
	}
	defer rows.Close()
	return scanKeys(rows, narrow, m.Keep, limit)
}

// renumber gives the filter's anonymous parameters numbers from first on,
// so they can follow a numbered one.
func renumber(cond string, first int) string {
	var b strings.Builder
	for _, r := range cond {
		if r == '?' {
			fmt.Fprintf(&b, "?%d", first)
			first++
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// KeysOf returns the keys of the given files that are indexed and pass f.
func (s *Store) KeysOf(ctx context.Context, ids []int64, f FileFilter) (map[int64]FileKey, error) {
	out := make(map[int64]FileKey, len(ids))
	if f.Empty() {
		placed, err := s.placedFiles(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("file keys: %w", err)
		}
		for id, pf := range placed {
			out[id] = pf.key
		}
		return out, nil
	}
	cond, args := f.where("f")
	// NOT INDEXED: look each id up by rowid; the planner would otherwise
	// walk an index on state across the whole table for every batch.
	err := queryIn(ctx, s.rdb(), `SELECT `+fileKeyColumns+` FROM files f NOT INDEXED WHERE `+cond+` AND f.id IN {list}`, args, ids,
		func(rows *sql.Rows) error {
			k, err := scanKey(rows)
			if err == nil {
				out[k.ID] = k
			}
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("file keys: %w", err)
	}
	return out, nil
}

// BrowseKeys lists the keys of every indexed file passing f, newest first
// (ties by id, so the same files make the cut each time), up to limit (a
// query of filters only).
func (s *Store) BrowseKeys(ctx context.Context, f FileFilter, limit int) ([]FileKey, bool, error) {
	cond, args := f.where("f")
	q := `SELECT ` + fileKeyColumns + ` FROM files f WHERE ` + cond + ` ORDER BY f.modified_ns DESC, f.id`
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit+1)
	}
	rows, err := s.rdb().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, false, fmt.Errorf("browse: %w", err)
	}
	defer rows.Close()
	return scanKeys(rows, false, nil, limit)
}

// WholeText is a file's stored text: its passages in order, a blank line
// between them, with the pages they were read from.
type WholeText struct {
	Text  string
	Pages core.Pages // nil: none known
	Cut   bool       // the text goes on past what was read
}

// FileText returns an indexed file's stored text up to about maxBytes.
func (s *Store) FileText(ctx context.Context, id int64, maxBytes int) (WholeText, error) {
	var out WholeText
	rows, err := s.rdb().QueryContext(ctx, `SELECT text, pages FROM chunks WHERE file_id = ? ORDER BY ord`, id)
	if err != nil {
		return out, fmt.Errorf("file text: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var t string
		var pages sql.NullString
		if err := rows.Scan(&t, &pages); err != nil {
			return out, err
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		pp := core.ParsePages(pages.String)
		if len(pp) == 0 && len(out.Pages) > 0 {
			pp = core.Pages{{At: 0, Page: 0}} // unknown, not the page before
		}
		for _, p := range pp {
			out.Pages = out.Pages.Add(b.Len()+p.At, p.Page)
		}
		if b.Len()+len(t) > maxBytes {
			b.WriteString(strings.ToValidUTF8(t[:max(maxBytes-b.Len(), 0)], ""))
			out.Text, out.Cut = b.String(), true
			return out, rows.Err()
		}
		b.WriteString(t)
	}
	out.Text = b.String()
	return out, rows.Err()
}
