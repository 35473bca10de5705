// Package store is Trove's index: one SQLite file (ncruces/go-sqlite3, FTS5)
// in WAL mode, with numbered migrations embedded in the binary. All SQL lives
// here; the engine packages call typed methods.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// FileName is the database file inside the data directory.
const FileName = "index.db"

// Store holds two pools on one database file: a single writer connection,
// so writes queue in Go instead of failing with SQLITE_BUSY, and a pool of
// read-only connections that WAL lets run beside the writer. Rebuild swaps
// both for a new file, so they are reached through one atomic pointer.
type Store struct {
	db   atomic.Pointer[pools]
	path string
	dir  string

	rebuildMu sync.Mutex
	obsMu     sync.Mutex
	observers []Observer
	passages  atomic.Int64 // kept in step with the chunks table by every commit
	docs      atomic.Int64 // rows of fts_content, likewise
	changes   atomic.Int64 // files whose full-text rows were written or removed since opening
	textDF    dfCache      // of the text
	fileDF    dfCache      // of names, folders, titles, keywords, summaries
	group     groupCommit
	damage    atomic.Pointer[string] // why the index is known to be damaged
	keys      keyCache               // count keys of the indexed files, for listings
	// writes counts committed writes: every write that reaches the files
	// table or a full-text table must count, as what searches keep
	// (matches, places) serves only the state it was read in.
	writes  atomic.Int64
	matches matchCache // ids matching listings' words
	places  placeCache // where ranked files are, and their keys
	// writeHook, when set, is called as each file is written (tests).
	writeHook atomic.Pointer[func(path string)]
	// langs are the languages of the indexed files (tokenizer.go).
	langs langSet
}

type pools struct{ w, r *sql.DB }

// state names one state of the index for what searches keep: its pools
// (a rebuild or a reopen replaces them) and the writes committed.
type state struct {
	p      *pools
	writes int64
}

// now returns the index's state.
func (s *Store) now() state { return state{s.db.Load(), s.writes.Load()} }

// Version names one state of the index: two reads at the same Version
// saw the same files and texts. Every committed write, and a rebuild or
// reopen, makes another.
type Version struct{ s state }

// Version returns the index's state now.
func (s *Store) Version() Version { return Version{s.now()} }

func (s *Store) wdb() *sql.DB { return s.db.Load().w }
func (s *Store) rdb() *sql.DB { return s.db.Load().r }

// Open opens (creating if needed) the index in dataDir and migrates it.
func Open(dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	s := &Store{path: filepath.Join(dataDir, FileName), dir: dataDir}
	p, err := openPools(s.path, &s.langs)
	if err != nil {
		return nil, err
	}
	s.db.Store(p)
	if err := s.loadCounts(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openPools opens and migrates the database at path.
func openPools(path string, langs *langSet) (*pools, error) {
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	w, err := openPool(path, false, langs)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	if err := migrate(context.Background(), w, path); err != nil {
		w.Close()
		return nil, err
	}
	r, err := openPool(path, true, langs)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.NumCPU()))
	r.SetMaxIdleConns(max(4, runtime.NumCPU()))
	// Each connection is a WebAssembly instance whose memory grows to its
	// page cache and never shrinks while it is open: a read connection
	// idle for 30 s is closed, which gives all of it back.
	r.SetConnMaxIdleTime(30 * time.Second)
	return &pools{w: w, r: r}, nil
}

// loadCounts reads the numbers of passages and content rows and the
// files of each language, which commits then keep up to date.
func (s *Store) loadCounts() error {
	var n, docs int64
	if err := s.rdb().QueryRow(`SELECT (SELECT COUNT(*) FROM chunks), (SELECT COUNT(*) FROM fts_content)`).Scan(&n, &docs); err != nil {
		return fmt.Errorf("count passages: %w", err)
	}
	s.passages.Store(n)
	s.docs.Store(docs)
	rows, err := s.rdb().Query(`SELECT lang, count(*) FROM files WHERE lang != '' GROUP BY lang`)
	if err != nil {
		return fmt.Errorf("read languages: %w", err)
	}
	defer rows.Close()
	langs := map[string]int64{}
	for rows.Next() {
		var lang string
		var files int64
		if err := rows.Scan(&lang, &files); err != nil {
			return fmt.Errorf("read languages: %w", err)
		}
		langs[lang] = files
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read languages: %w", err)
	}
	s.langs.reset(langs)
	_, old, err := s.Meta(context.Background(), retokenizeKey)
	s.langs.unmarked.Store(old)
	return err
}

func openPool(path string, readOnly bool, langs *langSet) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "cache_size(-16000)")
	q.Add("_pragma", "temp_store(memory)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(wal)")
		q.Add("_pragma", "synchronous(normal)")
		// Checkpoint every ~64 MB of WAL instead of 4 MB: each checkpoint
		// syncs the database file, and during a scan that was ~150 syncs.
		q.Add("_pragma", "wal_autocheckpoint(16384)")
		q.Set("_txlock", "immediate")
	}
	// The WAL and any journal take the database file's mode (0600, see
	// makePrivate): the VFS reads modeof when it creates them.
	q.Set("modeof", path)
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := openDB(dsn, path, langs)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	return db, nil
}

// privateMode is the mode of every file of the index: it holds the text
// of every indexed file, files only their owner may read included.
const privateMode = 0o600

// makePrivate creates the database file at path with privateMode, so that
// SQLite finds it and keeps its mode, and gives that mode to the files of
// an index made before (or by hand, under another umask).
func makePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, privateMode)
	if err != nil {
		return fmt.Errorf("open index %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Chmod(p, privateMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("make %s private: %w", p, err)
		}
	}
	return nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Checkpoint copies the WAL into the database file. Called when indexing
