package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"trove/backend/core"
	"trove/backend/store/tokens"
)

// Record is what discovery needs to know about a file already in the index.
type Record struct {
	ID          int64
	DirID       int64
	Path        string
	Size        int64
	ModNs       int64
	ContentHash string
	State       string
	EmbedModel  string
	EnrichBy    string
	Error       string // why it failed, for failed files
	OCRPending  bool   // OCR would read more of it than was read (see extract.Document)
}

const recordColumns = `id, dir_id, path, size, modified_ns, content_hash, state, embed_model, enrich_model, error, ocr_pending`

func scanRecord(row interface{ Scan(...any) error }) (Record, error) {
	var r Record
	err := row.Scan(&r.ID, &r.DirID, &r.Path, &r.Size, &r.ModNs, &r.ContentHash, &r.State, &r.EmbedModel, &r.EnrichBy, &r.Error, &r.OCRPending)
	return r, err
}

// Lookup returns the record of a path; ok is false when the index does not
// hold it.
func (s *Store) Lookup(ctx context.Context, path string) (r Record, ok bool, err error) {
	r, err = scanRecord(s.rdb().QueryRowContext(ctx, `SELECT `+recordColumns+` FROM files WHERE path = ?`, path))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	return r, err == nil, err
}

// ByHash lists indexed files with the given content hash and size. The
// literal content_hash != ” lets SQLite use the partial index.
func (s *Store) ByHash(ctx context.Context, hash string, size int64) ([]Record, error) {
	var out []Record
	err := s.eachRecord(ctx, `WHERE content_hash = ? AND content_hash != '' AND size = ? AND state = 'indexed'`,
		[]any{hash, size}, func(r Record) { out = append(out, r) })
	return out, err
}

// PendingOCR lists the indexed files that OCR would read more of. The
// literal ocr_pending = 1 lets SQLite use the partial index.
func (s *Store) PendingOCR(ctx context.Context) ([]Record, error) {
	var out []Record
	err := s.eachRecord(ctx, `WHERE ocr_pending = 1 AND state = 'indexed'`, nil, func(r Record) { out = append(out, r) })
	return out, err
}

// eachRecord runs fn on every record the condition picks.
func (s *Store) eachRecord(ctx context.Context, where string, args []any, fn func(Record)) error {
	rows, err := s.rdb().QueryContext(ctx, `SELECT `+recordColumns+` FROM files `+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return err
		}
		fn(r)
	}
	return rows.Err()
}

// PathsUnder lists the indexed paths at or below dir.
func (s *Store) PathsUnder(ctx context.Context, dir string) ([]string, error) {
	return queryList[string](ctx, s.rdb(), `SELECT path FROM files WHERE path = ? OR (path >= ? AND path < ?)`,
		dir, dir+"/", dir+"0") // '0' sorts right after '/'
}

// Touch updates a file's times (and size) when its content is unchanged.
func (s *Store) Touch(ctx context.Context, id int64, f core.File) error {
	_, err := s.wdb().ExecContext(ctx, `UPDATE files SET size = ?, modified_ns = ?, accessed_ns = ?, created_ns = ?,
			device = COALESCE(?, device), inode = COALESCE(?, inode) WHERE id = ?`,
		f.Size, f.Modified.UnixNano(), f.Accessed.UnixNano(), createdNS(f.Created), identity(f.Device), identity(f.Inode), id)
	s.writes.Add(1) // kept keys hold the size and time
	return err
}

// Move is one file's new place.
type Move struct {
	ID        int64
	From      string // the path the record must still have; "" for any
	DirID     int64
	Path      string
	Filename  string
	Extension string
	Rel       string    // Path below its watched folder (see Document.Rel)
	Modified  time.Time // zero: unchanged
	// Device and Inode of the file now at Path; 0: unchanged (a rename
	// keeps them).
	Device, Inode uint64
}

