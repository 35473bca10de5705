package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// IsStorageError reports whether err is the index's disk refusing a write:
// full (SQLITE_FULL, ENOSPC below it) or failing (SQLITE_IOERR, EIO). Such
// an error is a condition of the index, not of the file being indexed.
// Only SQLite's errors count: a read error of a watched file (EIO on a
// failing USB stick) is that file's failure, not the index's.
func IsStorageError(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.FULL || c == sqlite3.IOERR
}

// IsCorrupt reports whether err is SQLite finding the index damaged.
func IsCorrupt(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.CORRUPT || c == sqlite3.NOTADB
}

// sqliteCode is the primary SQLite result code in err's chain, or 0. The
// driver reports an error as a *sqlite3.Error or, when it has nothing to
// add, as a bare extended code; both convert.
func sqliteCode(err error) sqlite3.ErrorCode {
	var c sqlite3.ErrorCode
	if err == nil || !errors.As(err, &c) {
		return 0
	}
	return c
}

// storageReasons are SQLite's messages for storage errors, as older Trove
// versions recorded them as files' failure reasons.
var storageReasons = []string{"disk I/O error", "database or disk is full", "no space left on device"}

// IsStorageReason reports whether a recorded failure reason is a storage
// error of the index rather than a problem of the file: such files are
// tried again.
func IsStorageReason(reason string) bool {
	for _, r := range storageReasons {
		if strings.Contains(reason, r) {
			return true
		}
	}
	return false
}

// Probe makes a small real write, to learn whether the index can be
// written again.
func (s *Store) Probe(ctx context.Context) error {
	_, err := s.wdb().ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('storage_probe', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("test write: %w", err)
	}
	return nil
}

// FreeSpace is the space left for the index on the disk that holds it.
func (s *Store) FreeSpace() (uint64, error) { return freeSpace(s.dir) }
