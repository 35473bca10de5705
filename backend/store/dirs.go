package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"trove/backend/core"
)

// dirColumns reads a folder with its counts. Every count comes from an
// index (files_by_dir, and files_problems for the problem count, whose
// condition must stay the index's own): they are read twice with every
// file that changes, as its folder turns indexing and back.
const dirColumns = `d.id, d.path, d.is_active, d.recursive, COALESCE(d.file_pattern, ''), d.status, d.status_message,
	d.file_count, d.last_scan_ns, d.created_ns, d.updated_ns, d.names_only, COALESCE(d.rescan_seconds, 0), COALESCE(d.mount_point, ''),
	(SELECT COUNT(*) FROM files f WHERE f.dir_id = d.id AND f.state = 'indexed'),
	(SELECT COUNT(*) FROM files f WHERE f.dir_id = d.id AND f.state = 'failed'),
	(SELECT COUNT(*) FROM files f WHERE f.dir_id = d.id AND (f.state = 'failed' OR f.error != '')),
	(SELECT COUNT(*) FROM files f WHERE f.dir_id = d.id AND f.state = 'pending'),
	(SELECT COUNT(*) FROM files f WHERE f.dir_id = d.id AND f.state = 'named')`

func scanDir(row interface{ Scan(...any) error }) (core.WatchedDirectory, error) {
	var d core.WatchedDirectory
	var lastScan sql.NullInt64
	var created, updated int64
	err := row.Scan(&d.ID, &d.Path, &d.IsActive, &d.Recursive, &d.FilePattern, &d.Status, &d.StatusMessage,
		&d.FileCount, &lastScan, &created, &updated, &d.NamesOnly, &d.RescanSeconds, &d.MountPoint,
		&d.IndexedCount, &d.FailedCount, &d.ProblemCount, &d.PendingCount, &d.NamedCount)
	if err != nil {
		return d, err
	}
	// The files known since the last scan count too. A file is in one of
	// four states, so these counts (one walk of the index each) hold them
	// all.
	d.FileCount = max(d.FileCount, d.IndexedCount+d.FailedCount+d.PendingCount+d.NamedCount)
	if lastScan.Valid {
		t := time.Unix(0, lastScan.Int64)
		d.LastScan = &t
	}
	d.CreatedAt, d.UpdatedAt = time.Unix(0, created), time.Unix(0, updated)
	return d, nil
}

// AddDirectory records a new watched folder in the indexing state.
func (s *Store) AddDirectory(ctx context.Context, path string, recursive bool, pattern string, now time.Time) (core.WatchedDirectory, error) {
	return s.AddFolder(ctx, NewFolder{Path: path, Recursive: recursive, Pattern: pattern}, now)
}

// NewFolder is a folder to watch, with its options.
type NewFolder struct {
	Path          string
	Recursive     bool
	Pattern       string // "" for none
	NamesOnly     bool
	RescanSeconds int    // 0: as the file system needs
	MountPoint    string // where its file system is mounted; "" when not known
}

// AddFolder records a new watched folder in the indexing state.
func (s *Store) AddFolder(ctx context.Context, nf NewFolder, now time.Time) (core.WatchedDirectory, error) {
	path := nf.Path
	var fp, rescan any
	if nf.Pattern != "" {
		fp = nf.Pattern
	}
	if nf.RescanSeconds > 0 {
		rescan = nf.RescanSeconds
	}
	res, err := s.wdb().ExecContext(ctx, `INSERT INTO watched_directories(path, recursive, file_pattern, status, created_ns, updated_ns,
			names_only, rescan_seconds, mount_point)
		VALUES(?, ?, ?, 'indexing', ?, ?, ?, ?, NULLIF(?, ''))`, path, nf.Recursive, fp, now.UnixNano(), now.UnixNano(), nf.NamesOnly, rescan,
		nf.MountPoint)
	if err != nil {
		return core.WatchedDirectory{}, fmt.Errorf("add directory %s: %w", path, err)
	}
	id, _ := res.LastInsertId()
	return s.Directory(ctx, id)
}

// Directory returns one watched folder with its counts. It reads on a
// reader's connection: in WAL mode a read sees every committed write, and
// on the writer's it would hold up the indexing of files behind its counts.
func (s *Store) Directory(ctx context.Context, id int64) (core.WatchedDirectory, error) {
	d, err := scanDir(s.rdb().QueryRowContext(ctx, `SELECT `+dirColumns+` FROM watched_directories d WHERE d.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, &core.Missing{Thing: core.ThingFolder, ID: id}
	}
	return d, err
}

// Directories lists every watched folder, oldest first, with its counts.
func (s *Store) Directories(ctx context.Context) ([]core.WatchedDirectory, error) {
	rows, err := s.rdb().QueryContext(ctx, `SELECT `+dirColumns+` FROM watched_directories d ORDER BY d.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []core.WatchedDirectory
	for rows.Next() {
		d, err := scanDir(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// CountActiveDirectories counts the folders being watched.
func (s *Store) CountActiveDirectories(ctx context.Context) (int, error) {
	var n int
	err := s.rdb().QueryRowContext(ctx, `SELECT COUNT(*) FROM watched_directories WHERE is_active = 1`).Scan(&n)
	return n, err
}

// SetDirectoryStatus changes a folder's status and its explanation.
func (s *Store) SetDirectoryStatus(ctx context.Context, id int64, status, message string, now time.Time) error {
	_, err := s.wdb().ExecContext(ctx, `UPDATE watched_directories SET status = ?, status_message = ?, updated_ns = ? WHERE id = ?`,
		status, message, now.UnixNano(), id)
	return err
}

// SetDirectoryMount records where the folder's file system is mounted
// (kept for folders watched before it was).
func (s *Store) SetDirectoryMount(ctx context.Context, id int64, mountPoint string) error {
	_, err := s.wdb().ExecContext(ctx, `UPDATE watched_directories SET mount_point = ? WHERE id = ?`, mountPoint, id)
	return err
}

// SetDirectoryScanned records the result of a scan: files found after filters.
func (s *Store) SetDirectoryScanned(ctx context.Context, id, fileCount int64, now time.Time) error {
	_, err := s.wdb().ExecContext(ctx, `UPDATE watched_directories SET file_count = ?, last_scan_ns = ?, updated_ns = ? WHERE id = ?`,
		fileCount, now.UnixNano(), now.UnixNano(), id)
	return err
}

// DeleteDirectory removes a folder and everything indexed from it, in one
// transaction.
func (s *Store) DeleteDirectory(ctx context.Context, id int64) error {
	return s.tx(ctx, func(tx *writeTx) error {
		if err := deleteFilesWhere(ctx, tx, `dir_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM queue_items WHERE dir_id = ?`, id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM watched_directories WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &core.Missing{Thing: core.ThingFolder, ID: id}
		}
		return nil
	})
}
