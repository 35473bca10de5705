package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/enrich"
	"trove/backend/engine/extract"
	"trove/backend/engine/filters"
	"trove/backend/engine/scan"
	"trove/backend/engine/settings"
	"trove/backend/store"
)

// Unit tests of the pipeline on a fake of Records (the store's part it
// uses) and a counting extractor; the files are real ones in a temporary
// folder. pipeline_test.go runs the same code on a real index.

type fakeRecords struct {
	mu      sync.Mutex
	byPath  map[string]store.Record
	docs    map[string]store.Document
	failed  map[string]core.File
	moves   []store.Move
	touched []int64
	nextID  int64
	putErr  error
}

func newFakeRecords() *fakeRecords {
	return &fakeRecords{byPath: map[string]store.Record{}, docs: map[string]store.Document{}, failed: map[string]core.File{}}
}

func (f *fakeRecords) Lookup(_ context.Context, path string) (store.Record, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.byPath[path]
	return r, ok, nil
}

func (f *fakeRecords) ByHash(_ context.Context, hash string, size int64) ([]store.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.Record
	for _, r := range f.byPath {
		if r.ContentHash == hash && r.Size == size {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeRecords) PathsUnder(_ context.Context, dir string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for p := range f.byPath {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *fakeRecords) PutDocument(_ context.Context, doc store.Document) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.putErr != nil {
		return 0, f.putErr
	}
	r, ok := f.byPath[doc.File.Path]
	if !ok {
		f.nextID++
		r.ID = f.nextID
	}
	m := doc.File
	r.DirID, r.Path, r.Size, r.ModNs, r.ContentHash = m.DirID, m.Path, m.Size, m.Modified.UnixNano(), m.ContentHash
	r.State, r.EmbedModel, r.EnrichBy = core.StateIndexed, doc.EmbedModel, doc.EnrichBy
	f.byPath[m.Path], f.docs[m.Path] = r, doc
	return r.ID, nil
}

func (f *fakeRecords) PutFailed(_ context.Context, m core.File) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.failed[m.Path] = m
	f.byPath[m.Path] = store.Record{ID: f.nextID, DirID: m.DirID, Path: m.Path, State: core.StateFailed, Error: m.Error}
	return f.nextID, nil
}

func (f *fakeRecords) PutNames(_ context.Context, names []store.Name) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	added := 0
	for _, n := range names {
		m := n.File
		if _, ok := f.byPath[m.Path]; ok {
			continue
		}
		f.nextID++
		f.byPath[m.Path] = store.Record{ID: f.nextID, DirID: m.DirID, Path: m.Path, Size: m.Size, ModNs: m.Modified.UnixNano(), State: m.State}
		added++
	}
	return added, nil
}

func (f *fakeRecords) Touch(_ context.Context, id int64, m core.File) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.touched = append(f.touched, id)
	r := f.byPath[m.Path]
	r.ModNs = m.Modified.UnixNano()
	f.byPath[m.Path] = r
	return nil
}

func (f *fakeRecords) MoveFiles(_ context.Context, moves []store.Move) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	moved := 0
	for _, m := range moves {
		for p, r := range f.byPath {
			if r.ID == m.ID && (m.From == "" || m.From == p) {
				delete(f.byPath, p)
				r.Path, r.DirID = m.Path, m.DirID
				f.byPath[m.Path] = r
				moved++
			}
		}
	}
	f.moves = append(f.moves, moves...)
	return moved, nil
}

func (f *fakeRecords) DeleteFileByPath(_ context.Context, path string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.byPath[path]
	if !ok {
		return 0, nil
	}
	delete(f.byPath, path)
	return r.ID, nil
}

type published struct {
	typ  string
	data core.EventData
}

type unitRig struct {
	p        *Pipeline
	recs     *fakeRecords
	folder   Folder
	extracts int
	mu       sync.Mutex
	events   []published
}

