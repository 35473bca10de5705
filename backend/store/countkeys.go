package store

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"trove/backend/core"
)

// A search page counts every file its words match (up to 20,000) by type
// and content, and reading those files' rows was most of a common-word
// search's time: 55 ms for the 15,000 files "file descriptor leak" matches
// among 20,000, 130 ms for 19,000 among 100,000 (20 and 25 ms from the
// copy below). So the count keys of every indexed file (id, extension,
// size, content hash; about 120 bytes a file) are kept in memory, and a
// listing for counting reads only the matching ids from the full-text
// tables and finds their keys here. The copy serves while the files
// table's version (kept by triggers, migration 0007) is the one it was
// read with; after a change, listings read the rows as before until a
// fresh copy has been read in the background, at most one read per
// keyReadEvery, so an index that changes all the time (a first scan) is
// not read over and over.

// keyReadEvery spaces the background reads of the count keys.
const keyReadEvery = 2 * time.Second

// countKeys is the count key of every indexed file, in id order, as of
// one version of the files table of one pair of pools.
type countKeys struct {
	p       *pools
	version int64
	keys    []countKey
}

// countKey is a FileKey's ID, Extension, Size and Hash (half its size).
type countKey struct {
	id        int64
	size      int64
	extension string // interned: a few hundred kinds for 100,000 files
	hash      string
}

// key finds a file's count key.
func (c *countKeys) key(id int64) (FileKey, bool) {
	i, ok := slices.BinarySearchFunc(c.keys, id, func(k countKey, id int64) int { return cmp.Compare(k.id, id) })
	if !ok {
		return FileKey{}, false
	}
	k := c.keys[i]
	return FileKey{ID: k.id, Extension: k.extension, Size: k.size, Hash: k.hash}, true
}

// keyCache holds the current copy and the state of its reading.
type keyCache struct {
	mu       sync.Mutex
	cur      *countKeys
	reading  bool
	lastRead time.Time
}

// currentKeys returns the copy when it is that of the files table now;
// otherwise nil, and it starts reading a fresh copy unless one was read
// less than keyReadEvery ago.
func (s *Store) currentKeys(ctx context.Context) *countKeys {
	p := s.db.Load()
	var v int64
	if err := p.r.QueryRowContext(ctx, `SELECT n FROM files_version`).Scan(&v); err != nil {
		return nil
	}
	kc := &s.keys
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if c := kc.cur; c != nil && c.p == p && c.version == v {
		return c
	}
	if !kc.reading && time.Since(kc.lastRead) >= keyReadEvery {
		kc.reading, kc.lastRead = true, time.Now()
		go s.readKeys(p)
	}
	return nil
}

// readKeys reads a fresh copy of the count keys in the background.
// A failed read leaves the copy as it was: listings read the rows until
// a later read succeeds.
func (s *Store) readKeys(p *pools) {
	var c *countKeys
	var err error
	if perr := core.Safe(func() { c, err = readCountKeys(context.Background(), p) }); perr != nil {
		err = perr
	}
	kc := &s.keys
	kc.mu.Lock()
	defer kc.mu.Unlock()
	kc.reading = false
	if err == nil {
		kc.cur = c
	}
}

