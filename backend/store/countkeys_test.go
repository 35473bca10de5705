package store

import (
	"fmt"
	"slices"
	"testing"
	"time"
	"trove/internal/poll"
)

// listingsAgree checks that the listing from a fresh copy of the count
// keys and the listing from the rows give the same keys, for a few
// expressions, exclusions and limits.
func listingsAgree(t *testing.T, s *Store, when string) {
	t.Helper()
	c, err := readCountKeys(ctx, s.db.Load())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Matches{
		{Any: []Phrase{ph("tide")}}, {Any: []Phrase{ph("ferri")}}, {Any: []Phrase{ph("tide"), ph("ferri")}}, {Any: []Phrase{ph("tide")}, Exclude: Any(ph("ferri"))},
		{Any: []Phrase{ph("gale")}}, {Any: []Phrase{ph("log")}},
	} {
		m.CountOnly = true
		for _, limit := range []int{0, 1, 2, 3, 100} {
			want, wantMore, err := s.matchingRows(ctx, m, FileFilter{}, limit)
			if err != nil {
				t.Fatal(err)
			}
			got, more, err := s.matchingCounted(ctx, m, c, limit)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || more != wantMore {
				t.Errorf("%s, %+v limit %d: from the copy %v (more %v), from the rows %v (more %v)",
					when, m, limit, got, more, want, wantMore)
			}
		}
	}
}

func version(t *testing.T, s *Store) int64 {
	t.Helper()
	var v int64
	if err := s.rdb().QueryRow(`SELECT n FROM files_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every kind of change to the files a listing counts moves the files
// table's version, so a copy of the count keys read before it is not
// used; and a fresh copy lists what the rows list.
func TestCountKeysFollowEveryChange(t *testing.T) {
	s, ids := matchCorpus(t)
	other, err := s.AddDirectory(ctx, "/o", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	put := func(dir int64, p, text, hash string) {
		d := doc(dir, p, text)
		d.File.ContentHash = hash
		if _, err := s.PutDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"a new file", func() { put(1, "/m/new.txt", "A gale and the tide.", "h-new") }},
		{"a copy in another folder", func() { put(other.ID, "/o/copy.txt", "A gale and the tide.", "h-new") }},
		{"changed content", func() { put(1, "/m/log-00.txt", "The ferry sank in a gale.", "h-changed") }},
		{"a file that fails", func() {
			f := doc(1, "/m/log-01.txt").File
			if _, err := s.PutFailed(ctx, f); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted file", func() {
			if _, err := s.DeleteFileByPath(ctx, "/m/log-02.txt"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a renamed file of another type", func() {
			n, err := s.MoveFiles(ctx, []Move{{ID: ids[3], DirID: 1, Path: "/m/log-03.md", Filename: "log-03.md",
				Extension: ".md"}})
			if err != nil || n != 1 {
				t.Fatalf("moved %d: %v", n, err)
			}
		}},
		{"a touched file", func() {
			f := doc(1, "/m/log-04.txt").File
			f.Size = 99
			if err := s.Touch(ctx, ids[4], f); err != nil {
				t.Fatal(err)
			}
		}},
		{"a folder no longer watched", func() {
			if err := s.DeleteDirectory(ctx, other.ID); err != nil {
				t.Fatal(err)
			}
		}},
	}
	listingsAgree(t, s, "at first")
	for _, step := range steps {
		before := version(t, s)
		step.do()
		if version(t, s) == before {
			t.Errorf("%s: the files table's version did not change", step.name)
		}
		listingsAgree(t, s, "after "+step.name)
	}
}

// A copy of another version is not used; once a fresh copy is read, it
// is; and files indexed after the copy was read are listed from their
// rows.
func TestCountKeysServeOnlyTheirVersion(t *testing.T) {
	s, _ := matchCorpus(t)
	m := Matches{Any: []Phrase{ph("tide")}, CountOnly: true}
	poll.Eventually(t, 10*time.Second, "the count keys to be read", func() bool { return s.currentKeys(ctx) != nil })
	old := s.currentKeys(ctx)
	if _, err := s.PutDocument(ctx, doc(1, "/m/late.txt", "The tide turned late.")); err != nil {
		t.Fatal(err)
	}
	if c := s.currentKeys(ctx); c != nil {
		t.Fatalf("a copy of version %d served version %d", c.version, version(t, s))
	}
	got, _, err := s.matchingCounted(ctx, m, old, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := s.MatchingKeys(ctx, m, FileFilter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 13 || !slices.Equal(got, want) {
		t.Fatalf("with a file newer than the copy: %d keys %v, want %v", len(got), got, want)
	}
	if got[len(got)-1].Extension != ".txt" {
		t.Fatalf("the newer file's key: %+v", got[len(got)-1])
	}
}

// Full-text rows whose file is gone (a write racing the listing) are left
// out, and the listing still gives the first files that match and says
// there are more.
func TestCountedListingSkipsRowsWithoutAFile(t *testing.T) {
	s, _ := matchCorpus(t)
	for id := -5; id < 0; id++ {
		if _, err := s.wdb().Exec(`INSERT INTO fts_content(rowid, text) VALUES (?, 'The tide came in.')`, id); err != nil {
			t.Fatal(err)
		}
	}
	listingsAgree(t, s, "with full-text rows of no file")
}

// While every search finds the index changed since the previous one, no
// copy is read (it would be stale before it was used); once a search
// finds the version the previous one found, a copy is read and served.
func TestCountKeysWaitForAStillIndex(t *testing.T) {
	s, _ := matchCorpus(t)
	for i := range 5 {
		if _, err := s.PutDocument(ctx, doc(1, fmt.Sprintf("/m/new-%d.txt", i), "The tide again.")); err != nil {
			t.Fatal(err)
		}
		if c := s.currentKeys(ctx); c != nil {
			t.Fatalf("after change %d: a copy served", i)
		}
		s.keys.mu.Lock()
		reading, read := s.keys.reading, !s.keys.lastRead.IsZero()
		s.keys.mu.Unlock()
		if reading || read {
			t.Fatalf("after change %d: a copy was read while the index kept changing", i)
		}
	}
	poll.Eventually(t, 10*time.Second, "the count keys to be read once the index held still", func() bool { return s.currentKeys(ctx) != nil })
	listingsAgree(t, s, "once the index held still")
}
