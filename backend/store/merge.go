package store

import (
	"context"
	"fmt"
)

// Each write transaction adds a segment to every full-text table it
// touches, and FTS5 merges segments as they pile up (automerge 8: up to
// seven a level), which keeps writing cheap but leaves an index built in
// thousands of commits in a dozen or more segments; a search reads each
// of them for every word. Merging them into one while the index is idle
// makes the searches that read long posting lists faster. It rewrites
// the tables, so it goes a bounded step at a time, each its own write
// transaction: other writes and the end of the process can come between
// steps, and FTS5 keeps the merge's progress in the index itself.

// fullTextTables are the full-text tables, in the order they are merged.
var fullTextTables = [...]string{"fts_content", "fts_files", "fts_names"}

// MergeStep writes up to about pages pages of merged segments, to the
// first full-text table that has more than one segment; it reports
// whether there was anything to merge. Called until it reports false,
// it leaves every table in one segment.
func (s *Store) MergeStep(ctx context.Context, pages int) (bool, error) {
	conn, err := s.wdb().Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	for _, t := range fullTextTables {
		// total_changes() moves by two or more when the merge wrote
		// anything (sqlite.org/fts5.html, the 'merge' command); a
		// negative page count merges segments of every level.
		var before, after int64
		if err := conn.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
			return false, err
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`, rank) VALUES('merge', ?)`, -max(pages, 1)); err != nil {
			return false, fmt.Errorf("merge %s: %w", t, err)
		}
		if err := conn.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
			return false, err
		}
		if after-before >= 2 {
			return true, nil
		}
	}
	return false, nil
}

// CountIndexed counts the files search finds (by content or by name).
func (s *Store) CountIndexed(ctx context.Context) (int64, error) {
	var n int64
	err := s.rdb().QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE `+searchable).Scan(&n)
	return n, err
}
