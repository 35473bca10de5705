package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// A search page counts every file its words match, so a common word's
// posting lists were walked in both full-text tables on every search,
// though ranking needs a few hundred of its files: for "file", in three
// files of four, 4 ms of 15 at 20,000 files and 20 ms of 80 at 100,000,
// half of it handing ids to Go. As Lucene's query cache keeps the
// matches of costly clauses, the ids each expression of a listing matches
// are kept while the full-text tables are unchanged (the store counts its
// committed writes), so a query typed again, a word typed on in search as
// you type, or a new query sharing a word, unites lists in memory.
//
// Only the ids a listing can use are kept: the union of the first n ids
// of each list holds the first n ids of the union, so a count that stops
// at 20,000 keeps at most 20,001 ids a word.

// maxCachedIDs bounds the ids the cache holds (8 MB).
const maxCachedIDs = 1 << 20

// matchCache holds id lists of one state of the index.
type matchCache struct {
	mu    sync.Mutex
	st    state
	lists map[string]*idList // by expression
	held  int                // ids in lists
	clock uint64
}

// idList is the first ids, ascending, of the files whose text or card
// match an expression; all when complete.
type idList struct {
	ids      []int64
	complete bool
	used     uint64
}

// covers reports whether the list holds the first n ids (n <= 0: all).
func (l *idList) covers(n int) bool {
	return l.complete || n > 0 && len(l.ids) >= n
}

// get returns the cached list of expr for state st if it holds the first
// n ids.
func (c *matchCache) get(st state, expr string, n int) ([]int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st {
		return nil, false
	}
	l, ok := c.lists[expr]
	if !ok || !l.covers(n) {
		return nil, false
	}
	c.clock++
	l.used = c.clock
	return l.ids, true
}

// put keeps a list read in state st, forgetting those of other states
// and, beyond maxCachedIDs, the least recently used.
func (c *matchCache) put(st state, expr string, l *idList) {
	if len(l.ids) > maxCachedIDs/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st || c.lists == nil {
		c.st, c.lists, c.held = st, map[string]*idList{}, 0
	}
	if old, ok := c.lists[expr]; ok {
		c.held -= len(old.ids)
	}
	c.clock++
	l.used = c.clock
	c.lists[expr] = l
	c.held += len(l.ids)
	for c.held > maxCachedIDs {
		var lru string
		for k, v := range c.lists {
			if lru == "" || v.used < c.lists[lru].used {
				lru = k
			}
		}
		c.held -= len(c.lists[lru].ids)
		delete(c.lists, lru)
	}
}

// clear forgets every list.
func (c *matchCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lists, c.held = nil, 0
}

// matchingIDs returns the first n ids (n <= 0: all), ascending, of the
// files whose text or card match expr, from the cache or the full-text
// tables of p.
func (s *Store) matchingIDs(ctx context.Context, p *pools, expr string, n int) ([]int64, error) {
	st := state{p, s.writes.Load()}
	if ids, ok := s.matches.get(st, expr, n); ok {
		return ids, nil
	}
	q := `SELECT rowid AS id FROM fts_content WHERE fts_content MATCH ?1
		UNION SELECT rowid FROM fts_files WHERE fts_files MATCH ?1 ORDER BY 1`
	args := []any{expr}
	if n > 0 {
		q += ` LIMIT ?2`
		args = append(args, n)
	}
	ids, err := queryList[int64](ctx, p.r, q, args...)
	if err != nil {
		return nil, fmt.Errorf("matching files: %w", err)
	}
	// A write committed during the read may or may not be in it: such a
	// list serves this search only.
	if s.writes.Load() == st.writes {
		s.matches.put(st, expr, &idList{ids: ids, complete: n <= 0 || len(ids) < n})
	}
	return ids, nil
}

// unitedIDs returns the first n ids (n <= 0: all), ascending, of the files
// holding any of phrases. The result may be a kept list: read only.
func (s *Store) unitedIDs(ctx context.Context, p *pools, phrases []Phrase, n int) ([]int64, error) {
	var out []int64
	for _, ph := range phrases {
		ids, err := s.matchingIDs(ctx, p, ph.fts5(), n)
		if err != nil {
			return nil, err
		}
		out = union(out, ids)
	}
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// union merges two ascending id lists, each id once.
func union(a, b []int64) []int64 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]int64, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// minus returns the ids of a (ascending) not in b (ascending).
func minus(a, b []int64) []int64 {
	out := make([]int64, 0, len(a))
	j := 0
	for _, id := range a {
		for j < len(b) && b[j] < id {
			j++
		}
		if j < len(b) && b[j] == id {
			continue
		}
		out = append(out, id)
	}
	return slices.Clip(out)
}
