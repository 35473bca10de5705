package service

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

	"github.com/ncruces/go-sqlite3"

	"trove/backend/core"
	"trove/backend/engine/events"
	"trove/backend/engine/filters"
	"trove/backend/engine/indexer"
	"trove/backend/engine/queue"
	"trove/backend/engine/search"
	"trove/backend/engine/settings"
	"trove/backend/platform/fileread"
	"trove/backend/platform/launch"
	"trove/backend/store"
)

// Unit tests of the service on fakes of the interfaces it declares (Index,
// Indexing, Searcher); the settings, filters and event bus are the real
// ones on temporary folders. The integration tests beside these run the
// whole backend over HTTP.

type fakeIndex struct {
	SavedIndex // saved searches are tested on a real index
	mu         sync.Mutex
	files      map[int64]core.File
	dirs       []core.WatchedDirectory
	paths      []store.FilePath
	deleted    []int64
	err        error // returned by every read when set
	active     int
}

func (f *fakeIndex) CountActiveDirectories(context.Context) (int, error) { return f.active, f.err }
func (f *fakeIndex) Stats(context.Context) (core.FileStats, error) {
	return core.FileStats{TotalFiles: int64(len(f.files))}, f.err
}

func (f *fakeIndex) File(_ context.Context, id int64) (core.File, error) {
	if f.err != nil {
		return core.File{}, f.err
	}
	if file, ok := f.files[id]; ok {
		return file, nil
	}
	return core.File{}, core.Fail(core.UnknownFile, "no file %d", id)
}

func (f *fakeIndex) FileByPath(_ context.Context, path string) (core.File, error) {
	for _, file := range f.files {
		if file.Path == path {
			return file, f.err
		}
	}
	return core.File{}, core.Fail(core.UnknownFile, "no file %s", path)
}

func (f *fakeIndex) Directory(_ context.Context, id int64) (core.WatchedDirectory, error) {
	for _, d := range f.dirs {
		if d.ID == id {
			return d, nil
		}
	}
	return core.WatchedDirectory{}, core.Fail(core.UnknownFolder, "no folder %d", id)
}

func (f *fakeIndex) Directories(context.Context) ([]core.WatchedDirectory, error) {
	return slices.Clone(f.dirs), f.err
}

func (f *fakeIndex) Problems(_ context.Context, dirID int64, limit int) ([]core.File, int, error) {
	var out []core.File
	for _, file := range f.files {
		if file.DirID == dirID && file.Error != "" {
			out = append(out, file)
		}
	}
	return out[:min(limit, len(out))], len(out), nil
}

func (f *fakeIndex) FilePaths(context.Context) ([]store.FilePath, error) { return f.paths, f.err }
func (f *fakeIndex) DeleteFiles(_ context.Context, ids []int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, ids...)
	return len(ids), nil
}

type fakeIndexing struct {
	offline    map[int64]bool // folders whose drive or share is not there
	mu         sync.Mutex
	watched    []string
	opts       []indexer.Options
	unwatched  []int64
	rescans    int
	damaged    []error
	rebuildCtx context.Context
	q          *queue.Queue
}

func (f *fakeIndexing) Watch(_ context.Context, path string, opt indexer.Options) (core.WatchedDirectory, int, error) {
	f.watched, f.opts = append(f.watched, path), append(f.opts, opt)
	return core.WatchedDirectory{ID: 7, Path: path, Status: core.DirWatching}, 3, nil
}
func (f *fakeIndexing) Unwatch(_ context.Context, id int64) error {
	f.unwatched = append(f.unwatched, id)
	return nil
}
func (f *fakeIndexing) Status(d core.WatchedDirectory) core.WatchedDirectory {
	d.Status, d.StatusMessage = core.DirIndexing, "live"
	return d
}
func (f *fakeIndexing) RescanAll(bool) {
	f.mu.Lock()
	f.rescans++
	f.mu.Unlock()
}
func (f *fakeIndexing) Queue() *queue.Queue           { return f.q }
func (f *fakeIndexing) QueueStatus() core.QueueStatus { return f.q.Status() }
func (f *fakeIndexing) Health() core.IndexHealth      { return core.IndexHealth{Status: core.IndexOK} }
func (f *fakeIndexing) Damaged(err error)             { f.damaged = append(f.damaged, err) }
func (f *fakeIndexing) DamagedError() error           { return core.Fail(core.DamagedIndex, "damaged") }
func (f *fakeIndexing) Offline(dirID int64) bool      { return f.offline[dirID] }

