package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"trove/backend/core"
)

var ctx = context.Background()

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// openWithDir opens a temporary store that watches the folder path.
func openWithDir(t *testing.T, path string) (*Store, int64) {
	t.Helper()
	s, _ := openTemp(t)
	d, err := s.AddDirectory(ctx, path, true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return s, d.ID
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.wdb().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func doc(dirID int64, path string, chunks ...string) Document {
	now := time.Unix(1_700_000_000, 0)
	d := Document{
		File: core.File{DirID: dirID, Path: path, Filename: path[1:], Extension: ".txt", Size: 10,
			Created: now, Modified: now, Accessed: now, Title: "Roof leak", Summary: "About the roof.",
			Keywords: []string{"roof", "leak"}, IndexedAt: now},
	}
	for _, c := range chunks {
		d.Chunks = append(d.Chunks, Chunk{Text: c, Vec: []byte{1, 2, 3}})
	}
	return d
}

func TestMigrateIsIdempotentAndVersioned(t *testing.T) {
	s, dir := openTemp(t)
	s.Close()
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	s2.wdb().QueryRow(`PRAGMA user_version`).Scan(&v)
	if v < 1 {
		t.Fatalf("user_version = %d", v)
	}
	s2.wdb().Exec(`PRAGMA user_version = 999`)
	s2.Close()
	if _, err := Open(dir); err == nil {
		t.Fatal("opened an index from a newer Trove")
	}
}

func TestPutDocumentIsSearchableAndReplaces(t *testing.T) {
	s, _ := openTemp(t)
	d, err := s.AddDirectory(ctx, "/notes", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.PutDocument(ctx, doc(d.ID, "/roof.txt", "water came through the ceiling", "the roofer said shingles"))
	if err != nil {
		t.Fatal(err)
	}
	var hits int
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_content WHERE fts_content MATCH 'shingle'`).Scan(&hits)
	if hits != 1 {
		t.Fatalf("stemmed content match = %d, want 1", hits)
	}
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_files WHERE fts_files MATCH 'title:roof'`).Scan(&hits)
	if hits != 1 {
		t.Fatalf("title match = %d", hits)
	}
	id2, err := s.PutDocument(ctx, doc(d.ID, "/roof.txt", "only one chunk now"))
	if err != nil || id2 != id {
		t.Fatalf("re-index changed id %d -> %d (%v)", id, id2, err)
	}
	if n := count(t, s, "chunks"); n != 1 {
		t.Fatalf("chunks = %d after re-index, want 1", n)
	}
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_content WHERE fts_content MATCH 'shingle'`).Scan(&hits)
	if hits != 0 {
		t.Fatal("old text still matches")
	}
	f, err := s.File(ctx, id)
	if err != nil || f.Title != "Roof leak" || len(f.Keywords) != 2 || f.State != core.StateIndexed {
		t.Fatalf("file = %+v, %v", f, err)
	}
}

func TestFailedFileHasNoContent(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/n", true, "", time.Now())
	if _, err := s.PutDocument(ctx, doc(d.ID, "/a.txt", "text")); err != nil {
		t.Fatal(err)
	}
	f := doc(d.ID, "/a.txt").File
	f.Error = "encrypted PDF"
	if _, err := s.PutFailed(ctx, f); err != nil {
		t.Fatal(err)
	}
	if count(t, s, "chunks") != 0 || count(t, s, "vectors") != 0 {
		t.Fatal("failed file kept content")
	}
	st, _ := s.Stats(ctx)
	if st.TotalFiles != 0 || st.FailedFiles != 1 {
		t.Fatalf("stats = %+v", st)
	}
	dirs, _ := s.Directories(ctx)
	if dirs[0].FailedCount != 1 || dirs[0].IndexedCount != 0 {
		t.Fatalf("dir counts = %+v", dirs[0])
	}
}

func TestDeleteDirectoryRemovesEverything(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.AddDirectory(ctx, "/a", true, "", time.Now())
	b, _ := s.AddDirectory(ctx, "/b", true, "", time.Now())
	if _, err := s.PutDocument(ctx, doc(a.ID, "/a1", "alpha", "beta")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDocument(ctx, doc(b.ID, "/b1", "gamma")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDirectory(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if count(t, s, "files") != 1 || count(t, s, "chunks") != 1 || count(t, s, "vectors") != 1 || count(t, s, "fts_files") != 1 {
		t.Fatal("delete left rows behind or took too many")
	}
	var hits int
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_content WHERE fts_content MATCH 'alpha OR beta'`).Scan(&hits)
	if hits != 0 {
		t.Fatal("deleted text still matches")
	}
	if err := s.DeleteDirectory(ctx, a.ID); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestDeleteFilesInBatches(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	var ids []int64
	for i := range 1200 {
		id, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/f%d", i), "x"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	n, err := s.DeleteFiles(ctx, append(ids[:1100], 999999))
	if err != nil || n != 1100 {
		t.Fatalf("removed %d, %v", n, err)
	}
	if c := count(t, s, "files"); c != 100 {
		t.Fatalf("files left = %d", c)
	}
}

func TestStats(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	a := doc(d.ID, "/a.txt")
	b := doc(d.ID, "/b.pdf")
	b.File.Extension, b.File.Size = ".pdf", 90
	if _, err := s.PutDocument(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDocument(ctx, b); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.TotalFiles != 2 || st.TotalSize != 100 || st.FileTypes[".pdf"] != 1 || st.LastIndexed == nil {
		t.Fatalf("stats = %+v, %v", st, err)
	}
}

func TestFileNotFound(t *testing.T) {
	s, _ := openTemp(t)
	if _, err := s.File(ctx, 42); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
}

func TestMeta(t *testing.T) {
	s, _ := openTemp(t)
	if _, ok, _ := s.Meta(ctx, "k"); ok {
		t.Fatal("absent key found")
	}
	s.SetMeta(ctx, "k", "v1")
	s.SetMeta(ctx, "k", "v2")
	if v, ok, err := s.Meta(ctx, "k"); v != "v2" || !ok || err != nil {
		t.Fatalf("meta = %q %v %v", v, ok, err)
	}
}

func TestMoveFilesRewritesNameTerms(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	id, _ := s.PutDocument(ctx, doc(d.ID, "/d/old.txt", "body"))
	_, err := s.MoveFiles(ctx, []Move{{ID: id, DirID: d.ID, Path: "/d/zebra.txt", Filename: "zebra.txt", Extension: ".txt"}})
	if err != nil {
		t.Fatal(err)
	}
	var hits int
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_files WHERE fts_files MATCH 'name:zebra'`).Scan(&hits)
	if hits != 1 {
		t.Fatal("new name not searchable")
	}
	s.rdb().QueryRow(`SELECT COUNT(*) FROM fts_files WHERE fts_files MATCH 'title:roof'`).Scan(&hits)
	if hits != 1 {
		t.Fatal("title lost in the move")
	}
	if _, ok, _ := s.Lookup(ctx, "/d/old.txt"); ok {
		t.Fatal("old path still indexed")
	}
	if r, ok, _ := s.Lookup(ctx, "/d/zebra.txt"); !ok || r.ID != id {
		t.Fatal("moved file lost its id")
	}
}

// A record read by one worker may be deleted or moved by another before the
// first one renames it: the rename then does nothing, reports it, and keeps
// the file already at the destination.
func TestMovingAStaleRecordChangesNothing(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	gone, _ := s.PutDocument(ctx, doc(d.ID, "/d/gone.txt", "body"))
	elsewhere, _ := s.PutDocument(ctx, doc(d.ID, "/d/elsewhere.txt", "body"))
	dest, _ := s.PutDocument(ctx, doc(d.ID, "/d/dest.txt", "body"))
	if _, err := s.DeleteFileByPath(ctx, "/d/gone.txt"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []Move{
		{ID: gone, From: "/d/gone.txt", DirID: d.ID, Path: "/d/dest.txt", Filename: "dest.txt"},
		{ID: elsewhere, From: "/d/before.txt", DirID: d.ID, Path: "/d/dest.txt", Filename: "dest.txt"},
	} {
		n, err := s.MoveFiles(ctx, []Move{m})
		if err != nil || n != 0 {
			t.Fatalf("move of %d: moved %d, err %v; want nothing moved", m.ID, n, err)
		}
	}
	if r, ok, _ := s.Lookup(ctx, "/d/dest.txt"); !ok || r.ID != dest {
		t.Fatal("the file at the destination was dropped for a record that did not move")
	}
	if r, ok, _ := s.Lookup(ctx, "/d/elsewhere.txt"); !ok || r.ID != elsewhere {
		t.Fatal("a record not at its expected path was moved")
	}
}

func TestDocFreqsAndQueueRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/a", "roof leak", "roof tiles")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/b", "garden")); err != nil {
		t.Fatal(err)
	}
	docs, df, err := s.DocFreqs(ctx, []string{"roof", "garden", "absent"})
	if err != nil || docs != 2 || df["roof"] != 1 || df["garden"] != 1 || df["absent"] != 0 {
		t.Fatalf("docs %d df %v err %v", docs, df, err)
	}
	now := time.Unix(1_700_000_000, 500_000_000)
	rows := []QueueRow{{ID: "u1", Path: "/d/x", Dest: "/d/y", Action: "move", DirID: d.ID, EnqueuedAt: now, ReadyAt: now, Retries: 2, LastError: "busy"}}
	if err := s.SaveQueue(ctx, rows); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadQueue(ctx)
	if err != nil || len(got) != 1 || got[0].Dest != "/d/y" || got[0].Retries != 2 || got[0].ReadyAt.Sub(now).Abs() > time.Millisecond {
		t.Fatalf("loaded %+v %v", got, err)
	}
}

func TestPathsUnderUsesWholeComponents(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	for _, p := range []string{"/d/notes/a", "/d/notes/sub/b", "/d/notes-old/c", "/d/notesx"} {
		if _, err := s.PutDocument(ctx, doc(d.ID, p, "x")); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.PathsUnder(ctx, "/d/notes")
	if len(got) != 2 {
		t.Fatalf("PathsUnder = %v", got)
	}
}

func TestPassageCountFollowsWrites(t *testing.T) {
	s, dir := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/a", "one", "two", "three")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/b", "four")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/a", "one again")); err != nil {
		t.Fatal(err)
	}
	s.DeleteFileByPath(ctx, "/d/b")
	if n := s.PassageCount(); n != 1 || n != count(t, s, "chunks") || s.DocCount() != 1 {
		t.Fatalf("passages %d, table %d, docs %d", n, count(t, s, "chunks"), s.DocCount())
	}
	s.Close()
	s2, _ := Open(dir)
	defer s2.Close()
	if s2.PassageCount() != 1 {
		t.Fatal("count not restored at open")
	}
}

func TestConcurrentPutsAreCommittedTogetherAndWhole(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	const n = 64
	ids := make(chan int64, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			id, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/d/f%02d", i), "alpha", "beta"))
			ids <- id
			errs <- err
		}()
	}
	seen := map[int64]bool{}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		seen[<-ids] = true
	}
	if len(seen) != n || count(t, s, "files") != n || count(t, s, "chunks") != 2*n || s.PassageCount() != 2*n {
		t.Fatalf("ids %d files %d chunks %d", len(seen), count(t, s, "files"), count(t, s, "chunks"))
	}
}

func TestABadDocumentDoesNotFailItsBatch(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	good := doc(d.ID, "/d/good", "fine")
	bad := doc(9999, "/d/bad", "orphan") // no such folder: the foreign key refuses it
	done := make(chan error, 2)
	go func() { _, err := s.PutDocument(ctx, good); done <- err }()
	go func() { _, err := s.PutDocument(ctx, bad); done <- err }()
	var failed int
	for range 2 {
		if <-done != nil {
			failed++
		}
	}
	if failed != 1 || count(t, s, "files") != 1 {
		t.Fatalf("failed %d, files %d", failed, count(t, s, "files"))
	}
}

// A batch is one full-text segment per table: a savepoint between a file's
// text and the next file's rows would make FTS5 flush a segment per file.
func TestPutDocumentsWritesOneSegmentPerBatch(t *testing.T) {
	s, _ := openTemp(t)
	d, err := s.AddDirectory(ctx, "/notes", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// An existing file too, so the batch also replaces (clears) content.
	if _, err := s.PutDocument(ctx, doc(d.ID, "/old.txt", "first version")); err != nil {
		t.Fatal(err)
	}
	before := map[string]int{"fts_content": segments(t, s, "fts_content"), "fts_files": segments(t, s, "fts_files")}
	var docs []Document
	for i := range 12 {
		docs = append(docs, doc(d.ID, fmt.Sprintf("/f%02d.txt", i), fmt.Sprintf("passage about topic%d", i)))
		if i == 5 { // a file indexed again keeps its lower id
			docs = append(docs, doc(d.ID, "/old.txt", "second version"))
		}
	}
	if _, err := s.PutDocuments(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for table, n := range before {
		if got := segments(t, s, table); got != n+1 {
			t.Errorf("%s: %d segments after one batch, had %d before", table, got, n)
		}
	}
	if got := count(t, s, "files"); got != 13 {
		t.Errorf("%d files, want 13", got)
	}
}

// segments counts a full-text table's segments (distinct ids in its
// segment index).
func segments(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.wdb().QueryRow(`SELECT COUNT(DISTINCT segid) FROM ` + table + `_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Counts cached for the enricher while a folder is first indexed do not
// reach ranking: its counts follow the index as it grows.
func TestRankDocFreqsFollowTheIndex(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	if _, err := s.PutDocument(ctx, doc(d.ID, "/d/a", "roof leak")); err != nil {
		t.Fatal(err)
	}
	for _, get := range []func(context.Context, []string) (int, map[string]int, error){s.DocFreqs, s.RankDocFreqs} {
		if _, df, err := get(ctx, []string{"roof"}); err != nil || df["roof"] != 1 {
			t.Fatalf("df %v err %v", df, err)
		}
	}
	for i := range 9 {
		if _, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/d/roof%d", i), "roof tiles")); err != nil {
			t.Fatal(err)
		}
	}
	if _, df, _ := s.DocFreqs(ctx, []string{"roof"}); df["roof"] != 1 {
		t.Fatalf("the enricher's count is cached: %v", df)
	}
	docs, df, err := s.RankDocFreqs(ctx, []string{"roof"})
	if err != nil || docs != 10 || df["roof"] != 10 {
		t.Fatalf("ranking counts %d of %d files, want 10 of 10 (err %v)", df["roof"], docs, err)
	}
	// The enricher's counts are read again once the folder has grown past
	// a few files: counts from a nearly empty index would choose the
	// keywords of the files indexed next, differently on every run.
	for i := range 20 {
		if _, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/d/more%d", i), "roof beams")); err != nil {
			t.Fatal(err)
		}
	}
	if _, df, _ := s.DocFreqs(ctx, []string{"roof"}); df["roof"] != 30 {
		t.Fatalf("the enricher's count after 30 files is %d, want 30", df["roof"])
	}
}

// Ranking's counts follow an index whose files are edited or removed as
// they follow one that grows: its size alone does not tell.
func TestRankDocFreqsFollowEditsAndRemovals(t *testing.T) {
	s, _ := openTemp(t)
	d, _ := s.AddDirectory(ctx, "/d", true, "", time.Now())
	for i := range 10 {
		if _, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/d/roof%d", i), "roof tiles")); err != nil {
			t.Fatal(err)
		}
	}
	rank := func() int {
		t.Helper()
		_, df, err := s.RankDocFreqs(ctx, []string{"roof"})
		if err != nil {
			t.Fatal(err)
		}
		return df["roof"]
	}
	if n := rank(); n != 10 {
		t.Fatalf("df %d, want 10", n)
	}
	for i := range 5 { // the same number of files, five without the word
		if _, err := s.PutDocument(ctx, doc(d.ID, fmt.Sprintf("/d/roof%d", i), "slate")); err != nil {
			t.Fatal(err)
		}
	}
	if n := rank(); n != 5 {
		t.Fatalf("after edits df %d, want 5", n)
	}
	for i := 5; i < 10; i++ {
		if _, err := s.DeleteFileByPath(ctx, fmt.Sprintf("/d/roof%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := rank(); n != 0 {
		t.Fatalf("after removals df %d, want 0", n)
	}
}

// BestPassages chooses, among a file's first passages, the one holding
// the most of the words (in any case, as substrings), the first of
// equals, and returns its text; a file none of whose passages holds a
// word is absent.
func TestBestPassagesChooseByWords(t *testing.T) {
	s, dir := openWithDir(t, "/notes")
	a, err := s.PutDocument(ctx, doc(dir, "/a.txt",
		"nothing to see",
		"a LEAK in the pipe",
		"Leaking water; the ÉCOLE roof",
		"the leak at the école, leaking again",
		"leak, école and roof: all three, but too far in"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.PutDocument(ctx, doc(dir, "/b.txt", "no words here", "nor here"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.PutDocument(ctx, doc(dir, "/c.txt", "intro", "one roof", "another roof"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.BestPassages(ctx, []int64{a, b, c}, []string{"leak", "école", "roof"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]Passage{a: {Ord: 2, Text: "Leaking water; the ÉCOLE roof"}, c: {Ord: 1, Text: "one roof"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestPassagePages: a passage's pages are kept with it and read back by
// every reader of passages; a passage without pages reads none, and the
// whole text places each page where its passage stands in it.
func TestPassagePages(t *testing.T) {
	s, dir := openWithDir(t, "/docs")
	d := doc(dir, "/docs/report.pdf", "intro on page one", "leak on page two, roof on page three", "no pages")
	d.Chunks[0].Pages = core.Pages{{At: 0, Page: 1}}
	d.Chunks[1].Pages = core.Pages{{At: 0, Page: 2}, {At: 17, Page: 3}}
	id, err := s.PutDocument(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Passages(ctx, []PassageKey{{id, 1}, {id, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[PassageKey{id, 1}].Pages; !slices.Equal(p, d.Chunks[1].Pages) {
		t.Errorf("Passages: pages %v, want %v", p, d.Chunks[1].Pages)
	}
	if p := got[PassageKey{id, 2}].Pages; p != nil {
		t.Errorf("a passage without pages read %v", p)
	}
	best, err := s.BestPassages(ctx, []int64{id}, []string{"roof"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if p := best[id].Pages; !slices.Equal(p, d.Chunks[1].Pages) {
		t.Errorf("BestPassages: pages %v", p)
	}
	whole, err := s.FileText(ctx, id, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for word, page := range map[string]int{"intro": 1, "leak": 2, "roof": 3, "pages": 0} {
		if got := whole.Pages.At(strings.Index(whole.Text, word)); got != page {
			t.Errorf("FileText: %q on page %d, want %d (%v)", word, got, page, whole.Pages)
		}
	}
}

// A file system that records no creation time gives a zero Created: it is
// stored as 0 and read back as zero (shown as null), not as 1970 or as
// the overflow of a zero time's nanoseconds.
func TestUnknownCreationTimeStaysUnknown(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	d := doc(dirID, "/notes/a.txt", "text")
	d.File.Created = time.Time{}
	id, err := s.PutDocument(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	var ns int64
	if err := s.rdb().QueryRow(`SELECT created_ns FROM files WHERE id = ?`, id).Scan(&ns); err != nil || ns != 0 {
		t.Fatalf("created_ns %d %v", ns, err)
	}
	f, err := s.File(ctx, id)
	if err != nil || !f.Created.IsZero() {
		t.Fatalf("created %v %v", f.Created, err)
	}
	if err := s.Touch(ctx, id, f); err != nil {
		t.Fatal(err)
	}
	if f, _ = s.File(ctx, id); !f.Created.IsZero() {
		t.Fatalf("after touch: created %v", f.Created)
	}
}
