package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"trove/backend/core"
)

// matchCorpus indexes twelve files about the tide; the first six also
// mention a ferry. It returns their ids in order.
func matchCorpus(t *testing.T) (*Store, []int64) {
	t.Helper()
	s, _ := openTemp(t)
	dir, err := s.AddDirectory(ctx, "/m", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 12 {
		text := "The tide came in."
		if i < 6 {
			text += " The ferry left."
		}
		id, err := s.PutDocument(ctx, doc(dir.ID, fmt.Sprintf("/m/log-%02d.txt", i), text))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return s, ids
}

func keyIDs(keys []FileKey) []int64 {
	out := make([]int64, len(keys))
	for i, k := range keys {
		out[i] = k.ID
	}
	return out
}

// The listing is in id order, and exclusions and Keep cut before the
// limit: a limit smaller than the excluded files still lists files, and
// the count below the limit is exact.
func TestMatchingKeysExcludesBeforeTheLimit(t *testing.T) {
	s, ids := matchCorpus(t)
	m := Matches{Any: []Phrase{ph("tide")}, Exclude: Any(Phrase{Words: []string{"ferr"}, Prefix: true})}
	keys, more, err := s.MatchingKeys(ctx, m, FileFilter{}, 3)
	if err != nil || !more || !slices.Equal(keyIDs(keys), ids[6:9]) {
		t.Fatalf("limit 3: %v more=%v %v, want %v", keyIDs(keys), more, err, ids[6:9])
	}
	keys, more, err = s.MatchingKeys(ctx, m, FileFilter{}, 6)
	if err != nil || more || !slices.Equal(keyIDs(keys), ids[6:]) {
		t.Fatalf("limit 6: %v more=%v %v, want %v", keyIDs(keys), more, err, ids[6:])
	}
	even := func(k FileKey) bool {
		name := strings.TrimSuffix(k.Path, ".txt")
		return strings.ContainsAny(name[len(name)-1:], "02468")
	}
	keys, more, err = s.MatchingKeys(ctx, Matches{Any: []Phrase{ph("tide")}, Keep: even}, FileFilter{}, 2)
	if err != nil || !more || !slices.Equal(keyIDs(keys), []int64{ids[0], ids[2]}) {
		t.Fatalf("keep even, limit 2: %v more=%v %v", keyIDs(keys), more, err)
	}
	keys, more, err = s.MatchingKeys(ctx, Matches{Any: []Phrase{ph("tide")}, Exclude: Any(ph("ferry")), Keep: even}, FileFilter{}, 0)
	if err != nil || more || !slices.Equal(keyIDs(keys), []int64{ids[6], ids[8], ids[10]}) {
		t.Fatalf("no limit: %v more=%v %v", keyIDs(keys), more, err)
	}
}

func TestExcludedAmongLooksOnlyAtTheGivenFiles(t *testing.T) {
	s, ids := matchCorpus(t)
	got, err := s.ExcludedAmong(ctx, Any(ph("ferry")), []int64{ids[0], ids[5], ids[6], 999})
	if err != nil || len(got) != 2 || !got[ids[0]] || !got[ids[5]] {
		t.Fatalf("%v %v", got, err)
	}
	// The file's card (name, title) counts as its text does.
	if got, err := s.ExcludedAmong(ctx, Any(ph("roof")), ids[:2]); err != nil || len(got) != 2 {
		t.Fatalf("card: %v %v", got, err)
	}
}

// A listing for counting holds the same files with the same type, size
// and content as a full one, and leaves the rest of the key unread.
func TestMatchingKeysForCountingReadsTypeAndContent(t *testing.T) {
	s, _ := matchCorpus(t)
	m := Matches{Any: []Phrase{ph("ferri")}}
	full, _, err := s.MatchingKeys(ctx, m, FileFilter{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	m.CountOnly = true
	narrow, _, err := s.MatchingKeys(ctx, m, FileFilter{}, 100)
	if err != nil || len(narrow) != 6 || len(full) != 6 {
		t.Fatalf("full %d, narrow %d keys, err %v", len(full), len(narrow), err)
	}
	for i, k := range narrow {
		f := full[i]
		want := FileKey{ID: f.ID, Extension: f.Extension, Size: f.Size, Hash: f.Hash}
		if k != want || f.Path == "" {
			t.Errorf("key %d: %+v, want %+v (full %+v)", i, k, want, f)
		}
	}
	// Keep may read the path, so with Keep the keys are whole.
	m.Keep = func(k FileKey) bool { return strings.HasSuffix(k.Path, "0.txt") }
	kept, _, err := s.MatchingKeys(ctx, m, FileFilter{}, 100)
	if err != nil || len(kept) != 1 || kept[0] != full[0] {
		t.Fatalf("with Keep: %+v, %v", kept, err)
	}
}

// A substring with a NUL byte finds no name (none holds one) and is no
// error: FTS5 read the expression only up to the NUL, an unterminated
// string (a query "0\x000" failed every search that looked names up).
func TestNameMatchesWithANulByte(t *testing.T) {
	s, ids := matchCorpus(t)
	got, err := s.NameMatches(ctx, []string{"0\x000", "log-03"}, 10)
	if err != nil || !slices.Equal(got, ids[3:4]) {
		t.Fatalf("got %v, %v; want %v", got, err, ids[3:4])
	}
	if got, err := s.NameMatches(ctx, []string{"ab\x00cd"}, 10); err != nil || len(got) != 0 {
		t.Fatalf("only a NUL substring: %v, %v", got, err)
	}
}

// A substring in more names than are ranked gives its newest files, after
// the files of the rarer substrings ranked; one in fewer is ranked,
// shortest names first.
func TestCommonNameSubstringsGiveTheirNewestFiles(t *testing.T) {
	s, _ := openTemp(t)
	dir, err := s.AddDirectory(ctx, "/m", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var names []Name
	for i := range 40 {
		name := fmt.Sprintf("weekly-report-%03d-final-version.txt", i)
		if i == 5 {
			name = "report.txt" // the shortest
		}
		names = append(names, Name{File: core.File{DirID: dir.ID, Path: "/m/" + name, Filename: name, Extension: ".txt", State: core.StatePending, Modified: time.Now()}, Rel: name})
	}
	names = append(names, Name{File: core.File{DirID: dir.ID, Path: "/m/Zanzíbar-trip.txt", Filename: "Zanzíbar-trip.txt", Extension: ".txt", State: core.StatePending, Modified: time.Now()}, Rel: "Zanzíbar-trip.txt"})
	if n, err := s.PutNames(ctx, names); err != nil || n != len(names) {
		t.Fatalf("put names: %d, %v", n, err)
	}
	id := func(name string) int64 {
		t.Helper()
		f, err := s.FileByPath(ctx, "/m/"+name)
		if err != nil {
			t.Fatal(err)
		}
		return f.ID
	}
	if n, err := s.namesHolding(ctx, `"REPORT"`); err != nil || n != 40 {
		t.Fatalf("names holding report: %d, %v; want 40", n, err)
	}
	if n, err := s.namesHolding(ctx, `"zanzi"`); err != nil || n != 1 {
		t.Fatalf("names holding zanzi (the name has an accent): %d, %v; want 1", n, err)
	}

	got, err := s.NameMatches(ctx, []string{"report"}, 3)
	if err != nil || len(got) != 3 || got[0] != id("report.txt") {
		t.Fatalf("ranked: %v, %v; want report.txt (%d) first", got, err, id("report.txt"))
	}

	defer func(was int) { rankedNamesMost = was }(rankedNamesMost)
	rankedNamesMost = 10
	got, err = s.NameMatches(ctx, []string{"report", "zanzi"}, 3)
	want := []int64{id("Zanzíbar-trip.txt"), id("weekly-report-039-final-version.txt"), id("weekly-report-038-final-version.txt")}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("common: %v, %v; want the rare name, then the newest: %v", got, err, want)
	}
}
