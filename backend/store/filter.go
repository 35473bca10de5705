package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"trove/backend/core"
)

// FileFilter restricts a search to files by place, type, time and size.
// Zero fields do not restrict.
type FileFilter struct {
	Scope          string   // only below this folder (whole components)
	Under          []string // only below one of these folders
	Folders        []string // only files with a folder of one of these names in their path
	Exts           []string // lower case, with the dot
	Langs          []string // languages of the text (ISO 639-1 codes)
	ModifiedAfter  int64    // Unix ns, inclusive
	ModifiedBefore int64    // Unix ns, exclusive
	CreatedAfter   int64
	CreatedBefore  int64
	MinSize        int64
	MaxSize        int64    // 0: no maximum
	NameLike       string   // an SQLite GLOB pattern the file name matches
	PathLike       string   // an SQLite GLOB pattern the path matches
	Holds          []Near   // labelled values the text holds, every one (metadata: "author: Jane Doe")
	Titled         []string // words the title holds, every one (case-insensitive for ASCII)
	PathHas        []string // text the path holds, every one (case-insensitive for ASCII)
	// AfterID and ThroughID bound the files' ids (0: no bound): the files
	// added to the index between two moments (ids are never reused).
	AfterID, ThroughID int64
}

// Empty reports whether the filter restricts nothing.
func (f FileFilter) Empty() bool {
	return f.Scope == "" && len(f.Under) == 0 && len(f.Folders) == 0 && len(f.Exts) == 0 && len(f.Langs) == 0 && f.ModifiedAfter == 0 &&
		f.ModifiedBefore == 0 && f.CreatedAfter == 0 && f.CreatedBefore == 0 && f.MinSize == 0 && f.MaxSize == 0 &&
		f.NameLike == "" && f.PathLike == "" && len(f.Holds) == 0 && len(f.Titled) == 0 && len(f.PathHas) == 0 &&
		f.AfterID == 0 && f.ThroughID == 0
}

// where renders the filter as SQL conditions on the files table aliased a.
func (f FileFilter) where(a string) (string, []any) {
	conds := []string{a + "." + searchable}
	var args []any
	under := func(dir string) string {
		dir = strings.TrimSuffix(dir, "/")
		args = append(args, dir+"/", dir+"0") // '0' sorts right after '/'
		return "(" + a + ".path >= ? AND " + a + ".path < ?)"
	}
	if f.Scope != "" {
		conds = append(conds, under(f.Scope))
	}
	anyOf := func(parts []string) {
		if len(parts) > 0 {
			conds = append(conds, "("+strings.Join(parts, " OR ")+")")
		}
	}
	var parts []string
	for _, d := range f.Under {
		parts = append(parts, under(d))
	}
	anyOf(parts)
	parts = nil
	for _, name := range f.Folders {
		parts = append(parts, a+`.path LIKE ? ESCAPE '\'`)
		args = append(args, "%/"+likeEscape(name)+"/%")
	}
	anyOf(parts)
	if len(f.Exts) > 0 {
		conds = append(conds, a+".extension IN (?"+strings.Repeat(", ?", len(f.Exts)-1)+")")
		for _, e := range f.Exts {
			args = append(args, e)
		}
	}
	if len(f.Langs) > 0 {
		conds = append(conds, a+".lang IN (?"+strings.Repeat(", ?", len(f.Langs)-1)+")")
		for _, l := range f.Langs {
			args = append(args, l)
		}
	}
	for _, c := range []struct {
		col, op string
		v       int64
	}{
		{"modified_ns", ">=", f.ModifiedAfter}, {"modified_ns", "<", f.ModifiedBefore},
		{"created_ns", ">=", f.CreatedAfter}, {"created_ns", "<", f.CreatedBefore},
		{"size", ">=", f.MinSize}, {"size", "<=", f.MaxSize},
		{"id", ">", f.AfterID}, {"id", "<=", f.ThroughID},
	} {
		if c.v != 0 {
			conds = append(conds, fmt.Sprintf("%s.%s %s ?", a, c.col, c.op))
			args = append(args, c.v)
		}
	}
	if f.NameLike != "" {
		conds = append(conds, a+".filename GLOB ?")
		args = append(args, f.NameLike)
	}
	if f.PathLike != "" {
		conds = append(conds, a+".path GLOB ?")
		args = append(args, f.PathLike)
	}
	if len(f.Holds) > 0 {
		// FTS5 gathers the matching rows once; IN then looks each up.
		parts := make([]string, len(f.Holds))
		for i, n := range f.Holds {
			parts[i] = n.fts5()
		}
		conds = append(conds, a+".id IN (SELECT rowid FROM fts_content WHERE fts_content MATCH ?)")
		args = append(args, strings.Join(parts, " AND "))
	}
	for _, c := range []struct {
		col  string
		list []string
	}{{"title", f.Titled}, {"path", f.PathHas}} {
		for _, t := range c.list {
			conds = append(conds, a+"."+c.col+` LIKE ? ESCAPE '\'`)
			args = append(args, "%"+likeEscape(t)+"%")
		}
	}
	return strings.Join(conds, " AND "), args
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Browse lists indexed files passing the filter and keep, most recently
// modified first, up to limit (a query of filters only).
func (s *Store) Browse(ctx context.Context, f FileFilter, limit int, keep func(core.File) bool) ([]core.File, error) {
	cond, args := f.where("files")
	rows, err := s.rdb().QueryContext(ctx, `SELECT `+fileColumns+` FROM files WHERE `+cond+` ORDER BY modified_ns DESC, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("browse: %w", err)
	}
	defer rows.Close()
	var out []core.File
	for len(out) < limit && rows.Next() {
		file, err := scanFile(rows)
		if err != nil {
			return nil, err
		}
		if keep == nil || keep(file) {
			out = append(out, file)
		}
	}
	return out, rows.Err()
}

// Allowed returns which of the given files pass the filter.
func (s *Store) Allowed(ctx context.Context, ids []int64, f FileFilter) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	cond, args := f.where("f")
	// NOT INDEXED: as in KeysOf.
	err := queryIn(ctx, s.rdb(), `SELECT f.id FROM files f NOT INDEXED WHERE `+cond+` AND f.id IN {list}`, args, ids,
		func(rows *sql.Rows) error {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out[id] = true
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("filter files: %w", err)
	}
	return out, nil
}
