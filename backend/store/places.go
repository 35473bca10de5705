package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
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

// Places returns the place of each given indexed file.
func (s *Store) Places(ctx context.Context, ids []int64) (map[int64]Place, error) {
	placed, err := s.placedFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]Place, len(placed))
	for id, pf := range placed {
		out[id] = pf.place
	}
	return out, nil
}

// placedFile is what ranking and its page read of a file's row: its place
// and its key.
type placedFile struct {
	place Place
	key   FileKey
}

// placedFiles returns the place and key of each given indexed file.
// Ranking places a few hundred files a search and its page reads their
// keys, many of them the same from one search to the next, and a lookup of
// each cost as much as the rest of completing their evidence; so they are
// kept while the index is unchanged.
func (s *Store) placedFiles(ctx context.Context, ids []int64) (map[int64]placedFile, error) {
	out := make(map[int64]placedFile, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	st := s.now()
	ids = s.places.get(st, ids, out)
	if len(ids) == 0 {
		return out, nil
	}
	read, err := readPlaced(ctx, st.p, ids)
	if err != nil {
		return nil, err
	}
	// A write committed during the read may or may not be in it.
	if s.now() == st {
		s.places.put(st, read)
	}
	maps.Copy(out, read)
	return out, nil
}

// readPlaced reads the places and keys of the given indexed files.
func readPlaced(ctx context.Context, p *pools, ids []int64) (map[int64]placedFile, error) {
	out := make(map[int64]placedFile, len(ids))
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
	err = queryIn(ctx, p.r, `SELECT f.dir_id, `+fileKeyColumns+` FROM files f NOT INDEXED WHERE f.`+searchable+` AND f.id IN {list}`, nil, ids,
		func(rows *sql.Rows) error {
			var dir int64
			var k FileKey
			if err := rows.Scan(&dir, &k.ID, &k.Path, &k.Extension, &k.Filename, &k.Size, &k.Modified, &k.Hash, &k.Lang); err != nil {
				return err
			}
			folders := strings.TrimPrefix(k.Path, roots[dir])
			if i := strings.LastIndexByte(folders, '/'); i >= 0 && strings.HasPrefix(k.Path, roots[dir]) {
				folders = folders[:i]
			} else {
				folders = ""
			}
			out[k.ID] = placedFile{place: Place{Path: k.Path, Filename: k.Filename, Folders: folders}, key: k}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	return out, nil
}

// maxCachedPlaces bounds the files kept (about 10 MB).
const maxCachedPlaces = 50_000

// placeCache holds places of one state of the index (a move or a rename
// is a write).
type placeCache struct {
	mu     sync.Mutex
	st     state
	places map[int64]placedFile
}

// get copies the known files of ids into out and returns the others.
func (c *placeCache) get(st state, ids []int64, out map[int64]placedFile) []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st {
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

// put keeps files read in state st; those of another state go, and all
// go when the cache is full (the next searches read theirs again).
func (c *placeCache) put(st state, read map[int64]placedFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st || len(c.places)+len(read) > maxCachedPlaces {
		c.st, c.places = st, make(map[int64]placedFile, len(read))
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
