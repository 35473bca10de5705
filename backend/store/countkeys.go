package store

import (
	"cmp"
	"context"
	"fmt"
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
// fresh copy has been read in the background. A read starts only when a
// search finds the version the previous search found, and at most once
// per keyReadEvery: while an index changes all the time (a first scan),
// every copy would be stale before it was used (a read costs about 25 ms
// of CPU at 20,000 files and 150 ms at 100,000).

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
	seen     int64 // the version the previous search found
}

// currentKeys returns the copy when it is that of the files table now;
// otherwise nil, and it starts reading a fresh copy when the version is
// the one the previous call found, unless a copy was read less than
// keyReadEvery ago.
func (s *Store) currentKeys(ctx context.Context) *countKeys {
	p := s.db.Load()
	var v int64
	if err := p.r.QueryRowContext(ctx, `SELECT n FROM files_version`).Scan(&v); err != nil {
		return nil
	}
	kc := &s.keys
	kc.mu.Lock()
	defer kc.mu.Unlock()
	still := v == kc.seen
	kc.seen = v
	if c := kc.cur; c != nil && c.p == p && c.version == v {
		return c
	}
	if still && !kc.reading && time.Since(kc.lastRead) >= keyReadEvery {
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
	var keys []FileKey
	var unknown []int64
	// Ids come in order, so reading stops once more than limit are known.
	for (limit <= 0 || len(keys) <= limit) && rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, false, err
		}
		if k, ok := c.key(id); ok {
			keys = append(keys, k)
		} else {
			unknown = append(unknown, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(unknown) > 0 {
		found, err := s.KeysOf(ctx, unknown, FileFilter{})
		if err != nil {
			return nil, false, err
		}
		for _, id := range unknown {
			if k, ok := found[id]; ok {
				keys = append(keys, FileKey{ID: k.ID, Extension: k.Extension, Size: k.Size, Hash: k.Hash})
			}
		}
		slices.SortFunc(keys, func(a, b FileKey) int { return cmp.Compare(a.ID, b.ID) })
	}
	if limit > 0 && len(keys) > limit {
		return keys[:limit], true, nil
	}
	return keys, false, nil
}
