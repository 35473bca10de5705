package indexer

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
	"sync/atomic"
	"testing"
	"time"
	"trove/internal/poll"

	"github.com/ncruces/go-sqlite3"

	"trove/backend/core"
	"trove/backend/engine/filters"
	"trove/backend/engine/queue"
	"trove/backend/engine/scan"
	"trove/backend/engine/settings"
	"trove/backend/engine/watch"
	"trove/backend/store"
)

// Unit tests of the indexer on a fake of Index (the store's parts it
// uses), with real folders, real filters and a real queue that is never
// run, so what the indexer queued stays there to be read. The tests on a
// real index (live_test.go, diskfull_test.go) run the same code end to end.

type fakeIndex struct {
	mu       sync.Mutex
	dirs     map[int64]core.WatchedDirectory
	nextDir  int64
	nextFile int64
	records  map[int64]map[string]store.Record
	named    []string                  // paths the names pass recorded
	pending  map[int64][]store.Pending // files waiting for their content, by folder
	saved    []store.QueueRow
	statuses []string // "id status"
	scanned  map[int64]int64
	absorbed [][2]int64
	deleted  []int64

	writeErr error  // every folder write fails with it (the disk)
	free     uint64 // what FreeSpace reports
	probeErr error
	reopened int
	problems []string
	damage   string
	damaged  bool
	rebuilt  [][]core.WatchedDirectory

	indexed  int64             // CountIndexed
	countErr error             // fails CountIndexed
	meta     map[string]string // Meta and SetMeta
	// MergeStep counts its calls in mergeSteps and reports more work while
	// mergeLeft > 0, calling onStep first; mergeErr fails it.
	mergeLeft, mergeSteps int
	mergeErr              error
	onStep                func()
	// RetokenizeStep writes retokenizeLeft files at most a step, counting
	// its steps in retokenizeSteps.
	retokenizeLeft, retokenizeSteps int
}

func newFakeIndex() *fakeIndex {
	return &fakeIndex{dirs: map[int64]core.WatchedDirectory{}, records: map[int64]map[string]store.Record{},
		scanned: map[int64]int64{}, free: 1 << 30}
}

var _ Index = (*fakeIndex)(nil)

func (f *fakeIndex) AddFolder(_ context.Context, nf store.NewFolder, _ time.Time) (core.WatchedDirectory, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return core.WatchedDirectory{}, f.writeErr
	}
	f.nextDir++
	d := core.WatchedDirectory{ID: f.nextDir, Path: nf.Path, Recursive: nf.Recursive, FilePattern: nf.Pattern, IsActive: true,
		NamesOnly: nf.NamesOnly, RescanSeconds: nf.RescanSeconds, MountPoint: nf.MountPoint}
	f.dirs[d.ID] = d
	return d, nil
}

func (f *fakeIndex) Directory(_ context.Context, id int64) (core.WatchedDirectory, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.dirs[id]
	if !ok {
		return d, &core.Missing{Thing: core.ThingFolder, ID: id}
	}
	return d, nil
}

func (f *fakeIndex) Directories(context.Context) ([]core.WatchedDirectory, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []core.WatchedDirectory
	for _, d := range f.dirs {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b core.WatchedDirectory) int { return int(a.ID - b.ID) })
	return out, nil
}

func (f *fakeIndex) ReassignFiles(_ context.Context, from, to int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.absorbed = append(f.absorbed, [2]int64{from, to})
	delete(f.dirs, from)
	return nil
}

func (f *fakeIndex) DeleteDirectory(_ context.Context, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, id)
	delete(f.dirs, id)
	return nil
}

func (f *fakeIndex) SetDirectoryStatus(_ context.Context, id int64, status, message string, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return f.writeErr
	}
	f.statuses = append(f.statuses, status)
	d := f.dirs[id]
	d.Status, d.StatusMessage = status, message
	f.dirs[id] = d
	return nil
}

func (f *fakeIndex) SetDirectoryScanned(_ context.Context, id, n int64, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return f.writeErr
	}
	f.scanned[id] = n
	return nil
}

func (f *fakeIndex) SetDirectoryMount(_ context.Context, id int64, mp string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.dirs[id]
	d.MountPoint = mp
	f.dirs[id] = d
	return nil
}

