package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"trove/backend/core"
)

// Check looks for damage: SQLite's quick_check over every b-tree of the
// file, then FTS5's integrity-check of each full-text table, which
// decodes every segment (quick_check reads an FTS segment as an opaque
// blob, so a torn segment page passes it). It returns the problems found;
// none means the index is sound.
//
// Both run on a connection opened for the check. A pooled connection
// keeps each FTS5 table's structure (its list of segments) from its last
// search, and quick_check asks FTS5 to check itself without reading the
// structure again: after a merge it looked for segments merged away and
// reported damage that was not there.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	db, err := openPool(s.path, false, &s.langs)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	problems, err := quickCheck(ctx, db)
	if err != nil {
		return nil, err
	}
	fts, err := s.checkFullText(ctx, db)
	return append(problems, fts...), err
}

func quickCheck(ctx context.Context, db *sql.DB) ([]string, error) {
	var problems []string
	rows, err := db.QueryContext(ctx, `PRAGMA quick_check`)
	if err == nil {
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err == nil && line != "ok" {
				problems = append(problems, line)
			}
		}
		err = rows.Err()
		rows.Close()
	}
	if err != nil && !IsCorrupt(err) {
		return nil, fmt.Errorf("quick_check: %w", err)
	}
	if err != nil {
		problems = append(problems, "quick_check: "+err.Error())
	}
	return problems, nil
}

// checkFullText runs FTS5's integrity-check of every full-text table on
// db while it holds the writer: the checks are write statements that
// change nothing, and no write starts meanwhile. (A write statement reads
// the structure afresh, so db's search of it in quick_check is no harm.)
func (s *Store) checkFullText(ctx context.Context, db *sql.DB) ([]string, error) {
	writer, err := s.wdb().Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer writer.Close()
	var problems []string
	for _, t := range fullTextTables {
		_, err := db.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`) VALUES('integrity-check')`)
		if err != nil && !IsCorrupt(err) {
			return nil, fmt.Errorf("%s integrity-check: %w", t, err)
		}
		if err != nil {
			problems = append(problems, t+": "+err.Error())
		}
	}
	return problems, nil
}

// MarkDamaged records that the index was found damaged, and why; the
// record lasts until Rebuild.
func (s *Store) MarkDamaged(why string) { s.damage.Store(&why) }

// Damage says why the index is known to be damaged, if it is.
func (s *Store) Damage() (string, bool) {
	if p := s.damage.Load(); p != nil {
		return *p, true
	}
	return "", false
}

