package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"trove/backend/core"
)

// ErrNameTaken: another saved search has the name (compared by SavedKey).
var ErrNameTaken = errors.New("the name of another saved search")

// SavedKey is a saved search's name as names are compared: trimmed and
// lower-cased, so "Invoices" and " invoices" are one name.
func SavedKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

const savedColumns = `id, name, query, directory, filters, sort, sort_order, mode, notify, created_ns, updated_ns, seen_file_id`

func scanSaved(row interface{ Scan(...any) error }) (core.SavedSearch, error) {
	var ss core.SavedSearch
	var created, updated int64
	r := &ss.Request
	err := row.Scan(&ss.ID, &ss.Name, &r.Query, &r.Directory, &r.Filters, &r.Sort, &r.Order, &r.Mode, &ss.Notify,
		&created, &updated, &ss.SeenFileID)
	ss.Created, ss.Updated = time.Unix(0, created), time.Unix(0, updated)
	return ss, err
}

// SavedSearches lists every saved search by name.
func (s *Store) SavedSearches(ctx context.Context) ([]core.SavedSearch, error) {
	return savedOf(ctx, s.rdb())
}

func savedOf(ctx context.Context, db *sql.DB) ([]core.SavedSearch, error) {
	rows, err := db.QueryContext(ctx, `SELECT `+savedColumns+` FROM saved_searches ORDER BY name_key, id`)
	if err != nil {
		return nil, fmt.Errorf("saved searches: %w", err)
	}
	defer rows.Close()
	var out []core.SavedSearch
	for rows.Next() {
		ss, err := scanSaved(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ss)
	}
	return out, rows.Err()
}

// CountSavedSearches counts the saved searches.
func (s *Store) CountSavedSearches(ctx context.Context) (int, error) {
	var n int
	err := s.rdb().QueryRowContext(ctx, `SELECT count(*) FROM saved_searches`).Scan(&n)
	return n, err
}

// SavedSearch returns one saved search.
func (s *Store) SavedSearch(ctx context.Context, id int64) (core.SavedSearch, error) {
	ss, err := scanSaved(s.rdb().QueryRowContext(ctx, `SELECT `+savedColumns+` FROM saved_searches WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ss, &core.Missing{Thing: core.ThingSaved, ID: id}
	}
	return ss, err
}

// AddSavedSearch records a new saved search (its ID is ignored) and
// returns it as recorded; ErrNameTaken when its name is another's.
func (s *Store) AddSavedSearch(ctx context.Context, ss core.SavedSearch) (core.SavedSearch, error) {
	ss.ID = 0
	id, err := insertSaved(ctx, s.wdb(), ss)
	if err != nil {
		return ss, savedWriteError(err)
	}
	ss.ID = id
	return ss, nil
}

// insertSaved inserts ss into db under its id, or a new one when it has
// none (0), and returns the id.
func insertSaved(ctx context.Context, db *sql.DB, ss core.SavedSearch) (int64, error) {
	r := ss.Request
	var id int64
	err := db.QueryRowContext(ctx, `INSERT INTO saved_searches(id, name, name_key, query, directory, filters, sort, sort_order, mode,
			notify, created_ns, updated_ns, seen_file_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		sql.NullInt64{Int64: ss.ID, Valid: ss.ID != 0}, ss.Name, SavedKey(ss.Name), r.Query, r.Directory, r.Filters, r.Sort, r.Order, r.Mode,
		ss.Notify, ss.Created.UnixNano(), ss.Updated.UnixNano(), ss.SeenFileID).Scan(&id)
	return id, err
}

// UpdateSavedSearch replaces a saved search's record (all but its id and
// creation time); ErrNameTaken when its name is another's.
func (s *Store) UpdateSavedSearch(ctx context.Context, ss core.SavedSearch) error {
	r := ss.Request
	res, err := s.wdb().ExecContext(ctx, `UPDATE saved_searches SET name = ?, name_key = ?, query = ?, directory = ?, filters = ?,
			sort = ?, sort_order = ?, mode = ?, notify = ?, updated_ns = ?, seen_file_id = ? WHERE id = ?`,
		ss.Name, SavedKey(ss.Name), r.Query, r.Directory, r.Filters, r.Sort, r.Order, r.Mode, ss.Notify,
		ss.Updated.UnixNano(), ss.SeenFileID, ss.ID)
	if err != nil {
		return savedWriteError(err)
	}
	return missingUnless(res, ss.ID)
}

// DeleteSavedSearch removes a saved search.
func (s *Store) DeleteSavedSearch(ctx context.Context, id int64) error {
	res, err := s.wdb().ExecContext(ctx, `DELETE FROM saved_searches WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete saved search: %w", err)
	}
	return missingUnless(res, id)
}

// SawFiles records that a saved search was checked against every file up
// to id. It never goes back: a check that ran beside a change of the
// search keeps the later mark.
func (s *Store) SawFiles(ctx context.Context, id, upTo int64) error {
	_, err := s.wdb().ExecContext(ctx, `UPDATE saved_searches SET seen_file_id = max(seen_file_id, ?) WHERE id = ?`, upTo, id)
	return err
}

// LastFileID is the highest id a file was ever given (file ids are never
// reused): the files added later have larger ones.
func (s *Store) LastFileID(ctx context.Context) (int64, error) {
	var id int64
	err := s.rdb().QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'files'`).Scan(&id)
	return id, err
}

// SettledThrough is how far the files added after id after have settled:
// the highest file id such that no file added after after, up to it,
// waits for its content to be read. A file found by name waits; its
// content may yet match a search its name does not.
func (s *Store) SettledThrough(ctx context.Context, after int64) (int64, error) {
	var id int64
	err := s.rdb().QueryRowContext(ctx, `SELECT max(?, coalesce(
			(SELECT min(id) - 1 FROM files WHERE id > ? AND state = 'pending'),
			(SELECT max(id) FROM files WHERE id > ?), 0))`, after, after, after).Scan(&id)
	return id, err
}

// savedWriteError tells a name taken from other failures.
func savedWriteError(err error) error {
	var c sqlite3.ExtendedErrorCode
	if errors.As(err, &c) && c == sqlite3.CONSTRAINT_UNIQUE {
		return ErrNameTaken
	}
	return fmt.Errorf("save search: %w", err)
}

// missingUnless is a Missing saved search id when res changed no row.
func missingUnless(res sql.Result, id int64) error {
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return err
	}
	return &core.Missing{Thing: core.ThingSaved, ID: id}
}

// keepSaved copies the saved searches of the index from into the index to
// (a rebuild's new index): they are the person's, not the files'. Their
// marks stay right, as the new index gives its files ids after the old's.
// Saved searches that cannot be read (in an index damaged there) are lost
// rather than failing the rebuild that repairs it.
func keepSaved(ctx context.Context, from, to *sql.DB) error {
	old, err := savedOf(ctx, from)
	if err != nil {
		return nil
	}
	for _, ss := range old {
		if _, err := insertSaved(ctx, to, ss); err != nil {
			return fmt.Errorf("keep saved searches: %w", err)
		}
	}
	return nil
}