func (f *fakeIndex) EachStamp(_ context.Context, id int64, fn func(store.Stamp)) error {
	f.mu.Lock()
	var stamps []store.Stamp
	for _, r := range f.records[id] {
		stamps = append(stamps, store.Stamp{ID: r.ID, Path: r.Path, Size: r.Size, ModNs: r.ModNs, State: r.State,
			StorageFailed: r.State == core.StateFailed && store.IsStorageReason(r.Error)})
	}
	f.mu.Unlock()
	for _, st := range stamps {
		fn(st)
	}
	return nil
}

func (f *fakeIndex) PathsOf(_ context.Context, ids []int64) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, recs := range f.records {
		for _, r := range recs {
			if slices.Contains(ids, r.ID) {
				out = append(out, r.Path)
			}
		}
	}
	return out, nil
}

// PutNames records new files as the names pass does; named keeps them.
func (f *fakeIndex) PutNames(_ context.Context, names []store.Name) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return 0, f.writeErr
	}
	for _, n := range names {
		m := n.File
		if f.records[m.DirID] == nil {
			f.records[m.DirID] = map[string]store.Record{}
		}
		f.nextFile++
		f.records[m.DirID][m.Path] = store.Record{ID: f.nextFile, DirID: m.DirID, Path: m.Path, Size: m.Size,
			ModNs: m.Modified.UnixNano(), State: m.State}
		f.named = append(f.named, m.Path)
	}
	return len(names), nil
}

func (f *fakeIndex) PendingFiles(_ context.Context, dir int64, _ int) ([]store.Pending, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pending[dir], nil
}

// PendingOCR: these tests index no images or scans.
func (f *fakeIndex) PendingOCR(context.Context) ([]store.Record, error) { return nil, nil }

func (f *fakeIndex) PathsUnder(_ context.Context, dir string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, recs := range f.records {
		for p := range recs {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *fakeIndex) LoadQueue(context.Context) ([]store.QueueRow, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.saved), nil
}

func (f *fakeIndex) SaveQueue(_ context.Context, rows []store.QueueRow) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = slices.Clone(rows)
	return nil
}

func (f *fakeIndex) FreeSpace() (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.free, nil
}

func (f *fakeIndex) Probe(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.probeErr
}

func (f *fakeIndex) MergeStep(context.Context, int) (bool, error) {
	if f.onStep != nil {
		f.onStep()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mergeSteps++
	if f.mergeErr != nil {
		return false, f.mergeErr
	}
	if f.mergeLeft == 0 {
		return false, nil
	}
	f.mergeLeft--
	return true, nil
}

func (f *fakeIndex) Retokenizing() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retokenizeLeft > 0
}

func (f *fakeIndex) RetokenizeStep(_ context.Context, n int) (bool, error) {
	if f.onStep != nil {
		f.onStep()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.retokenizeSteps++
	f.retokenizeLeft = max(0, f.retokenizeLeft-n)
	return f.retokenizeLeft > 0, nil
}

func (f *fakeIndex) CountIndexed(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.indexed, f.countErr
}

func (f *fakeIndex) Meta(_ context.Context, key string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.meta[key]
	return v, ok, nil
}

func (f *fakeIndex) SetMeta(_ context.Context, key, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return f.writeErr
	}
	if f.meta == nil {
		f.meta = map[string]string{}
	}
	f.meta[key] = value
	return nil
}

func (f *fakeIndex) TruncateWAL(context.Context) error { return nil }
func (f *fakeIndex) Checkpoint(context.Context) error  { return nil }

func (f *fakeIndex) Reopen() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reopened++
	return nil
}

func (f *fakeIndex) Check(context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.problems), nil
}

func (f *fakeIndex) Damage() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.damage, f.damaged
}

func (f *fakeIndex) MarkDamaged(why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.damage, f.damaged = why, true
}

func (f *fakeIndex) Rebuild(_ context.Context, dirs []core.WatchedDirectory) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rebuilt = append(f.rebuilt, dirs)
	f.damage, f.damaged, f.problems = "", false, nil
	return "index.db.damaged-test", nil
}

// events records what the indexer publishes.
type events struct {
	mu  sync.Mutex
	all []core.EventData
}

func (e *events) publish(d core.EventData) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, d)
}

func (e *events) health() []core.IndexHealth {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []core.IndexHealth
	for _, d := range e.all {
		if h, ok := d.(core.IndexHealth); ok {
			out = append(out, h)
		}
	}
	return out
}