// MoveFiles gives files new paths (and names) without touching their
// content, rewriting their full-text name and folder terms, in one
// transaction, and reports how many records moved. A record that is gone,
// or no longer at its From path (another worker deleted or moved it after
// the caller read it), is skipped and leaves the destination alone: the
// caller then indexes the destination itself.
func (s *Store) MoveFiles(ctx context.Context, moves []Move) (int, error) {
	if len(moves) == 0 {
		return 0, nil
	}
	moved := 0
	err := s.tx(ctx, func(tx *writeTx) error {
		moved = 0
		for _, m := range moves {
			ok, err := moveFile(ctx, tx, m)
			if err != nil {
				return err
			}
			if ok {
				moved++
			}
		}
		return nil
	})
	return moved, err
}

func moveFile(ctx context.Context, tx *writeTx, m Move) (bool, error) {
	var at string
	err := tx.QueryRowContext(ctx, `SELECT path FROM files WHERE id = ?`, m.ID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && m.From != "" && at != m.From) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// A file already at the destination is replaced by the moved one.
	if err := deleteFilesWhere(ctx, tx, `path = ? AND id != ?`, m.Path, m.ID); err != nil {
		return false, err
	}
	var title, summary string
	var keywords sql.NullString
	var modified any
	if !m.Modified.IsZero() {
		modified = m.Modified.UnixNano()
	}
	err = tx.QueryRowContext(ctx, `UPDATE files SET dir_id = ?, path = ?, filename = ?, extension = ?,
			modified_ns = COALESCE(?, modified_ns), device = COALESCE(?, device), inode = COALESCE(?, inode)
		WHERE id = ? RETURNING title, summary, keywords`,
		m.DirID, m.Path, m.Filename, m.Extension, modified, identity(m.Device), identity(m.Inode), m.ID).Scan(&title, &summary, &keywords)
	if err != nil {
		return false, fmt.Errorf("move file %d: %w", m.ID, err)
	}
	for _, q := range []string{`DELETE FROM fts_files WHERE rowid = ?`, `DELETE FROM fts_names WHERE rowid = ?`} {
		if _, err := tx.ExecContext(ctx, q, m.ID); err != nil {
			return false, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts_files(rowid, name, path, title, keywords, summary) VALUES(?, ?, ?, ?, ?, ?)`,
		m.ID, tokens.NameTerms(m.Filename), tokens.PathTerms(m.Rel), title, keywordText(keywords), summary); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts_names(rowid, name) VALUES(?, ?)`, m.ID, m.Filename); err != nil {
		return false, err
	}
	tx.moved++
	return true, nil
}

// keywordText turns the stored JSON array into words for the full-text row.
func keywordText(kw sql.NullString) string {
	if !kw.Valid {
		return ""
	}
	r := strings.NewReplacer(`[`, " ", `]`, " ", `"`, " ", `,`, " ")
	return strings.Join(strings.Fields(r.Replace(kw.String)), " ")
}

// ReassignFiles moves a folder's files to another folder record (a parent
// folder that absorbs a watched child).
func (s *Store) ReassignFiles(ctx context.Context, fromDir, toDir int64) error {
	return s.tx(ctx, func(tx *writeTx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE files SET dir_id = ? WHERE dir_id = ?`, toDir, fromDir); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE queue_items SET dir_id = ? WHERE dir_id = ?`, toDir, fromDir); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM watched_directories WHERE id = ?`, fromDir)
		return err
	})
}

// DocFreqs returns the number of files with indexed text and, for each
// index term (already folded and stemmed), how many of them contain it.
//
// SQLite counts a term's files by reading its whole posting list, which is
// slow for common words, and both keyword scoring and search feedback ask
// about many terms; approximate counts serve them both. So answers are
// cached per term and read again only once files numbering a quarter of
// the index have been added, changed or removed since.
func (s *Store) DocFreqs(ctx context.Context, terms []string) (int, map[string]int, error) {
	return s.docFreqs(ctx, "fts_content_vocab", &s.textDF, roughly, terms)
}

// RankDocFreqs is DocFreqs for ranking: a count is read again once a 64th
// of the index has changed since. The enricher asks about words while a
// folder is first indexed, when the index is a fraction of its final size;
// counts that stayed from then would make the same query rank differently
// on the same index depending on when the process started.
func (s *Store) RankDocFreqs(ctx context.Context, terms []string) (int, map[string]int, error) {
	return s.docFreqs(ctx, "fts_content_vocab", &s.textDF, closely, terms)
}

// FileDocFreqs is RankDocFreqs over file names, folder names, titles,
// keywords and summaries (a term counts once per file whatever its
// columns).
func (s *Store) FileDocFreqs(ctx context.Context, terms []string) (int, map[string]int, error) {
	return s.docFreqs(ctx, "fts_files_vocab", &s.fileDF, closely, terms)
}

func (s *Store) docFreqs(ctx context.Context, vocab string, cache *dfCache, tol tolerance, terms []string) (int, map[string]int, error) {
	docs := int(s.docs.Load())
	df := make(map[string]int, len(terms))
	if len(terms) == 0 {
		return docs, df, nil
	}
	at := readAt{docs: docs, changes: s.changes.Load()}
	missing := cache.get(terms, at, tol, df)
	if len(missing) == 0 {
		return docs, df, nil
	}
	fresh, err := s.vocabCounts(ctx, vocab, missing)
	if err != nil {
		return 0, nil, err
	}
	cache.put(missing, fresh, at)
	for _, t := range missing {
		df[t] = fresh[t]
	}
	return docs, df, nil
}

// vocabCounts reads the file counts of the terms a vocabulary table holds
// (absent terms are left out).
func (s *Store) vocabCounts(ctx context.Context, vocab string, terms []string) (map[string]int, error) {
	out := make(map[string]int, len(terms))
	err := queryIn(ctx, s.rdb(), `SELECT term, doc FROM `+vocab+` WHERE term IN {list}`, nil, terms,
		func(rows *sql.Rows) error {
			var t string
			var n int
			if err := rows.Scan(&t, &n); err != nil {
				return err
			}
			out[t] = n
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("document frequencies: %w", err)
	}
	return out, nil
}

// dfCache remembers document frequencies with when they were read.
type dfCache struct {
	mu    sync.Mutex
	terms map[string]cachedDF
}

// tolerance is how much of the index may change before a cached count is
// read again: a share of the files it had when read, plus some files.
type tolerance struct{ share, plus int }

var (
	closely = tolerance{share: 64} // ranking: a 64th
	// roughly serves the enricher while a folder is first indexed: a
	// quarter of the files, and a few. A count kept until a fixed number
	// of files (it was a thousand) made the first files of every folder
	// take their keywords from the counts of a nearly empty index, which
	// files happened to be first deciding which counts those were: the
	// same folder indexed twice got different keywords for a third of a
	// 3,000 file collection, and ranked differently.
	roughly = tolerance{share: 4, plus: 16}
)

// readAt is the state of the index when a count was read: its size, and
// the store's count of file changes then.
type readAt struct {
	docs    int
	changes int64
}

type cachedDF struct {
	n  int
	at readAt
}

// fresh reports whether a count read at then still serves now. Changes,
// not the size, tell: an index that shrinks, or whose files are edited,
// changes its counts as one that grows does.
func (t tolerance) fresh(then, now readAt) bool {
	return now.changes-then.changes <= int64(then.docs/t.share+t.plus)
}

// maxCachedTerms bounds the cache; it is emptied when full.
const maxCachedTerms = 300_000

// get fills df from the cache and returns the terms it must read.
func (c *dfCache) get(terms []string, now readAt, tol tolerance, df map[string]int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []string
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		if e, ok := c.terms[t]; ok && tol.fresh(e.at, now) {
			df[t] = e.n
			continue
		}
		missing = append(missing, t)
	}
	return missing
}

func (c *dfCache) put(terms []string, fresh map[string]int, at readAt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.terms == nil || len(c.terms) > maxCachedTerms {
		c.terms = map[string]cachedDF{}
	}
	for _, t := range terms {
		// A word no file holds yet may come with the next file: asking
		// again is one lookup, and a cached zero would hide that file.
		if fresh[t] > 0 {
			c.terms[t] = cachedDF{fresh[t], at}
		}
	}
}

// clear forgets every cached count (the index was replaced).
func (c *dfCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.terms = nil
}