func (f *fakeIndexing) Rebuild(ctx context.Context) (int, error) {
	f.rebuildCtx = ctx
	return 2, nil
}

// fakeSearcher answers with its results, or blocks until the search's
// context ends when block is set.
type fakeSearcher struct {
	results []search.Result
	err     error
	block   bool
	calls   int
}

func (f *fakeSearcher) Search(ctx context.Context, req search.Request) ([]search.Result, error) {
	f.calls++
	if f.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.results, f.err
}

// SearchPage pages through the same results, every one a group of its own.
func (f *fakeSearcher) SearchPage(ctx context.Context, req search.PageRequest) (search.Page, error) {
	res, err := f.Search(ctx, req.Request)
	if err != nil {
		return search.Page{}, err
	}
	page := search.Page{Total: len(res), Groups: len(res)}
	for _, r := range res[min(req.Offset, len(res)):] {
		page.Results = append(page.Results, search.PageResult{Result: r})
	}
	return page, nil
}

func (f *fakeSearcher) Preview(context.Context, int64, string) (search.Preview, error) {
	return search.Preview{}, f.err
}

type fakeOpener struct {
	opened, revealed []string
	err              error
}

func (o *fakeOpener) Open(p string) error   { o.opened = append(o.opened, p); return o.err }
func (o *fakeOpener) Reveal(p string) error { o.revealed = append(o.revealed, p); return o.err }

type unit struct {
	svc    *Service
	index  *fakeIndex
	ix     *fakeIndexing
	search *fakeSearcher
	bus    *events.Bus
	clock  time.Time
}

func newUnit(t *testing.T) *unit {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	set, err := settings.Open(t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	flt, err := filters.Open(t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	u := &unit{
		index:  &fakeIndex{files: map[int64]core.File{}},
		ix:     &fakeIndexing{q: queue.New(queue.Config{Concurrency: 1}, func(context.Context, queue.Item) error { return nil }, queue.Hooks{})},
		search: &fakeSearcher{},
		bus:    events.New(log),
		clock:  time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC),
	}
	u.svc = New(Deps{Store: u.index, Settings: set, Filters: flt, Bus: u.bus, Indexer: u.ix, Search: u.search,
		Log: log, Version: "1.2.3", Now: func() time.Time { return u.clock }})
	return u
}

func wantCode(t *testing.T, what string, err error, kind error, f *core.Fault) {
	t.Helper()
	if !errors.Is(err, kind) || !errors.Is(err, f) {
		t.Errorf("%s: %v, want %v (%v)", what, err, f, kind)
	}
}

func TestUnitStatusCountsFoldersAndUptime(t *testing.T) {
	u := newUnit(t)
	u.index.active = 3
	u.clock = u.clock.Add(90 * time.Second)
	st, err := u.svc.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Jobs != 3 || st.Version != "1.2.3" || st.UptimeSeconds != 90 || st.Index.Status != core.IndexOK || st.Embedding.State != core.EmbeddingOK {
		t.Errorf("status %+v", st)
	}
}

// A read that finds the index damaged is reported to the indexer (for the
// status) and answered with the error that names the way out.
func TestUnitDamagedReadsBecomeIndexDamaged(t *testing.T) {
	u := newUnit(t)
	u.index.err = fmt.Errorf("read row: %w", sqlite3.CORRUPT)
	_, err := u.svc.File(t.Context(), 1)
	wantCode(t, "File", err, core.ErrUnavailable, core.DamagedIndex)
	_, err = u.svc.FileByPath(t.Context(), "/x")
	if err == nil {
		t.Error("FileByPath of an unknown path: no error")
	}
	_, err = u.svc.FileStats(t.Context())
	wantCode(t, "FileStats", err, core.ErrUnavailable, core.DamagedIndex)
	// The file actions read the record the same way.
	_, err = u.svc.OpenFile(t.Context(), 1, false)
	wantCode(t, "OpenFile", err, core.ErrUnavailable, core.DamagedIndex)
	_, err = u.svc.OpenWith(t.Context(), 1, "x.desktop")
	wantCode(t, "OpenWith", err, core.ErrUnavailable, core.DamagedIndex)
	_, err = u.svc.Apps(t.Context(), 1)
	wantCode(t, "Apps", err, core.ErrUnavailable, core.DamagedIndex)
	_, _, err = u.svc.Image(t.Context(), 1)
	wantCode(t, "Image", err, core.ErrUnavailable, core.DamagedIndex)
	if len(u.ix.damaged) != 6 {
		t.Errorf("the indexer heard of %d damaged reads, want 6", len(u.ix.damaged))
	}
	u.index.err = errors.New("plain failure")
	if _, err := u.svc.FileStats(t.Context()); err == nil || errors.Is(err, core.DamagedIndex) {
		t.Errorf("an ordinary error became %v", err)
	}
}

func TestUnitProblemsOfAnUnknownFolder(t *testing.T) {
	u := newUnit(t)
	u.index.dirs = []core.WatchedDirectory{{ID: 1, Path: "/a"}}
	u.index.files[1] = core.File{ID: 1, DirID: 1, Path: "/a/x.pdf", Error: "encrypted"}
	u.index.files[2] = core.File{ID: 2, DirID: 1, Path: "/a/y.txt"}
	if _, _, err := u.svc.Problems(t.Context(), 9, 10); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("problems of folder 9: %v, want not found", err)
	}
	files, total, err := u.svc.Problems(t.Context(), 1, 10)
	if err != nil || total != 1 || len(files) != 1 || files[0].ID != 1 {
		t.Errorf("problems of folder 1: %v %d %v", files, total, err)
	}
}

