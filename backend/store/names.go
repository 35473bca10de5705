package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"trove/backend/core"
	"trove/backend/store/tokens"
)

// searchable is the condition on the files table of the files search
// finds: by content and name (indexed), or by name, path and metadata
// alone (pending, named). Failed files are not found.
const searchable = `state IN ('indexed', 'pending', 'named')`

// Name is one file as the names pass records it: no content.
type Name struct {
	File core.File // State is core.StatePending or core.StateNamed
	Rel  string    // the path below its watched folder (see Document.Rel)
}

// PutNames records new files by name, path, size and dates, all in one
// transaction, and makes them findable by name (fts_files, fts_names):
// the names pass writes thousands of files a transaction, which is what
// makes it fast. A path the index already holds is left as it is (a
// worker indexed it meanwhile). It returns how many were added.
func (s *Store) PutNames(ctx context.Context, names []Name) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	added := 0
	err := s.tx(ctx, func(tx *writeTx) error {
		added = 0
		ids, err := insertNames(ctx, tx, names)
		if err != nil {
			return err
		}
		// Each full-text table in one run, ids rising (new ids are), so
		// that a batch is one segment per table (see PutDocuments).
		card, err := tx.PrepareContext(ctx, `INSERT INTO fts_files(rowid, name, path, title, keywords, summary) VALUES(?, ?, ?, '', '', '')`)
		if err != nil {
			return err
		}
		defer card.Close()
		for i, n := range names {
			if ids[i] == 0 {
				continue
			}
			if _, err := card.ExecContext(ctx, ids[i], tokens.NameTerms(n.File.Filename), tokens.PathTerms(n.Rel)); err != nil {
				return fmt.Errorf("name %s: fts_files: %w", n.File.Path, err)
			}
			added++
		}
		trigrams, err := tx.PrepareContext(ctx, `INSERT INTO fts_names(rowid, name) VALUES(?, ?)`)
		if err != nil {
			return err
		}
		defer trigrams.Close()
		for i, n := range names {
			if ids[i] == 0 {
				continue
			}
			if _, err := trigrams.ExecContext(ctx, ids[i], n.File.Filename); err != nil {
				return fmt.Errorf("name %s: fts_names: %w", n.File.Path, err)
			}
		}
		tx.named += added
		return nil
	})
	return added, err
}

// namesPerInsert is how many files one INSERT statement adds: a
// statement per file cost half the names pass in its per-statement work.
const namesPerInsert = 128

// insertNames adds the files rows of new names, a statement per
// namesPerInsert of them, and returns each one's id (0 when its path was
// already there).
func insertNames(ctx context.Context, tx *writeTx, names []Name) ([]int64, error) {
	const cols = 12
	ids := make([]int64, len(names))
	at := make(map[string]int, namesPerInsert)
	args := make([]any, 0, namesPerInsert*cols)
	for start := 0; start < len(names); start += namesPerInsert {
		part := names[start:min(start+namesPerInsert, len(names))]
		args = args[:0]
		clear(at)
		for i, n := range part {
			f := n.File
			at[f.Path] = start + i
			args = append(args, f.DirID, f.Path, f.Filename, f.Extension, f.Size, f.Created.UnixNano(),
				f.Modified.UnixNano(), f.Accessed.UnixNano(), f.State, f.IndexedAt.UnixNano(),
				identity(f.Device), identity(f.Inode))
		}
		row := "(?" + strings.Repeat(", ?", cols-1) + ")"
		q := `INSERT INTO files(dir_id, path, filename, extension, size, created_ns, modified_ns, accessed_ns, state, indexed_ns,
				device, inode)
			VALUES ` + row + strings.Repeat(", "+row, len(part)-1) + `
			ON CONFLICT(path) DO NOTHING RETURNING id, path`
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("names: %w", err)
		}
		for rows.Next() {
			var id int64
			var path string
			if err := rows.Scan(&id, &path); err != nil {
				rows.Close()
				return nil, err
			}
			ids[at[path]] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("names: %w", err)
		}
	}
	return ids, nil
}

// Stamp is what a rescan compares of a file the index holds: enough to
// tell, without reading the file, whether it changed.
type Stamp struct {
	ID    int64
	Path  string // valid only during the callback: copy what is kept
	Size  int64
	ModNs int64
	Inode uint64 // 0 when not known
	State string
	// StorageFailed: it failed for a reason of the index's disk, not its
	// own, and is tried again.
	StorageFailed bool
}

// EachStamp runs fn on the stamp of every file of a folder, reading them
// as a stream: a folder of a million files is never held as records.
func (s *Store) EachStamp(ctx context.Context, dirID int64, fn func(Stamp)) error {
	rows, err := s.rdb().QueryContext(ctx, `SELECT id, path, size, modified_ns, COALESCE(inode, 0), state, error
		FROM files WHERE dir_id = ?`, dirID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var st Stamp
	var inode int64
	var reason string
	for rows.Next() {
		if err := rows.Scan(&st.ID, &st.Path, &st.Size, &st.ModNs, &inode, &st.State, &reason); err != nil {
			return err
		}
		st.Inode = uint64(inode)
		st.StorageFailed = st.State == core.StateFailed && IsStorageReason(reason)
		fn(st)
	}
	return rows.Err()
}

// PathsOf returns the paths of the given files (those still there).
func (s *Store) PathsOf(ctx context.Context, ids []int64) ([]string, error) {
	var out []string
	err := queryIn(ctx, s.rdb(), `SELECT path FROM files WHERE id IN {list}`, nil, ids, func(rows *sql.Rows) error {
		var p string
		if err := rows.Scan(&p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// Pending is a file whose content waits for the content pass.
type Pending struct {
	Path  string
	ModNs int64
}

// PendingFiles lists up to limit of a folder's files whose content waits,
// most recently modified first: what people look for first.
func (s *Store) PendingFiles(ctx context.Context, dirID int64, limit int) ([]Pending, error) {
	rows, err := s.rdb().QueryContext(ctx, `SELECT path, modified_ns FROM files INDEXED BY files_pending
		WHERE dir_id = ? AND state = 'pending' ORDER BY modified_ns DESC LIMIT ?`, dirID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		if err := rows.Scan(&p.Path, &p.ModNs); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
