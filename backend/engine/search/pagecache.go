package search

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"trove/backend/store"
)

// Pages of results are kept for reuse while the index and the vectors
// stay as they were: a person types, deletes and types the same words
// again, a window and the tray ask the same search, a script repeats its
// query, and sixteen clients asking twenty queries would otherwise run
// the same ranking, listing, grouping and snippets over and over (about
// 10 ms of CPU each on a 20,000 file index). The same search asked while
// one runs waits for that one instead of running again.
//
// A kept page serves only requests that are the same in every field,
// under the same tuning, on the same index state (store.Version: any
// committed write makes a new one) and vector generation, for at most
// pageTTL: a relative date in a query ("modified:>-7d") is read against
// the time it was first asked.

// pageTTL is how long a kept page serves.
const pageTTL = 30 * time.Second

// maxKeptPages bounds the pages kept (a page of 50 results with snippets
// is about 100 KB).
const maxKeptPages = 64

// versioned is an index that names its states; an index that does not
// (the tests' fakes) has its pages computed every time.
type versioned interface {
	Version() store.Version
}

type pageKey struct {
	request string // the request, encoded
	index   store.Version
	vectors uint64
}

type keptPage struct {
	page Page
	at   time.Time
}

// pageCache keeps pages by key, the oldest leaving first once full.
type pageCache struct {
	mu     sync.Mutex
	pages  map[pageKey]keptPage
	order  []pageKey // oldest first
	flying map[pageKey]*flight
	now    func() time.Time // nil: time.Now
}

func (c *pageCache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

func (c *pageCache) get(k pageKey) (Page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, ok := c.pages[k]
	if !ok || c.clock().Sub(kept.at) > pageTTL {
		return Page{}, false
	}
	return kept.page, true
}

func (c *pageCache) put(k pageKey, p Page, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[pageKey]keptPage{}
	}
	if _, ok := c.pages[k]; !ok {
		c.order = append(c.order, k)
	}
	c.pages[k] = keptPage{p, at}
	for len(c.order) > maxKeptPages {
		delete(c.pages, c.order[0])
		c.order = c.order[1:]
	}
}

// keyOf is the key of a request on the index's state now, or false when
// the index names no states.
func (e *Engine) keyOf(pr PageRequest) (pageKey, bool) {
	v, ok := e.Store.(versioned)
	if !ok {
		return pageKey{}, false
	}
	// The request's exported fields (those start fills are derived from
	// them), and the tuning, which measurements change between searches.
	enc, err := json.Marshal(struct {
		R PageRequest
		T Tuning
	}{pr, e.tuning()})
	if err != nil {
		return pageKey{}, false
	}
	return pageKey{request: string(enc), index: v.Version(), vectors: e.Vectors.Generation()}, true
}

// keptSearchPage is searchPage through the kept pages. The key is taken
// before the search runs, so a page is never kept under a state newer
// than the one it read.
func (e *Engine) keptSearchPage(ctx context.Context, pr PageRequest, run func(context.Context) (Page, error)) (Page, error) {
	k, ok := e.keyOf(pr)
	if !ok {
		return run(ctx)
	}
	if p, ok := e.pages.get(k); ok {
		return copyPage(p), nil
	}
	f, leader := e.pages.join(k)
	if !leader {
		select {
		case <-f.done:
		case <-ctx.Done():
			return Page{}, ctx.Err()
		}
		if f.err == nil {
			return copyPage(f.page), nil
		}
		// The search this one waited for failed, or was given up by its
		// own caller: this caller still wants an answer.
		return run(ctx)
	}
	at := e.pages.clock()
	defer e.pages.land(k, f, at)
	f.page, f.err = run(ctx)
	return copyPage(f.page), f.err
}

// flight is a search running, that others asking the same may wait for.
type flight struct {
	done chan struct{} // closed when page and err are set
	page Page
	err  error
}

// errPanicked is a flight's error until its search returns: a search that
// panicked leaves it for those waiting.
var errPanicked = errors.New("the search failed")

// join returns the flight of k, and whether the caller leads it (runs the
// search, then lands it).
func (c *pageCache) join(k pageKey) (*flight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.flying[k]; ok {
		return f, false
	}
	if c.flying == nil {
		c.flying = map[pageKey]*flight{}
	}
	f := &flight{done: make(chan struct{}), err: errPanicked}
	c.flying[k] = f
	return f, true
}

// land ends a flight: its page is kept when it succeeded, and those
// waiting are let go.
func (c *pageCache) land(k pageKey, f *flight, at time.Time) {
	if f.err == nil {
		c.put(k, f.page, at)
	}
	c.mu.Lock()
	delete(c.flying, k)
	c.mu.Unlock()
	close(f.done)
}

// copyPage gives a caller results of its own: callers mark files (offline,
// say) on the results they get.
func copyPage(p Page) Page {
	p.Results = slices.Clone(p.Results)
	for i := range p.Results {
		p.Results[i].Copies = slices.Clone(p.Results[i].Copies)
	}
	return p
}