func TestUnitOpenFile(t *testing.T) {
	u := newUnit(t)
	dir := t.TempDir()
	u.index.dirs = []core.WatchedDirectory{{ID: 1, Path: dir}}
	on := filepath.Join(dir, "here.txt")
	u.index.files[1] = indexedAs(t, 1, on, "x")
	u.index.files[2] = core.File{ID: 2, DirID: 1, Path: filepath.Join(dir, "gone.txt")}

	_, err := u.svc.OpenFile(t.Context(), 1, false)
	wantCode(t, "no opener", err, core.ErrInvalid, core.NoOpener)
	op := &fakeOpener{}
	u.svc.opener = op
	_, err = u.svc.OpenFile(t.Context(), 2, false)
	wantCode(t, "a file gone from disk", err, core.ErrNotFound, core.FileGone)
	if _, err := u.svc.OpenFile(t.Context(), 3, false); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("an unknown id: %v", err)
	}
	if p, err := u.svc.OpenFile(t.Context(), 1, false); err != nil || p != on || len(op.opened) != 1 {
		t.Errorf("open: %q %v %v", p, err, op.opened)
	}
	if _, err := u.svc.OpenFile(t.Context(), 1, true); err != nil || len(op.revealed) != 1 {
		t.Errorf("reveal: %v %v", err, op.revealed)
	}
	for cause, code := range map[error]*core.Fault{
		launch.ErrNoApplication: core.NoApplication, launch.ErrNoOpener: core.NoOpener, errors.New("exit 3"): core.OpenFailed,
	} {
		op.err = cause
		_, err := u.svc.OpenFile(t.Context(), 1, false)
		wantCode(t, cause.Error(), err, core.ErrInvalid, code)
	}
}

// indexedAs writes a file and returns its record as the pipeline makes
// it, in folder 1.
func indexedAs(t *testing.T, id int64, path, text string) core.File {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	f := core.File{ID: id, DirID: 1, Path: path, Size: st.Size(), Modified: st.ModTime(), Mime: "image/png", State: core.StateIndexed}
	f.Device, f.Inode = fileread.Identity(st)
	return f
}

