package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

func TestStorageAndCorruptionErrorsAreRecognised(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("index /a: %w", err) }
	for _, c := range []struct {
		err              error
		storage, corrupt bool
	}{
		{wrap(sqlite3.IOERR_WRITE), true, false},
		{wrap(sqlite3.FULL), true, false},
		{wrap(sqlite3.IOERR), true, false},
		{wrap(sqlite3.CORRUPT_VTAB), false, true},
		{wrap(sqlite3.NOTADB), false, true},
		{wrap(sqlite3.CONSTRAINT_UNIQUE), false, false},
		{errors.New("disk I/O error"), false, false}, // not from SQLite: a file's own error
		{nil, false, false},
	} {
		if IsStorageError(c.err) != c.storage || IsCorrupt(c.err) != c.corrupt {
			t.Errorf("%v: storage %v corrupt %v", c.err, IsStorageError(c.err), IsCorrupt(c.err))
		}
	}
	if !IsStorageReason("record failure of /a: sqlite3: disk I/O error") || IsStorageReason("open: permission denied") {
		t.Error("IsStorageReason")
	}
}