// unitIndexer builds an indexer on fake, loads its folders and marks it
// ready, without running it.
func unitIndexer(t *testing.T, fake *fakeIndex, exclude ...string) (*Indexer, *events) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	flt, err := filters.Open(t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	ix, err := New(Deps{Store: fake, Filters: flt, Settings: settings.Defaults, Publish: ev.publish, Log: log, Exclude: exclude})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.load(t.Context()); err != nil {
		t.Fatal(err)
	}
	close(ix.ready)
	// pollLoop walks new folders (Watch), as it does under Run.
	var loop sync.WaitGroup
	loop.Go(func() { ix.pollLoop(t.Context()) })
	t.Cleanup(func() { loop.Wait(); ix.background.Wait() })
	return ix, ev
}

// queued lists the queue's items as "action path [-> dest] @folder".
func queued(ix *Indexer) []string {
	items, _ := ix.queue.Items(0, 0)
	var out []string
	for _, it := range items {
		s := string(it.Action) + " " + it.Path
		if it.Dest != "" {
			s += " -> " + it.Dest
		}
		out = append(out, fmt.Sprintf("%s @%d", s, it.DirID))
	}
	slices.Sort(out)
	return out
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("some text"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each kind of watcher event becomes the queue item it stands for, in the
// folder it belongs to, and events the folder does not want (outside its
// recursion, its file_pattern or Trove's own folders) become none.
func TestEventsBecomeQueueItems(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	own := filepath.Join(a, "own")
	fake := newFakeIndex()
	fake.dirs[1] = core.WatchedDirectory{ID: 1, Path: a, Recursive: true, IsActive: true}
	fake.dirs[2] = core.WatchedDirectory{ID: 2, Path: b, Recursive: false, FilePattern: "*.txt", IsActive: true}
	fake.saved = []store.QueueRow{{ID: "saved", Path: filepath.Join(a, "saved.txt"), Action: string(queue.ActionIndex), DirID: 1,
		EnqueuedAt: time.Now(), ReadyAt: time.Now()}}
	for _, p := range []string{"a/new.txt", "a/moved.txt", "a/in.txt", "a/own/x.txt", "b/c.txt", "b/sub/d.txt", "b/e.md"} {
		root := map[byte]string{'a': a, 'b': b}[p[0]]
		write(t, filepath.Join(root, p[2:]))
	}
	ix, ev := unitIndexer(t, fake, own)

	for _, e := range []watch.Event{
		{Path: filepath.Join(a, "new.txt"), Op: watch.Create},
		{Path: filepath.Join(a, "gone.txt"), Op: watch.Remove},
		{Path: filepath.Join(a, "moved.txt"), Op: watch.Create, From: filepath.Join(a, "old.txt")},
		{Path: filepath.Join(a, "in.txt"), Op: watch.Create, From: filepath.Join(b, "out.txt")},
		{Path: filepath.Join(a, "own", "x.txt"), Op: watch.Write},
		{Path: filepath.Join(b, "c.txt"), Op: watch.Write},
		{Path: filepath.Join(b, "sub", "d.txt"), Op: watch.Write},
		{Path: filepath.Join(b, "e.md"), Op: watch.Create},
		{Path: "/elsewhere/f.txt", Op: watch.Create},
	} {
		ix.onEvent(t.Context(), e)
	}
	want := []string{
		"delete " + filepath.Join(a, "gone.txt") + " @1",
		"index " + filepath.Join(a, "in.txt") + " @1",
		"index " + filepath.Join(a, "new.txt") + " @1",
		"index " + filepath.Join(a, "saved.txt") + " @1",
		"index " + filepath.Join(b, "c.txt") + " @2",
		"move " + filepath.Join(a, "old.txt") + " -> " + filepath.Join(a, "moved.txt") + " @1",
	}
	slices.Sort(want)
	if got := queued(ix); !slices.Equal(got, want) {
		t.Fatalf("queued:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The root itself going away puts its folder in error, saved and
	// published, and queues nothing.
	ix.onEvent(t.Context(), watch.Event{Path: b, Op: watch.Remove})
	if d := ix.Status(fake.dirs[2]); d.Status != core.DirError || !strings.Contains(d.StatusMessage, "no longer exists") {
		t.Fatalf("folder after its root went: %+v", d)
	}
	if !slices.Contains(fake.statuses, core.DirError) {
		t.Fatalf("the error was not saved: %v", fake.statuses)
	}
	published := false
	for _, e := range ev.all {
		if fs, ok := e.(core.FolderStatus); ok && fs.ID == 2 && fs.Status == core.DirError {
			published = true
		}
	}
	if !published {
		t.Fatalf("no folder.status event for the error: %+v", ev.all)
	}
	if got := queued(ix); len(got) != len(want) {
		t.Fatalf("the root's removal queued work: %v", got)
	}
}

// A rescan queues what is new or changed on the disk, and files recorded
// as failed for a storage reason; it queues the removal of what is gone,
// leaves unchanged files alone and saves the count it found.
func TestRescanQueuesWhatChanged(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"same.txt", "changed.txt", "new.txt", "full.txt", "sub/deep.txt"} {
		write(t, filepath.Join(root, p))
	}
	fake := newFakeIndex()
	rec := func(name, state, why string) store.Record {
		p := filepath.Join(root, name)
		fake.nextFile++
		r := store.Record{ID: fake.nextFile, Path: p, DirID: 1, State: state, Error: why}
		if st, err := os.Lstat(p); err == nil {
			r.Size, r.ModNs = st.Size(), st.ModTime().UnixNano()
		}
		return r
	}
	changed := rec("changed.txt", core.StateIndexed, "")
	changed.Size++
	// An indexed file replaced by a link: the walk skips links, and the
	// path is there, but the file is not.
	linked := rec("linked.txt", core.StateIndexed, "")
	if err := os.Symlink(filepath.Join(root, "same.txt"), linked.Path); err != nil {
		t.Fatal(err)
	}
	fake.dirs[1] = core.WatchedDirectory{ID: 1, Path: root, Recursive: true, IsActive: true}
	fake.records[1] = map[string]store.Record{}
	for _, r := range []store.Record{rec("same.txt", core.StateIndexed, ""), changed, linked, rec("gone.txt", core.StateIndexed, ""),
		rec("full.txt", core.StateFailed, "database or disk is full"), rec("sub/deep.txt", core.StateFailed, "not UTF-8")} {
		fake.records[1][r.Path] = r
	}
	ix, _ := unitIndexer(t, fake)

	found, err := ix.rescan(t.Context(), 1, false)
	if err != nil || found != 5 {
		t.Fatalf("rescan: found %d, %v", found, err)
	}
	want := []string{
		"delete " + filepath.Join(root, "gone.txt") + " @1",
		"delete " + filepath.Join(root, "linked.txt") + " @1",
		"index " + filepath.Join(root, "changed.txt") + " @1",
		"index " + filepath.Join(root, "full.txt") + " @1",
	}
	if got := queued(ix); !slices.Equal(got, want) {
		t.Fatalf("queued:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The new file is recorded by name at once; its content comes with
	// the content pass.
	if want := []string{filepath.Join(root, "new.txt")}; !slices.Equal(fake.named, want) {
		t.Fatalf("names pass recorded %q, want %q", fake.named, want)
	}
	if fake.scanned[1] != 5 {
		t.Fatalf("saved count %d, want 5", fake.scanned[1])
	}
	// With all, every indexed file is processed again; a failed one
	// waits for its own change.
	if _, err := ix.rescan(t.Context(), 1, true); err != nil {
		t.Fatal(err)
	}
	if got := queued(ix); !slices.Contains(got, "index "+filepath.Join(root, "same.txt")+" @1") ||
		slices.Contains(got, "index "+filepath.Join(root, "sub/deep.txt")+" @1") {
		t.Fatalf("a rescan of all queued %v", got)
	}
}

// A folder inside a watched one is refused; a folder that holds
// watched ones absorbs them (their files reassigned, their removal
// published); Trove's own folders are never watched.
func TestWatchAbsorbsAndRefuses(t *testing.T) {
	parent := t.TempDir()
	child := filepath.Join(parent, "child")
	own := filepath.Join(parent, "own")
	write(t, filepath.Join(child, "a.txt"))
	write(t, filepath.Join(own, "b.txt"))
	fake := newFakeIndex()
	ix, ev := unitIndexer(t, fake, own)
	ctx := t.Context()

	c, found, err := ix.Watch(ctx, child, Options{Recursive: true})
	if err != nil || found != 1 {
		t.Fatalf("watch child: %v, found %d", err, found)
	}
	if _, _, err := ix.Watch(ctx, child, Options{Recursive: true}); !errors.Is(err, core.AlreadyWatching) {
		t.Fatalf("the same folder again: %v", err)
	}
	p, found, err := ix.Watch(ctx, parent, Options{Recursive: true})
	if err != nil || found != 1 { // own/b.txt is never listed
		t.Fatalf("watch parent: %v, found %d", err, found)
	}
	if !slices.Equal(fake.absorbed, [][2]int64{{c.ID, p.ID}}) {
		t.Fatalf("reassigned %v, want the child's files to the parent", fake.absorbed)
	}
	if _, ok := ix.Folder(c.ID); ok {
		t.Fatal("the absorbed folder is still watched")
	}
	absorbed := false
	for _, e := range ev.all {
		if r, ok := e.(core.FolderRemoved); ok && r.ID == c.ID && r.AbsorbedBy == p.ID {
			absorbed = true
		}
	}
	if !absorbed {
		t.Fatalf("no folder.removed event naming the parent: %+v", ev.all)
	}
	if _, _, err := ix.Watch(ctx, child, Options{}); !errors.Is(err, core.AlreadyWatching) {
		t.Fatalf("a folder inside a watched one: %v", err)
	}
	if _, _, err := ix.Watch(ctx, own, Options{}); !errors.Is(err, core.BadPath) {
		t.Fatalf("Trove's own folder: %v", err)
	}
	if err := ix.Unwatch(ctx, p.ID); err != nil || !slices.Equal(fake.deleted, []int64{p.ID}) {
		t.Fatalf("unwatch: %v, deleted %v", err, fake.deleted)
	}
}

// A storage error of the index holds indexing (the request is told, every
// folder shows it) until the disk has room and a test write succeeds; then
// the connections are opened anew and the hold lifts by itself.
func TestStorageErrorHoldsUntilTheDiskIsWritable(t *testing.T) {
	fake := newFakeIndex()
	fake.writeErr = sqlite3.FULL
	fake.free = 1 << 20
	fake.dirs[1] = core.WatchedDirectory{ID: 1, Path: t.TempDir(), Recursive: true, IsActive: true}
	ix, _ := unitIndexer(t, fake)
	ctx, cancel := context.WithCancel(t.Context())
	probing := make(chan struct{})
	go func() { // the part of Run that lifts the hold
		defer close(probing)
		ix.probeLoop(ctx)
	}()
	defer func() { cancel(); <-probing }()

	_, _, err := ix.Watch(t.Context(), t.TempDir(), Options{Recursive: true})
	if !errors.Is(err, core.ErrUnavailable) || !errors.Is(err, core.UnwritableIndex) || !strings.Contains(err.Error(), "1.0 MB free") {
		t.Fatalf("watch on a full disk: %v", err)
	}
	if h := ix.Health(); h.Status != core.IndexStorageError {
		t.Fatalf("health on a full disk: %+v", h)
	}
	if d := ix.Status(fake.dirs[1]); d.Status != core.DirError || !strings.Contains(d.StatusMessage, "full") {
		t.Fatalf("a folder on a full disk: %+v", d)
	}
	if st := ix.queue.Status(); !st.PausedByStorage {
		t.Fatalf("the queue is not held: %+v", st)
	}

	fake.mu.Lock()
	fake.writeErr, fake.free = nil, 1<<30
	fake.mu.Unlock()
	if !poll.Until(20*time.Second, func() bool { return ix.Health().Status == core.IndexOK }) {
		t.Fatalf("the hold did not lift: %+v", ix.Health())
	}
	fake.mu.Lock()
	reopened := fake.reopened
	fake.mu.Unlock()
	if reopened != 1 {
		t.Fatalf("connections opened anew %d times, want 1", reopened)
	}
	if st := ix.queue.Status(); st.PausedByStorage {
		t.Fatalf("the queue is still held: %+v", st)
	}
}

// Damage found by the check is recorded and published once however often
// it is met again; a rebuild keeps the folders and says the index is
// sound again.
func TestDamageIsPublishedOnceAndRebuildKeepsFolders(t *testing.T) {
	fake := newFakeIndex()
	fake.dirs[3] = core.WatchedDirectory{ID: 3, Path: t.TempDir(), Recursive: true, IsActive: true}
	fake.problems = []string{"fts_content: malformed inverted index"}
	ix, ev := unitIndexer(t, fake)
	rebuilt := 0
	ix.Rebuilt = func() { rebuilt++ }

	ix.CheckIndex(t.Context())
	h := ix.Health()
	if h.Status != core.IndexDamaged || !strings.Contains(h.Message, "malformed inverted index") || h.CheckedAt == nil {
		t.Fatalf("health after a failed check: %+v", h)
	}
	ix.Damaged(errors.New("a query hit a damaged page"))
	if n := len(ev.health()); n != 1 {
		t.Fatalf("%d index health events, want 1: %+v", n, ev.health())
	}
	if err := ix.DamagedError(); !errors.Is(err, core.DamagedIndex) || !errors.Is(err, core.ErrUnavailable) {
		t.Fatalf("damaged error: %v", err)
	}

	n, err := ix.Rebuild(t.Context())
	if err != nil || n != 1 || rebuilt != 1 {
		t.Fatalf("rebuild: %d folders, %v, Rebuilt called %d times", n, err, rebuilt)
	}
	if len(fake.rebuilt) != 1 || len(fake.rebuilt[0]) != 1 || fake.rebuilt[0][0].ID != 3 {
		t.Fatalf("the new index got folders %+v, want folder 3", fake.rebuilt)
	}
	if _, ok := ix.Folder(3); !ok {
		t.Fatal("folder 3 is not watched after the rebuild")
	}
	hs := ev.health()
	if last := hs[len(hs)-1]; last.Status != core.IndexOK || !slices.ContainsFunc(hs, func(h core.IndexHealth) bool { return h.Status == core.IndexRebuilding }) {
		t.Fatalf("health events %+v, want rebuilding then ok", hs)
	}
}

// An item whose folder was unwatched while it waited is processed in the
// folder that holds its path now: a scan of the folder watched again
// merges its item into the waiting one, which keeps the old folder's id.
// A move keeps its own folder, and a path no folder holds has none.
func TestStaleItemsFindTheFolderThatHoldsThemNow(t *testing.T) {
	root := t.TempDir()
	fake := newFakeIndex()
	fake.dirs[7] = core.WatchedDirectory{ID: 7, Path: root, Recursive: true, IsActive: true}
	ix, _ := unitIndexer(t, fake)
	inside := filepath.Join(root, "other", "file-04.md")
	for _, c := range []struct {
		it   queue.Item
		want int64 // 0: no folder
	}{
		{queue.Item{Action: queue.ActionIndex, Path: inside, DirID: 4}, 7},
		{queue.Item{Action: queue.ActionIndex, Path: inside, DirID: 7}, 7},
		{queue.Item{Action: queue.ActionDelete, Path: inside, DirID: 4}, 7},
		{queue.Item{Action: queue.ActionIndex, Path: "/elsewhere/file.md", DirID: 4}, 0},
		{queue.Item{Action: queue.ActionMove, Path: inside, Dest: inside + ".new", DirID: 4}, 0},
	} {
		got := int64(0)
		if f, ok := ix.folderFor(c.it); ok {
			got = f.ID
		}
		if got != c.want {
			t.Errorf("%s %s @%d: folder %d, want %d", c.it.Action, c.it.Path, c.it.DirID, got, c.want)
		}
	}
}

// A folder unwatched while its scan walks queues nothing: the scan's items
// would wait under an id no longer watched.
func TestScanOfAnUnwatchedFolderQueuesNothing(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		write(t, filepath.Join(root, name))
	}
	fake := newFakeIndex()
	fake.dirs[4] = core.WatchedDirectory{ID: 4, Path: root, Recursive: true, IsActive: true}
	fake.records[4] = map[string]store.Record{}
	ix, _ := unitIndexer(t, fake)
	ix.onScanEntry = func(scan.Entry) {
		if err := ix.Unwatch(t.Context(), 4); err != nil {
			t.Error(err)
		}
	}
	if _, err := ix.rescan(t.Context(), 4, false); err != nil {
		t.Fatal(err)
	}
	if got := queued(ix); len(got) != 0 {
		t.Fatalf("queued after the folder went: %v", got)
	}
}

// A watch answers when the first walk ends, or at firstScanWait while a
// big folder is still walked: the walk goes on, owned by the indexer.
func TestWatchAnswersBeforeALongWalkEnds(t *testing.T) {
	defer func(d time.Duration) { firstScanWait = d }(firstScanWait)
	firstScanWait = 50 * time.Millisecond
	root := t.TempDir()
	write(t, filepath.Join(root, "a.txt"))
	write(t, filepath.Join(root, "b.txt"))
	ix, _ := unitIndexer(t, newFakeIndex())
	release := make(chan struct{})
	var walked atomic.Int32
	ix.onScanEntry = func(scan.Entry) {
		<-release
		walked.Add(1)
	}
	_, found, err := ix.Watch(t.Context(), root, Options{Recursive: true})
	if err != nil || found != 0 {
		t.Fatalf("watch during the walk: found %d, %v; want 0 (nothing recorded yet)", found, err)
	}
	close(release)
	poll.Eventually(t, 10*time.Second, "the walk goes on after the answer", func() bool { return walked.Load() == 2 })
}
