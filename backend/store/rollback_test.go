package store

import (
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

// undo takes an index back to the schema before each migration, so that a
// test can make an index as an older Trove left it and open it with this
// one. A new migration adds its undo here: TestEveryMigrationUndoes holds
// the list whole and each undo true to its migration.
var undo = map[int][]string{
	14: {`DROP TRIGGER files_version_update`,
		`CREATE TRIGGER files_version_update AFTER UPDATE OF state, extension, size, content_hash ON files
BEGIN UPDATE files_version SET n = n + 1; END`},
	13: {`DELETE FROM meta WHERE key = 'text_retokenize_after'`},
	12: {`DROP TABLE saved_searches`},
	11: {`ALTER TABLE chunks DROP COLUMN pages`},
	10: {`DROP INDEX files_pending`, `ALTER TABLE watched_directories DROP COLUMN names_only`,
		`ALTER TABLE watched_directories DROP COLUMN rescan_seconds`, `ALTER TABLE watched_directories DROP COLUMN mount_point`},
	// The text as the English tokenizer indexed it.
	9: {`DROP TABLE fts_content_vocab`, `DROP TABLE fts_content`,
		`CREATE VIRTUAL TABLE fts_content USING fts5(text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`,
		`INSERT INTO fts_content(fts_content, rank) VALUES('automerge', 8)`,
		`CREATE VIRTUAL TABLE fts_content_vocab USING fts5vocab(fts_content, row)`,
		`INSERT INTO fts_content(rowid, text) SELECT file_id, group_concat(text, char(10, 10)) FROM (SELECT file_id, text FROM chunks ORDER BY file_id, ord) GROUP BY file_id`,
		`ALTER TABLE files DROP COLUMN lang`},
	8: {`ALTER TABLE files DROP COLUMN device`, `ALTER TABLE files DROP COLUMN inode`},
	7: {`DROP TRIGGER files_version_insert`, `DROP TRIGGER files_version_delete`,
		`DROP TRIGGER files_version_update`, `DROP TABLE files_version`},
	6: {`DROP INDEX files_problems`},
	5: {`DROP INDEX files_ocr_pending`, `ALTER TABLE files DROP COLUMN ocr_pending`},
}

// oldestUndone is the first schema undo reaches back to.
const oldestUndone = 4

// rollBack takes s's index back to schema version to, as an older Trove
// left it. The caller closes s and opens the index again to upgrade it.
func rollBack(t *testing.T, s *Store, to int) {
	t.Helper()
	if to < oldestUndone {
		t.Fatalf("undo reaches back to schema %d, not %d", oldestUndone, to)
	}
	for v := latestSchema(t); v > to; v-- {
		for _, q := range undo[v] {
			if _, err := s.wdb().Exec(q); err != nil {
				t.Fatalf("undo %d: %s: %v", v, q, err)
			}
		}
	}
	if _, err := s.wdb().Exec(fmt.Sprintf(`PRAGMA user_version = %d`, to)); err != nil {
		t.Fatal(err)
	}
}

func latestSchema(t *testing.T) int {
	t.Helper()
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}

// schema lists the index's tables, indexes and triggers as SQLite keeps
// them (the shadow tables of FTS5 included).
func schema(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := queryList[string](ctx, s.wdb(), `SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestEveryMigrationUndoes: each migration has its undo, and an index
// taken back by them and opened again has the schema a new index has.
func TestEveryMigrationUndoes(t *testing.T) {
	for v := oldestUndone + 1; v <= latestSchema(t); v++ {
		if len(undo[v]) == 0 {
			t.Errorf("migration %d has no undo in rollback_test.go", v)
		}
	}
	s, dir := openTemp(t)
	want := schema(t, s)
	rollBack(t, s, oldestUndone)
	if slices.Equal(schema(t, s), want) {
		t.Fatal("rolled back, the schema is still the latest")
	}
	s.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := schema(t, s); !slices.Equal(got, want) {
		t.Errorf("upgraded again, the schema differs from a new index's:\n got %q\nwant %q", got, want)
	}
}
