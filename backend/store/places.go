package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
)

// Place is where a file is: its name and the folders between its watched
// folder and it.
type Place struct {
	Path     string
	Filename string
	Folders  string // slash-separated, "" for a file at the top of its watched folder
}

// Places returns the place of each given indexed file. Ranking places a
// few hundred files a search, many of them the same from one search to the
// next, and a lookup of each cost as much as the rest of completing their
// evidence; so places are kept while the index is unchanged.
func (s *Store) Places(ctx context.Context, ids []int64) (map[int64]Place, error) {
	out := make(map[int64]Place, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	p, gen := s.db.Load(), s.writes.Load()
	ids = s.places.get(p, gen, ids, out)
	if len(ids) == 0 {
		return out, nil
	}
	read, err := readPlaces(ctx, p, ids)
	if err != nil {
		return nil, err
	}
	// A write committed during the read may or may not be in it.
	if s.writes.Load() == gen {
		s.places.put(p, gen, read)
	}
	for id, pl := range read {
		out[id] = pl
	}
	return out, nil
}

// readPlaces reads the places of the given indexed files.
func readPlaces(ctx context.Context, p *pools, ids []int64) (map[int64]Place, error) {
	out := make(map[int64]Place, len(ids))
	roots := map[int64]string{}
	dirs, err := p.r.QueryContext(ctx, `SELECT id, path FROM watched_directories`)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	for dirs.Next() {
		var id int64
		var path string
		if err := dirs.Scan(&id, &path); err != nil {
			dirs.Close()
			return nil, err
		}
		roots[id] = strings.TrimSuffix(path, "/") + "/"
	}
	dirs.Close()
	err = queryIn(ctx, p.r, `SELECT id, dir_id, filename, path FROM files NOT INDEXED WHERE state = 'indexed' AND id IN {list}`, nil, ids,
		func(rows *sql.Rows) error {
			var id, dir int64
			var name, path string
			if err := rows.Scan(&id, &dir, &name, &path); err != nil {
				return err
			}
			folders := strings.TrimPrefix(path, roots[dir])
			if i := strings.LastIndexByte(folders, '/'); i >= 0 && strings.HasPrefix(path, roots[dir]) {
				folders = folders[:i]
			} else {
				folders = ""
			}
			out[id] = Place{Path: path, Filename: name, Folders: folders}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	return out, nil
}

// maxCachedPlaces bounds the places kept (a few MB).
const maxCachedPlaces = 50_000

// placeCache holds places of one state of the index: its pools and the
// store's count of committed writes (a move or a rename is one).
type placeCache struct {
	mu     sync.Mutex
	p      *pools
	gen    int64
	places map[int64]Place
}

// get copies the known places of ids into out and returns the others.
func (c *placeCache) get(p *pools, gen int64, ids []int64, out map[int64]Place) []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != p || c.gen != gen {
		return ids
	}
	var missing []int64
	for _, id := range ids {
		if pl, ok := c.places[id]; ok {
			out[id] = pl
		} else {
			missing = append(missing, id)
		}
	}
	return missing
}

// put keeps places read in state (p, gen); those of another state go, and
// all go when the cache is full (the next searches read theirs again).
func (c *placeCache) put(p *pools, gen int64, read map[int64]Place) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != p || c.gen != gen || len(c.places)+len(read) > maxCachedPlaces {
		c.p, c.gen, c.places = p, gen, make(map[int64]Place, len(read))
	}
	for id, pl := range read {
		c.places[id] = pl
	}
}

// clear forgets every place.
func (c *placeCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.places = nil
}
