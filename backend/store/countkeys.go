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

// countKey is a FileKey's ID, Extension, Size, Hash and Lang (half its
// size).
type countKey struct {
	id        int64
	size      int64
	extension string // interned: a few hundred kinds for 100,000 files
	hash      string
	lang      string // interned: a few languages
}

func (k countKey) fileKey() FileKey {
	return FileKey{ID: k.id, Extension: k.extension, Size: k.size, Hash: k.hash, Lang: k.lang}
}

// keyFrom finds a file's count key at or after index from of the keys,
// and returns where the search for a greater id may start: a gallop, so a
// walk over ascending ids costs the lesser of a merge and binary searches.
func (c *countKeys) keyFrom(from int, id int64) (FileKey, int, bool) {
	hi, step := from, 1
	for hi < len(c.keys) && c.keys[hi].id < id {
		from = hi + 1
		hi += step
		step *= 2
	}
	hi = min(hi+1, len(c.keys))
	i, ok := slices.BinarySearchFunc(c.keys[from:hi], id, func(k countKey, id int64) int { return cmp.Compare(k.id, id) })
	i += from
	if !ok {
		return FileKey{}, i, false
	}
	return c.keys[i].fileKey(), i, true
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
	rows, err := tx.QueryContext(ctx, `SELECT `+countKeyColumns+` FROM files f WHERE f.`+searchable+` ORDER BY f.id`)
	if err != nil {
		return nil, fmt.Errorf("count keys: %w", err)
	}
	defer rows.Close()
	interned := map[string]string{}
	intern := func(s *string) {
		if v, ok := interned[*s]; ok {
			*s = v
		} else {
			interned[*s] = *s
		}
	}
	for rows.Next() {
		var k countKey
		if err := rows.Scan(&k.id, &k.extension, &k.size, &k.hash, &k.lang); err != nil {
			return nil, err
		}
		intern(&k.extension)
		intern(&k.lang)
		c.keys = append(c.keys, k)
	}
	return c, rows.Err()
}

// matchingCounted is MatchingKeys for counting without a filter, from the
// copy: the matching ids (matchingIDs), each key from c, and the keys of
// files indexed since the copy (a write committed between the version
// check and this read) from their rows.
func (s *Store) matchingCounted(ctx context.Context, m Matches, c *countKeys, limit int) ([]FileKey, bool, error) {
	// The first limit+1 ids of each list hold the first limit+1 of their
	// union; after exclusions they may not, so then all are read, as they
	// are when ids without a file (full-text rows a write is replacing)
	// leave too few.
	n := limit + 1
	if limit <= 0 || !m.Exclude.Empty() {
		n = 0
	}
	for {
		ids, err := s.unitedIDs(ctx, c.p, m.Any, n)
		if err != nil {
			return nil, false, err
		}
		if !m.Exclude.Empty() {
			ex, err := s.matchingIDs(ctx, c.p, m.Exclude.fts5(), 0)
			if err != nil {
				return nil, false, err
			}
			ids = minus(ids, ex)
		}
		keys, err := s.countedKeys(ctx, c, ids, limit)
		if err != nil {
			return nil, false, err
		}
		if limit > 0 && len(keys) > limit {
			return keys[:limit], true, nil
		}
		if n == 0 || len(ids) < n {
			return keys, false, nil
		}
		n = 0
	}
}

// countedKeys returns the keys of the files ids (ascending) up to the
// first limit+1 (limit <= 0: all), from c or, for files indexed since c
// was read, from their rows; ids of no indexed file are left out.
func (s *Store) countedKeys(ctx context.Context, c *countKeys, ids []int64, limit int) ([]FileKey, error) {
	var keys []FileKey
	var unknown []int64
	at := 0
	for _, id := range ids {
		if limit > 0 && len(keys) > limit {
			break
		}
		k, i, ok := c.keyFrom(at, id)
		at = i
		if ok {
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
			keys = append(keys, FileKey{ID: k.ID, Extension: k.Extension, Size: k.Size, Hash: k.Hash, Lang: k.Lang})
		}
	}
	slices.SortFunc(keys, func(a, b FileKey) int { return cmp.Compare(a.ID, b.ID) })
	return keys, nil
}