func newUnitRig(t *testing.T) *unitRig {
	t.Helper()
	u := &unitRig{recs: newFakeRecords(), folder: Folder{ID: 1, Folder: scan.Folder{Root: t.TempDir(), Recursive: true}}}
	cfg := settings.Defaults()
	matcher := filters.NewMatcher("blacklist", nil, []string{"*.bak"})
	var enricher enrich.Enricher = enrich.NewBuiltin(nil)
	var embedder embedding.Embedder = tinyEmbedder{}
	u.p = New(Deps{
		Store: u.recs, Settings: func() core.Settings { return cfg },
		Matcher: func() *filters.Matcher { return matcher },
		Extract: func(ctx context.Context, path string, opt extract.Options) (extract.Document, error) {
			u.mu.Lock()
			u.extracts++
			u.mu.Unlock()
			return extract.Extract(ctx, path, opt)
		},
		Enricher: func() enrich.Enricher { return enricher },
		Embedder: func() embedding.Embedder { return embedder },
		Publish: func(data core.EventData) {
			u.mu.Lock()
			defer u.mu.Unlock()
			u.events = append(u.events, published{data.EventKind(), data})
		},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	return u
}

func (u *unitRig) write(t *testing.T, rel, text string) string {
	t.Helper()
	p := filepath.Join(u.folder.Root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (u *unitRig) kinds() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, e := range u.events {
		out = append(out, e.typ)
	}
	return out
}

func (u *unitRig) last() published {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.events[len(u.events)-1]
}

func TestUnitIndexWritesOneDocumentAndSkipsItWhenUnchanged(t *testing.T) {
	u := newUnitRig(t)
	p := u.write(t, "notes/roof.txt", "The roof leaks above the bedroom.")
	if err := u.p.Index(t.Context(), u.folder, p); err != nil {
		t.Fatal(err)
	}
	doc, ok := u.recs.docs[p]
	if !ok || len(doc.Chunks) == 0 || doc.Chunks[0].Vec == nil || doc.Rel != "notes/"+doc.File.Filename || doc.File.DirID != 1 {
		t.Fatalf("document %+v", doc)
	}
	if e := u.last(); e.data != (core.FileIndexed{ID: 1, Path: p, DirID: 1, Title: "Roof", Warning: ""}) {
		t.Errorf("event %+v", e)
	}
	if err := u.p.Index(t.Context(), u.folder, p); err != nil || u.extracts != 1 {
		t.Errorf("an unchanged file was read again (%d extractions, %v)", u.extracts, err)
	}
	// Only the time changed: the record is touched, the text not read.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if err := u.p.Index(t.Context(), u.folder, p); err != nil || u.extracts != 1 || len(u.recs.touched) != 1 {
		t.Errorf("a touched file: %d extractions, touched %v, %v", u.extracts, u.recs.touched, err)
	}
}

func TestUnitIndexDropsWhatTheFolderNoLongerWants(t *testing.T) {
	u := newUnitRig(t)
	p := u.write(t, "old.bak", "backup")
	u.recs.byPath[p] = store.Record{ID: 5, Path: p, State: core.StateIndexed}
	if err := u.p.Index(t.Context(), u.folder, p); err != nil {
		t.Fatal(err)
	}
	if _, still := u.recs.byPath[p]; still || u.extracts != 0 {
		t.Errorf("an excluded file stays (%v) or was read (%d)", still, u.extracts)
	}
	if e := u.last(); e.data != (core.FileRemoved{ID: 5, Path: p}) {
		t.Errorf("event %+v", e)
	}
	flat := u.folder
	flat.Recursive = false
	deep := u.write(t, "a/deep.txt", "deep")
	if err := u.p.Index(t.Context(), flat, deep); err != nil || u.extracts != 0 {
		t.Errorf("a file below a non-recursive folder was read: %d, %v", u.extracts, err)
	}
	// Deleting what the index does not hold says nothing.
	n := len(u.kinds())
	if err := u.p.Delete(t.Context(), "/nowhere"); err != nil || len(u.kinds()) != n {
		t.Errorf("a no-op delete published %v (%v)", u.kinds()[n:], err)
	}
}

// A rename of an unchanged file moves its record; nothing is read again.
func TestUnitMoveRenamesTheRecord(t *testing.T) {
	u := newUnitRig(t)
	from := u.write(t, "a.txt", "alpha beta")
	if err := u.p.Index(t.Context(), u.folder, from); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(u.folder.Root, "sub", "b.txt")
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	if err := u.p.Move(t.Context(), u.folder, from, to); err != nil {
		t.Fatal(err)
	}
	if u.extracts != 1 || len(u.recs.moves) != 1 || u.recs.moves[0].Path != to || u.recs.moves[0].Rel != "sub/"+filepath.Base(to) {
		t.Fatalf("extractions %d, moves %+v", u.extracts, u.recs.moves)
	}
	if e := u.last(); e.data != (core.FileMoved{ID: 1, From: from, To: to, DirID: 1, Files: 1}) {
		t.Errorf("event %+v", e)
	}
	// A move whose target is gone removes the source.
	if err := u.p.Move(t.Context(), u.folder, to, filepath.Join(u.folder.Root, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if _, ok := u.recs.byPath[to]; ok {
		t.Error("the record of a file moved away and deleted stays")
	}
	// A move onto changed content indexes the new file.
	src := u.write(t, "c.txt", "gamma")
	u.p.Index(t.Context(), u.folder, src)
	dst := u.write(t, "d.txt", "delta, longer than before")
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	if err := u.p.Move(t.Context(), u.folder, src, dst); err != nil || u.extracts != 3 {
		t.Errorf("a move onto new content: %d extractions, %v", u.extracts, err)
	}
	if _, ok := u.recs.byPath[src]; ok {
		t.Error("the old path stays")
	}
}

func TestUnitMoveTreeMovesEveryRecordBelow(t *testing.T) {
	u := newUnitRig(t)
	root := u.folder.Root
	for i, rel := range []string{"old/a.txt", "old/x/b.txt", "older/c.txt"} {
		p := filepath.Join(root, rel)
		u.recs.byPath[p] = store.Record{ID: int64(i + 1), Path: p, State: core.StateIndexed}
	}
	n, err := u.p.MoveTree(t.Context(), u.folder, filepath.Join(root, "old"), filepath.Join(root, "new"))
	if err != nil || n != 2 {
		t.Fatalf("moved %d, %v", n, err)
	}
	for _, rel := range []string{"new/a.txt", "new/x/b.txt", "older/c.txt"} {
		if _, ok := u.recs.byPath[filepath.Join(root, rel)]; !ok {
			t.Errorf("%s not in the index: %v", rel, u.recs.byPath)
		}
	}
	if e := u.last(); e.data != (core.FileMoved{From: filepath.Join(root, "old"), To: filepath.Join(root, "new"), DirID: 1, Files: 2}) {
		t.Errorf("event %+v", e)
	}
	if n, _ := u.p.MoveTree(t.Context(), u.folder, filepath.Join(root, "none"), filepath.Join(root, "else")); n != 0 || len(u.kinds()) != 1 {
		t.Errorf("an empty tree move: %d, events %v", n, u.kinds())
	}
}

// A file that reappears under a new name while Trove was not looking is
// recognised by its content and keeps its record.
func TestUnitAdoptsAFileMovedWhileAway(t *testing.T) {
	u := newUnitRig(t)
	p := u.write(t, "first.txt", "the same words")
	if err := u.p.Index(t.Context(), u.folder, p); err != nil {
		t.Fatal(err)
	}
	id := u.recs.byPath[p].ID
	moved := filepath.Join(u.folder.Root, "second.txt")
	if err := os.Rename(p, moved); err != nil {
		t.Fatal(err)
	}
	if err := u.p.Index(t.Context(), u.folder, moved); err != nil {
		t.Fatal(err)
	}
	if r, ok := u.recs.byPath[moved]; !ok || r.ID != id || u.extracts != 1 {
		t.Errorf("record %+v (want id %d), %d extractions", r, id, u.extracts)
	}
}

func TestUnitFailuresAreRecordedWithTheirCause(t *testing.T) {
	u := newUnitRig(t)
	p := u.write(t, "bad.txt", "x")
	if err := u.p.RecordFailure(t.Context(), 1, p, &os.PathError{Op: "open", Path: p, Err: os.ErrPermission}); err != nil {
		t.Fatal(err)
	}
	if f := u.recs.failed[p]; f.Error != "open: permission denied" || f.Size != 1 {
		t.Errorf("failed record %+v", f)
	}
	if e := u.last(); e.data != (core.FileFailed{ID: 1, Path: p, DirID: 1, Error: "open: permission denied"}) {
		t.Errorf("event %+v", e)
	}
	// A failure of a file that is gone removes it instead.
	gone := filepath.Join(u.folder.Root, "gone.txt")
	u.recs.byPath[gone] = store.Record{ID: 99, Path: gone}
	if err := u.p.RecordFailure(t.Context(), 1, gone, errors.New("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := u.recs.failed[gone]; ok {
		t.Error("a vanished file was recorded as failed")
	}
	// A write that fails is the item's error, to be retried.
	u.recs.putErr = errors.New("disk says no")
	q := u.write(t, "q.txt", "quiet")
	if err := u.p.Index(t.Context(), u.folder, q); err == nil || !strings.Contains(err.Error(), "disk says no") {
		t.Errorf("a failing write: %v", err)
	}
}

func TestUnitConcurrencyCanChange(t *testing.T) {
	u := newUnitRig(t)
	u.p.SetConcurrency(1)
	ctx, cancel := context.WithCancel(t.Context())
	release, err := u.p.cpu.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	// With the context already ended, a free slot and the end are both
	// ready and select picks either at random: asking many times makes a
	// wrongly free slot show.
	for range 32 {
		if _, err := u.p.cpu.acquire(ctx); err == nil {
			t.Fatal("a second slot was given with one allowed")
		}
	}
	release()
	u.p.SetConcurrency(2)
	r1, err1 := u.p.cpu.acquire(t.Context())
	r2, err2 := u.p.cpu.acquire(t.Context())
	if err1 != nil || err2 != nil {
		t.Fatalf("two slots: %v %v", err1, err2)
	}
	r1()
	r2()
}

// TestUnitPassagesKeepTheirPages: each passage carries the pages of the
// text it was cut from, counted from its own start; the metadata lines
// after the text have none, and a text without pages gives none.
func TestUnitPassagesKeepTheirPages(t *testing.T) {
	var text string
	var pages core.Pages
	for n := 1; n <= 3; n++ { // about 2100 bytes a page, each sentence once
		pages = pages.Add(len(text), n)
		for i := range 60 {
			text += fmt.Sprintf("Line %d of page %d was read. ", i, n)
		}
		text += "\n\n"
	}
	doc := extract.Document{Text: text, Pages: pages, Meta: map[string]string{"author": "Ada"}}
	chunks := chunkText(withMetadata(doc), doc.Pages, len(doc.Text))
	if len(chunks) < 3 {
		t.Fatalf("%d passages", len(chunks))
	}
	at := 0
	for i, c := range chunks {
		at = strings.Index(withMetadata(doc)[at:], c.Text) + at
		if strings.HasPrefix(c.Text, "author:") {
			if c.Pages != nil {
				t.Errorf("the metadata passage has pages %v", c.Pages)
			}
			continue
		}
		if got, want := c.Pages.At(0), pages.At(at); got != want {
			t.Errorf("passage %d starts on page %d, want %d", i, got, want)
		}
		if got, want := c.Pages.At(len(c.Text)-1), pages.At(at+len(c.Text)-1); got != want {
			t.Errorf("passage %d ends on page %d, want %d", i, got, want)
		}
	}
	for _, c := range chunkText("plain words", nil, len("plain words")) {
		if c.Pages != nil {
			t.Errorf("a text without pages: %v", c.Pages)
		}
	}
}
