package store

import (
	"slices"
	"testing"
	"time"

	"trove/backend/core"
)

// The names pass records files without content: they count as pending in
// their folder, search finds them, and the content pass takes them newest
// first. A path already known is left alone.
func TestPutNamesRecordsPendingFiles(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	d, err := s.AddFolder(ctx, NewFolder{Path: "/home/u", Recursive: true}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	name := func(rel string, age int) Name {
		f := core.File{DirID: d.ID, Path: "/home/u/" + rel, Filename: rel, Extension: ".txt", Size: 10,
			Modified: base.Add(-time.Duration(age) * time.Hour), State: core.StatePending}
		return Name{File: f, Rel: rel}
	}
	added, err := s.PutNames(ctx, []Name{name("old.txt", 3), name("new.txt", 1), name("mid.txt", 2)})
	if err != nil || added != 3 {
		t.Fatalf("PutNames: %d, %v", added, err)
	}
	if added, err := s.PutNames(ctx, []Name{name("new.txt", 0)}); err != nil || added != 0 {
		t.Fatalf("PutNames of a known path: %d, %v", added, err)
	}
	got, err := s.PendingFiles(ctx, d.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range got {
		paths = append(paths, p.Path)
	}
	if want := []string{"/home/u/new.txt", "/home/u/mid.txt", "/home/u/old.txt"}; !slices.Equal(paths, want) {
		t.Fatalf("pending %q, want %q", paths, want)
	}
	dir, err := s.Directory(ctx, d.ID)
	if err != nil || dir.PendingCount != 3 || dir.FileCount != 3 || dir.IndexedCount != 0 {
		t.Fatalf("folder counts: %+v, %v", dir, err)
	}
	if n, err := s.CountIndexed(ctx); err != nil || n != 3 {
		t.Fatalf("searchable files: %d, %v", n, err)
	}
}
