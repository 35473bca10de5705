package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// previousRelease is the commit whose trove made testdata/index-*.db
// (scripts/make-index-fixture.sh).
const previousRelease = "f229f0b"

// An index written by the previous release opens in this one: migrations
// bring it up to date and what it held is still found.
func TestIndexFromThePreviousRelease(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("testdata", "index-"+previousRelease+".db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), fixture, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("this Trove cannot open the previous release's index: %v", err)
	}
	defer s.Close()
	var v int
	s.wdb().QueryRow(`PRAGMA user_version`).Scan(&v)
	if want := migrationCount(t); v != want {
		t.Errorf("schema %d after opening, want %d", v, want)
	}
	ctx := context.Background()
	st, err := s.Stats(ctx)
	if err != nil || st.TotalFiles != 3 {
		t.Fatalf("stats %+v, %v; the fixture holds 3 files", st, err)
	}
	f, err := s.FileByPath(ctx, "/tmp/trove-fixture-docs/roof.md")
	if err != nil {
		t.Fatal(err)
	}
	hits, _, err := s.TermMatches(ctx, ContentTable, Any(ph("leak")), TermScope{})
	if err != nil || len(hits) != 1 || hits[0].FileID != f.ID {
		t.Errorf("content search for leak: %+v, %v; want roof.md (%d)", hits, err, f.ID)
	}
	// It takes new writes in the new schema.
	if _, err := s.PutDocument(ctx, doc(f.DirID, "/tmp/trove-fixture-docs/new.txt", "the attic window")); err != nil {
		t.Errorf("writing to the upgraded index: %v", err)
	}
}

// An index from a newer Trove is refused with a message that says so, and
// is left as it was.
func TestNewerIndexIsRefused(t *testing.T) {
	s, dir := openTemp(t)
	known := migrationCount(t)
	s.wdb().Exec(`PRAGMA user_version = 999`)
	s.Close()
	before, _ := os.ReadFile(filepath.Join(dir, FileName))
	_, err := Open(dir)
	var newer *NewerIndexError
	if !errors.As(err, &newer) || newer.Schema != 999 || newer.Known != known {
		t.Fatalf("Open gave %v", err)
	}
	want := "this index was made by a newer Trove (schema 999); this Trove understands up to " + itoa(known)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
	after, _ := os.ReadFile(filepath.Join(dir, FileName))
	if string(before) != string(after) {
		t.Error("the refused index was changed")
	}
}

func migrationCount(t *testing.T) int {
	names, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil || len(names) == 0 {
		t.Fatal("no migrations", err)
	}
	return len(names)
}

func itoa(n int) string { return strconv.Itoa(n) }
