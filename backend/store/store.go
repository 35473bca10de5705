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
	"sort"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// FileName is the database file inside the data directory.
const FileName = "index.db"

// Store holds two pools on one database file: a single writer connection,
// so writes queue in Go instead of failing with SQLITE_BUSY, and a pool of
// read-only connections that WAL lets run beside the writer.
type Store struct {
	w    *sql.DB
	r    *sql.DB
	path string
}

// Open opens (creating if needed) the index in dataDir and migrates it.
func Open(dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	path := filepath.Join(dataDir, FileName)
	w, err := openPool(path, false)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	s := &Store{w: w, path: path}
	if err := s.migrate(context.Background()); err != nil {
		w.Close()
		return nil, err
	}
	r, err := openPool(path, true)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.NumCPU()))
	r.SetMaxIdleConns(max(4, runtime.NumCPU()))
	s.r = r
	return s, nil
}

func openPool(path string, readOnly bool) (*sql.DB, error) {
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
		q.Set("_txlock", "immediate")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := driver.Open(dsn, func(c *sqlite3.Conn) error { return fts5.Register(c) })
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	return db, nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close checkpoints the WAL and closes both pools.
func (s *Store) Close() error {
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	_, err := s.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	errs = append(errs, err, s.w.Close())
	return errors.Join(errs...)
}

// migrate applies, in one transaction each, the embedded migrations newer
// than the database's user_version.
func (s *Store) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var have int
	if err := s.w.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&have); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if have > len(names) {
		return fmt.Errorf("index %s has schema version %d, newer than this Trove knows (%d): upgrade Trove", s.path, have, len(names))
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
		if err := s.tx(ctx, func(tx *sql.Tx) error {
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

// tx runs fn in a write transaction, committing when it returns nil.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Meta reads a value from the meta table; ok is false when absent.
func (s *Store) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// SetMeta writes a value to the meta table.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