// readCountKeys reads every indexed file's count key and the version they
// are of, in one read transaction (one snapshot of the index).
func readCountKeys(ctx context.Context, p *pools) (*countKeys, error) {
	tx, err := p.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	c := &countKeys{p: p}
	if err := tx.QueryRowContext(ctx, `SELECT n FROM files_version`).Scan(&c.version); err != nil {
		return nil, fmt.Errorf("files version: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+countKeyColumns+` FROM files f WHERE f.state = 'indexed' ORDER BY f.id`)
	if err != nil {
		return nil, fmt.Errorf("count keys: %w", err)
	}
	defer rows.Close()
	exts := map[string]string{}
	for rows.Next() {
		var k countKey
		if err := rows.Scan(&k.id, &k.extension, &k.size, &k.hash); err != nil {
			return nil, err
		}
		if e, ok := exts[k.extension]; ok {
			k.extension = e
		} else {
			exts[k.extension] = k.extension
		}
		c.keys = append(c.keys, k)
	}
	return c, rows.Err()
}

// matchingCounted is MatchingKeys for counting without a filter, from the
// copy: the ids from the full-text tables, each key from c, and the keys
// of files indexed since the copy (a write committed between the version
// check and this read) from their rows.
func (s *Store) matchingCounted(ctx context.Context, m Matches, c *countKeys, limit int) ([]FileKey, bool, error) {
	if m.Exclude == "" {
		if keys, more, ok, err := s.matchingMerged(ctx, m, c, limit); err != nil || ok {
			return keys, more, err
		}
	}
	q := `SELECT rowid AS id FROM fts_content WHERE fts_content MATCH ?1
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?1`
	args := []any{m.Expr}
	if m.Exclude != "" {
		q = `SELECT id FROM (` + q + `) WHERE id NOT IN (
		SELECT rowid FROM fts_content WHERE fts_content MATCH ?2
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?2)`
		args = append(args, m.Exclude)
	}
	rows, err := c.p.r.QueryContext(ctx, q+` ORDER BY 1`, args...)
	if err != nil {
		return nil, false, fmt.Errorf("matching files: %w", err)
	}
	defer rows.Close()
	var ids []int64
	known := 0
	// Ids come in order, so reading stops once more than limit are known.
	for (limit <= 0 || known <= limit) && rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, false, err
		}
		ids = append(ids, id)
		if _, ok := c.key(id); ok {
			known++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	keys, err := s.countedKeys(ctx, c, ids)
	if err != nil {
		return nil, false, err
	}
	if limit > 0 && len(keys) > limit {
		return keys[:limit], true, nil
	}
	return keys, false, nil
}

// matchingMerged is matchingCounted without exclusions. It reads each
// full-text table's ids in rowid order, which FTS5 yields without sorting,
// at most limit+1 of each, and merges them; SQLite's UNION would first
// sort every match of both tables in a temporary table (74,000 for "file
// descriptor leak" among 100,000 files: 50 ms, where this reads 20,001 and
// 19,000 in about 15). ok is false when the merge cannot tell the first
// limit files (a table held more than limit matches and too few of the
// merged ids are files); the caller then asks SQLite.
func (s *Store) matchingMerged(ctx context.Context, m Matches, c *countKeys, limit int) (keys []FileKey, more, ok bool, err error) {
	lists := [2][]int64{}
	bound := int64(math.MaxInt64) // the merged ids up to it are all the matches up to it
	for i, table := range []string{"fts_content", "fts_files"} {
		// FTS5 yields rowid order itself: this ORDER BY sorts nothing.
		q := `SELECT rowid FROM ` + table + ` WHERE ` + table + ` MATCH ? ORDER BY rowid`
		args := []any{m.Expr}
		if limit > 0 {
			q += ` LIMIT ?`
			args = append(args, limit+1)
		}
		if lists[i], err = queryList[int64](ctx, c.p.r, q, args...); err != nil {
			return nil, false, false, fmt.Errorf("matching files: %w", err)
		}
		if n := len(lists[i]); limit > 0 && n > limit {
			bound = min(bound, lists[i][n-1])
		}
	}
	ids := unionSorted(lists[0], lists[1], bound)
	keys, err = s.countedKeys(ctx, c, ids)
	switch {
	case err != nil:
		return nil, false, false, err
	case limit > 0 && len(keys) > limit:
		return keys[:limit], true, true, nil
	case bound != math.MaxInt64:
		return nil, false, false, nil
	}
	return keys, false, true, nil
}

// unionSorted merges two ascending lists of ids into one without repeats,
// up to bound.
func unionSorted(a, b []int64, bound int64) []int64 {
	out := make([]int64, 0, max(len(a), len(b)))
	for len(a) > 0 || len(b) > 0 {
		var id int64
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			id, a = a[0], a[1:]
		case len(a) == 0 || b[0] < a[0]:
			id, b = b[0], b[1:]
		default:
			id, a, b = a[0], a[1:], b[1:]
		}
		if id > bound {
			break
		}
		out = append(out, id)
	}
	return out
}

// countedKeys returns the keys of the given files, in id order: from the
// copy, and those it lacks (files indexed since) from their rows; files
// no longer indexed are left out.
func (s *Store) countedKeys(ctx context.Context, c *countKeys, ids []int64) ([]FileKey, error) {
	keys := make([]FileKey, 0, len(ids))
	var unknown []int64
	for _, id := range ids {
		if k, ok := c.key(id); ok {
			keys = append(keys, k)
		} else {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return keys, nil
	}
	found, err := s.KeysOf(ctx, unknown, FileFilter{})
	if err != nil {
		return nil, err
	}
	for _, id := range unknown {
		if k, ok := found[id]; ok {
			keys = append(keys, FileKey{ID: k.ID, Extension: k.Extension, Size: k.Size, Hash: k.Hash})
		}
	}
	slices.SortFunc(keys, func(a, b FileKey) int { return cmp.Compare(a.ID, b.ID) })
	return keys, nil
}