// Opening and the image hand over only the file that was indexed: not a
// link, nor another file, put at its path since (ondisk.go).
func TestUnitActionsRefuseAFileSwappedIn(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("not for the preview"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		swap       func(path string) error
		open, view *core.Fault // the faults of opening and of the image; nil for success
	}{
		{"as indexed", func(string) error { return nil }, nil, nil},
		{"a symbolic link put in its place", func(p string) error {
			return errors.Join(os.Remove(p), os.Symlink(secret, p))
		}, core.FileGone, core.FileGone},
		{"another file moved over it", func(p string) error {
			other := p + ".new"
			return errors.Join(os.WriteFile(other, []byte("other bytes"), 0o644), os.Rename(other, p))
		}, core.FileGone, core.FileGone},
		{"another file hard-linked over it", func(p string) error {
			tmp := p + ".link"
			return errors.Join(os.Link(secret, tmp), os.Rename(tmp, p))
		}, core.FileGone, core.FileGone},
		{"a folder in its place", func(p string) error { return errors.Join(os.Remove(p), os.Mkdir(p, 0o755)) }, core.FileGone, core.FileGone},
		{"gone", os.Remove, core.FileGone, core.FileGone},
		{"edited in place", func(p string) error {
			return os.WriteFile(p, []byte("\x89PNG edited, longer"), 0o644)
		}, nil, core.FileChanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := newUnit(t)
			u.svc.opener = &fakeOpener{}
			u.index.dirs = []core.WatchedDirectory{{ID: 1, Path: dir}}
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".png")
			u.index.files[1] = indexedAs(t, 1, path, "\x89PNG as indexed")
			if err := c.swap(path); err != nil {
				t.Fatal(err)
			}
			_, err := u.svc.OpenFile(t.Context(), 1, false)
			checkCode(t, "open", err, c.open)
			_, err = u.svc.OpenFile(t.Context(), 1, true)
			checkCode(t, "show in folder", err, c.open)
			data, _, err := u.svc.Image(t.Context(), 1)
			checkCode(t, "image", err, c.view)
			if err == nil && string(data) != "\x89PNG as indexed" {
				t.Errorf("image served %q", data)
			}
		})
	}
}

// checkCode wants err to be of fault f, or nil for nil.
func checkCode(t *testing.T, what string, err error, f *core.Fault) {
	t.Helper()
	switch {
	case f == nil && err != nil:
		t.Errorf("%s: %v, want success", what, err)
	case f != nil && !errors.Is(err, f):
		t.Errorf("%s: %v, want %v", what, err, f)
	}
}

func TestUnitFoldersShowLiveStatus(t *testing.T) {
	u := newUnit(t)
	u.index.dirs = []core.WatchedDirectory{{ID: 1, Path: "/a", Status: core.DirWatching}, {ID: 2, Path: "/b", Status: core.DirWatching}}
	dirs, err := u.svc.Folders(t.Context())
	if err != nil || len(dirs) != 2 {
		t.Fatalf("folders: %v %v", dirs, err)
	}
	for _, d := range dirs {
		if d.Status != core.DirIndexing || d.StatusMessage != "live" || d.Embedding.State != core.EmbeddingOK {
			t.Errorf("folder %d: %+v", d.ID, d)
		}
	}
	snap := u.svc.Snapshot(t.Context())
	var kinds []string
	for _, e := range snap {
		kinds = append(kinds, e.Type)
	}
	want := []string{core.EventQueueStatus, core.EventFolderStatus, core.EventFolderStatus, core.EventEmbedding}
	if !slices.Equal(kinds, want) {
		t.Errorf("snapshot kinds %v, want %v", kinds, want)
	}
}

func TestUnitWatchChecksThePatternFirst(t *testing.T) {
	u := newUnit(t)
	dir := t.TempDir()
	_, err := u.svc.Watch(t.Context(), dir, WatchOptions{FilePattern: "[oops"})
	wantCode(t, "a bad pattern", err, core.ErrInvalid, core.BadPattern)
	if core.FieldOf(err) != "file_pattern" || len(u.ix.watched) != 0 {
		t.Errorf("field %q, indexer asked %v", core.FieldOf(err), u.ix.watched)
	}
	_, err = u.svc.Watch(t.Context(), "/proc", WatchOptions{})
	if err == nil || len(u.ix.watched) != 0 {
		t.Errorf("a system folder: %v, indexer asked %v", err, u.ix.watched)
	}
	res, err := u.svc.Watch(t.Context(), dir, WatchOptions{Recursive: true, FilePattern: "*.md"})
	if err != nil || res.FilesFound != 3 || res.Directory.Status != core.DirIndexing {
		t.Fatalf("watch: %+v %v", res, err)
	}
	if got := u.ix.opts[0]; !got.Recursive || got.FilePattern != "*.md" {
		t.Errorf("options passed on: %+v", got)
	}
	if err := u.svc.Unwatch(t.Context(), 7); err != nil || !slices.Equal(u.ix.unwatched, []int64{7}) {
		t.Errorf("unwatch: %v %v", err, u.ix.unwatched)
	}
}