// goes idle: with the WAL fully copied, new reads skip it, and searches
// right after a large scan do not pay for up to 64 MB of WAL lookups.
func (s *Store) Checkpoint(ctx context.Context) error {
	_, err := s.wdb().ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
	return err
}

// TruncateWAL copies the WAL into the database file and empties it, giving
// its space back to the disk.
func (s *Store) TruncateWAL(ctx context.Context) error {
	_, err := s.wdb().ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

// Close checkpoints the WAL and closes both pools.
func (s *Store) Close() error { return s.db.Load().close() }

func (p *pools) close() error {
	errs := []error{p.r.Close()}
	_, err := p.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return errors.Join(append(errs, err, p.w.Close())...)
}

// NewerIndexError is an index whose schema is newer than this Trove's: an
// older Trove must not write to it (a downgrade, or two versions sharing a
// data directory), so it refuses to open it and says why.
type NewerIndexError struct {
	Path          string
	Schema, Known int
}

func (e *NewerIndexError) Error() string {
	return fmt.Sprintf("%s: this index was made by a newer Trove (schema %d); this Trove understands up to %d. Upgrade Trove, or start it with another --data-dir", e.Path, e.Schema, e.Known)
}

// migrate applies, in one transaction each, the embedded migrations newer
// than the database's user_version.
func migrate(ctx context.Context, w *sql.DB, path string) error {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var have int
	if err := w.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&have); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if have > len(names) {
		return &NewerIndexError{Path: path, Schema: have, Known: len(names)}
	}
	for i, name := range names {
		version := i + 1
		if n, _ := strconv.Atoi(strings.SplitN(filepath.Base(name), "_", 2)[0]); n != version {
			return fmt.Errorf("migration %s is out of sequence (want number %d)", name, version)
		}
		if version <= have {
			continue
		}
		body, err := migrationFS.ReadFile(name)
		if err != nil {
			return err
		}
		if err := inTx(ctx, w, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, version))
			return err
		}); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

// querier is a pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// queryList runs a query of one column and returns its values.
func queryList[T any](ctx context.Context, db querier, q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryIn runs q once per batch of items (a few hundred, under SQLite's
// bound on a statement's parameters), with q's {list} made an SQL list of
// the batch's values, which follow args; scan reads each row.
func queryIn[T any](ctx context.Context, db *sql.DB, q string, args []any, items []T, scan func(*sql.Rows) error) error {
	const batch = 500
	for start := 0; start < len(items); start += batch {
		part := items[start:min(start+batch, len(items))]
		all := slices.Clip(args)
		for _, it := range part {
			all = append(all, it)
		}
		list := "(?" + strings.Repeat(", ?", len(part)-1) + ")"
		rows, err := db.QueryContext(ctx, strings.Replace(q, "{list}", list, 1), all...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// inTx runs fn in a transaction of db, committed when fn returns nil and
// rolled back when it fails or panics. A panic comes back as an error
// (ErrPanicked) and its connection is closed instead of reused (conn.go):
// the transaction always ends, so the next one finds the writer free.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	h, ok := ctx.Value(txHandleKey{}).(*txHandle)
	if !ok {
		h = &txHandle{}
		ctx = context.WithValue(ctx, txHandleKey{}, h)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := h.run(func() error { return fn(tx) }); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// writeTx is a write transaction that remembers which files gained or lost
// content, to tell the observers once it commits.
type writeTx struct {
	*sql.Tx
	conn     *txHandle
	indexed  []Indexed
	removed  []int64
	passages int64 // change in the number of passages
	docs     int64 // change in the number of content rows
	moved    int   // files given a new name or folder
	named    int   // files recorded by name only
}

// tx runs fn in a write transaction (inTx), then tells the observers
// what changed.
func (s *Store) tx(ctx context.Context, fn func(*writeTx) error) error {
	h := &txHandle{}
	var w *writeTx
	err := inTx(context.WithValue(ctx, txHandleKey{}, h), s.wdb(), func(tx *sql.Tx) error {
		w = &writeTx{Tx: tx, conn: h}
		return fn(w)
	})
	// Counted even when the commit reports failure: the lists of matches
	// must not outlive a write that may have landed.
	s.writes.Add(1)
	if err != nil {
		return err
	}
	s.passages.Add(w.passages)
	s.docs.Add(w.docs)
	s.changes.Add(int64(len(w.indexed) + len(w.removed) + w.moved + w.named))
	s.notify(w)
	return nil
}

// Indexed is a file whose content was (re)written: its id, the model of its
// vectors and the vectors themselves, one per passage in order.
type Indexed struct {
	ID         int64
	EmbedModel string
	Vecs       [][]byte
}

// Observer learns about committed content changes. Calls come from the
// writer, one at a time, after the commit, and must be quick.
type Observer interface {
	Indexed(files []Indexed)
	Removed(ids []int64)
}

// Observe registers an observer.
func (s *Store) Observe(o Observer) {
	s.obsMu.Lock()
	defer s.obsMu.Unlock()
	s.observers = append(s.observers, o)
}

func (s *Store) notify(w *writeTx) {
	if len(w.indexed) == 0 && len(w.removed) == 0 {
		return
	}
	s.obsMu.Lock()
	obs := s.observers
	s.obsMu.Unlock()
	for _, o := range obs {
		if len(w.removed) > 0 {
			o.Removed(w.removed)
		}
		if len(w.indexed) > 0 {
			o.Indexed(w.indexed)
		}
	}
}

// Meta reads a value from the meta table; ok is false when absent.
func (s *Store) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.rdb().QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// SetMeta writes a value to the meta table.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.wdb().ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