// Rebuild replaces a damaged index with a new, empty one that keeps the
// given watched folders (with their ids, so queued work and clients' job
// ids stay valid); the folders' next scans index their files again. File
// ids continue after the old index's last one, when it can be read, so an
// old id never names a new file. The old file is kept beside the new one
// (index.db.damaged-TIME, only the latest), for whoever wants to look at
// it; its name is returned.
//
// Calls that run while the two are swapped (a few milliseconds) fail with
// "database is closed"; queued work retries.
func (s *Store) Rebuild(ctx context.Context, dirs []core.WatchedDirectory) (string, error) {
	s.rebuildMu.Lock()
	defer s.rebuildMu.Unlock()
	var lastID int64
	s.wdb().QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = 'files'`).Scan(&lastID)
	fresh := s.path + ".rebuild"
	removeFiles(fresh)
	p, err := openPools(fresh, &s.langs)
	if err != nil {
		return "", err
	}
	err = restoreDirs(ctx, p.w, dirs, lastID)
	if err == nil {
		err = keepSaved(ctx, s.rdb(), p.w)
	}
	if cerr := p.close(); err == nil {
		err = cerr
	}
	if err != nil {
		removeFiles(fresh)
		return "", fmt.Errorf("rebuild: %w", err)
	}
	closeOld(s.db.Load())
	aside, err := SetAside(s.dir)
	if err != nil {
		return "", err
	}
	if err := moveFiles(fresh, s.path); err != nil {
		return aside, fmt.Errorf("rebuild: %w", err)
	}
	np, err := openPools(s.path, &s.langs)
	if err != nil {
		return aside, fmt.Errorf("rebuild: %w", err)
	}
	s.db.Store(np)
	s.langs.reset(nil) // the new index holds no file yet
	s.langs.unmarked.Store(false)
	s.passages.Store(0)
	s.changes.Add(s.docs.Swap(0)) // every file went
	s.clearCaches()
	s.damage.Store(nil)
	return aside, nil
}

// Reopen closes every connection to the index and opens new ones. After a
// write failed on a full or failing disk, the connection that saw the
// failure may keep FTS5 state that no longer matches the file; writes
// through it were seen to damage the full-text index later. New
// connections read everything from the file.
func (s *Store) Reopen() error {
	s.rebuildMu.Lock()
	defer s.rebuildMu.Unlock()
	closeOld(s.db.Load())
	p, err := openPools(s.path, &s.langs)
	if err != nil {
		return fmt.Errorf("reopen the index: %w", err)
	}
	s.db.Store(p)
	s.clearCaches()
	return s.loadCounts()
}

// closeOld closes the pools of a replaced index, without a checkpoint (the
// old WAL belongs with the old file). Closing waits for running queries,
// and a query over a damaged FTS5 segment can run for ever, so after a
// while the rebuild goes on without it: the file is only renamed, and a
// connection still open on it does no harm.
func closeOld(p *pools) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		core.Safe(func() { p.r.Close(); p.w.Close() })
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// RestoreDirectories records watched folders, with their ids, in an index
// that has none (a new index replacing one that was lost).
func (s *Store) RestoreDirectories(ctx context.Context, dirs []core.WatchedDirectory) error {
	return restoreDirs(ctx, s.wdb(), dirs, 0)
}

func restoreDirs(ctx context.Context, w *sql.DB, dirs []core.WatchedDirectory, lastFileID int64) error {
	return inTx(ctx, w, func(tx *sql.Tx) error {
		now := time.Now().UnixNano()
		for _, d := range dirs {
			var fp any
			if d.FilePattern != "" {
				fp = d.FilePattern
			}
			created := d.CreatedAt.UnixNano()
			if d.CreatedAt.IsZero() {
				created = now
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO watched_directories(id, path, is_active, recursive, file_pattern, status, created_ns, updated_ns,
					names_only, rescan_seconds, mount_point)
				VALUES(NULLIF(?, 0), ?, 1, ?, ?, 'indexing', ?, ?, ?, NULLIF(?, 0), NULLIF(?, ''))`, d.ID, d.Path, d.Recursive, fp, created, now,
				d.NamesOnly, d.RescanSeconds, d.MountPoint); err != nil {
				return fmt.Errorf("restore folder %s: %w", d.Path, err)
			}
		}
		if lastFileID > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence(name, seq) VALUES('files', ?)`, lastFileID); err != nil {
				return err
			}
		}
		return nil
	})
}

// damagedSuffix names an index set aside.
const damagedSuffix = ".damaged-"

// SetAside moves the index of dataDir (with its WAL) out of the way, as
// index.db.damaged-TIME, removing older ones set aside before, and returns
// the new name; "" when there was no index.
func SetAside(dataDir string) (string, error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		removeFiles(path)
		return "", nil
	}
	old, _ := filepath.Glob(path + damagedSuffix + "*")
	for _, o := range old {
		os.Remove(o)
	}
	aside := path + damagedSuffix + time.Now().UTC().Format("20060102T150405")
	if err := moveFiles(path, aside); err != nil {
		return "", fmt.Errorf("set the index aside: %w", err)
	}
	return aside, nil
}

// moveFiles renames a database and its WAL; the shared-memory index is
// derived from them and is removed.
func moveFiles(from, to string) error {
	os.Remove(from + "-shm")
	if err := os.Rename(from, to); err != nil {
		return err
	}
	if err := os.Rename(from+"-wal", to+"-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func removeFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}

// IsEmptyIndex reports whether dataDir's index is a file of zero bytes
// with nothing in a WAL: an index that lost its content (a copy that
// failed, a disk that truncated it), not a new one.
func IsEmptyIndex(dataDir string) bool {
	path := filepath.Join(dataDir, FileName)
	st, err := os.Stat(path)
	if err != nil || st.Size() != 0 {
		return false
	}
	wal, err := os.Stat(path + "-wal")
	return err != nil || wal.Size() == 0
}

// ExistsIndex reports whether dataDir holds an index file.
func ExistsIndex(dataDir string) bool {
	_, err := os.Stat(filepath.Join(dataDir, FileName))
	return err == nil
}

// Summary shortens problems to one line for a status message.
func Summary(problems []string) string {
	const most = 3
	s := strings.Join(problems[:min(len(problems), most)], "; ")
	if len(problems) > most {
		s += fmt.Sprintf("; and %d more", len(problems)-most)
	}
	return s
}

// clearCaches forgets every kept document frequency, match list and
// place (the index was replaced or reopened).
func (s *Store) clearCaches() {
	s.textDF.clear()
	s.fileDF.clear()
	s.matches.clear()
	s.places.clear()
}