func TestUnitQueueControlsPublishTheirStatus(t *testing.T) {
	u := newUnit(t)
	sub := u.bus.Subscribe(16, nil)
	defer sub.Cancel()
	if st := u.svc.PauseQueue(); !st.Paused || !st.PausedManually {
		t.Errorf("paused: %+v", st)
	}
	if st := u.svc.ResumeQueue(); st.Paused {
		t.Errorf("resumed: %+v", st)
	}
	got := takeEvents(t, sub, 2)
	if got[0].Type != core.EventQueueStatus || !got[0].Data.(core.QueueStatus).Paused || got[1].Data.(core.QueueStatus).Paused {
		t.Errorf("events %+v", got)
	}
	wantCode(t, "an unknown item", u.svc.RemoveQueueItem("nope"), core.ErrNotFound, core.UnknownItem)
	u.ix.q.Enqueue(queue.Event{Path: "/a/x.txt", Action: queue.ActionIndex, DirID: 1, Cooldown: time.Hour})
	items, total := u.svc.QueueItems(0, 10)
	if total != 1 || items[0].Path != "/a/x.txt" || items[0].Action != "index" || items[0].Status != "cooling_down" {
		t.Fatalf("items %+v", items)
	}
	if err := u.svc.RemoveQueueItem(items[0].ID); err != nil {
		t.Errorf("remove: %v", err)
	}
}

func takeEvents(t *testing.T, sub *events.Subscription, n int) []core.Event {
	t.Helper()
	var got []core.Event
	deadline := time.After(10 * time.Second)
	for len(got) < n {
		select {
		case <-sub.Ready():
			got, _ = sub.Take(got)
		case <-deadline:
			t.Fatalf("got %d events, want %d", len(got), n)
		}
	}
	return got
}

func TestUnitSearchEndsAtItsLimitOrItsCaller(t *testing.T) {
	u := newUnit(t)
	u.search.results = []search.Result{{File: core.File{ID: 1}}}
	ans, err := u.svc.Search(t.Context(), SearchRequest{Query: "roof"})
	if err != nil || len(ans.Results) != 1 || ans.Notice != "" {
		t.Fatalf("search: %+v %v", ans, err)
	}
	u.search.block = true
	u.svc.searchTimeout = 20 * time.Millisecond
	_, err = u.svc.Search(t.Context(), SearchRequest{Query: "roof"})
	wantCode(t, "a search past its limit", err, core.ErrUnavailable, core.SearchTimeout)
	u.svc.searchTimeout = time.Hour
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = u.svc.Search(ctx, SearchRequest{Query: "roof"})
	wantCode(t, "a search whose caller left", err, core.ErrUnavailable, core.SearchCancelled)
	if running, timedOut, cancelled := u.svc.SearchCounts(); running != 0 || timedOut != 1 || cancelled != 1 {
		t.Errorf("counts %d %d %d", running, timedOut, cancelled)
	}
	u.search.block, u.search.err = false, fmt.Errorf("scan: %w", sqlite3.CORRUPT)
	_, err = u.svc.Search(t.Context(), SearchRequest{Query: "roof"})
	wantCode(t, "a search over a damaged index", err, core.ErrUnavailable, core.DamagedIndex)
}

// A paged search (what POST /api/search/ runs) has the same time limit,
// cancellation and damage report as Search.
func TestUnitSearchPageEndsAtItsLimitOrItsCaller(t *testing.T) {
	u := newUnit(t)
	u.search.results = []search.Result{{File: core.File{ID: 1}}, {File: core.File{ID: 2}}}
	page, err := u.svc.SearchPage(t.Context(), PageRequest{Request: SearchRequest{Query: "roof"}, Offset: 1})
	if err != nil || len(page.Results) != 1 || page.Total != 2 || page.Notice != "" {
		t.Fatalf("page: %+v %v", page, err)
	}
	u.search.block = true
	u.svc.searchTimeout = 20 * time.Millisecond
	_, err = u.svc.SearchPage(t.Context(), PageRequest{Request: SearchRequest{Query: "roof"}})
	wantCode(t, "a paged search past its limit", err, core.ErrUnavailable, core.SearchTimeout)
	u.svc.searchTimeout = time.Hour
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = u.svc.SearchPage(ctx, PageRequest{Request: SearchRequest{Query: "roof"}})
	wantCode(t, "a paged search whose caller left", err, core.ErrUnavailable, core.SearchCancelled)
	u.search.block, u.search.err = false, fmt.Errorf("scan: %w", sqlite3.CORRUPT)
	_, err = u.svc.SearchPage(t.Context(), PageRequest{Request: SearchRequest{Query: "roof"}})
	wantCode(t, "a paged search over a damaged index", err, core.ErrUnavailable, core.DamagedIndex)
}

// Applying filters removes exactly the indexed files they now exclude,
// announces it, and rescans for files they let in.
func TestUnitFilterEditsPruneTheIndex(t *testing.T) {
	u := newUnit(t)
	u.index.paths = []store.FilePath{
		{ID: 1, Path: "/a/notes/x.md", DirPath: "/a"},
		{ID: 2, Path: "/a/build/y.md", DirPath: "/a"},
		{ID: 3, Path: "/a/z.bak", DirPath: "/a"},
	}
	sub := u.bus.Subscribe(16, func(e core.Event) bool { return e.Type == core.EventFilters })
	defer sub.Cancel()
	ch, changed, err := u.svc.AddFilterPattern(t.Context(), "*.bak", "exclude", true)
	if err != nil || !changed || ch.RemovedCount != 1 || !slices.Equal(u.index.deleted, []int64{3}) {
		t.Fatalf("add *.bak: %+v %v %v deleted %v", ch, changed, err, u.index.deleted)
	}
	got := takeEvents(t, sub, 1)
	if d, ok := got[0].Data.(core.FiltersChanged); !ok || d.RemovedCount != 1 || d.Version == 0 {
		t.Errorf("filters.changed %+v", got[0].Data)
	}
	if u.ix.rescans != 1 {
		t.Errorf("rescans %d, want 1", u.ix.rescans)
	}
	if _, err := u.svc.RemoveFilterPattern(t.Context(), "nope", "exclude"); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("removing an absent pattern: %v", err)
	}
	u.index.deleted = nil
	if n, err := u.svc.ApplyFilters(t.Context()); err != nil || n != 1 {
		t.Errorf("apply: %d %v", n, err) // z.bak is still listed by the fake
	}
}

// A rebuild outlives the request that started it.
func TestUnitRebuildIsNotTiedToTheRequest(t *testing.T) {
	u := newUnit(t)
	ctx, cancel := context.WithCancel(t.Context())
	n, err := u.svc.RebuildIndex(ctx)
	cancel()
	if err != nil || n != 2 {
		t.Fatalf("rebuild: %d %v", n, err)
	}
	if u.ix.rebuildCtx.Err() != nil {
		t.Error("the rebuild's context ended with the request")
	}
}

// A names-only watch reads no file: it may take folders refused for what
// their files hold (/etc), not those whose names are the kernel's (/proc).
func TestUnitNamesOnlyWatchTakesConfigFolders(t *testing.T) {
	u := newUnit(t)
	_, err := u.svc.Watch(t.Context(), "/etc", WatchOptions{})
	wantCode(t, "/etc with content", err, core.ErrInvalid, core.BadPath)
	if !strings.Contains(err.Error(), "names_only") {
		t.Errorf("the refusal does not say names_only would do: %v", err)
	}
	_, err = u.svc.Watch(t.Context(), "/proc", WatchOptions{NamesOnly: true})
	wantCode(t, "/proc by names", err, core.ErrInvalid, core.BadPath)
	if _, err := u.svc.Watch(t.Context(), "/etc", WatchOptions{NamesOnly: true, RescanSeconds: 600}); err != nil {
		t.Fatalf("/etc by names: %v", err)
	}
	if got := u.ix.opts[len(u.ix.opts)-1]; !got.NamesOnly || got.RescanSeconds != 600 {
		t.Errorf("options passed on: %+v", got)
	}
}
