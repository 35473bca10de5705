package pipeline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/enrich"
	"trove/backend/engine/extract"
	"trove/backend/engine/filters"
	"trove/backend/engine/scan"
	"trove/backend/engine/settings"
	"trove/backend/platform/fileread"
	"trove/backend/store"
	"trove/internal/hangfs"
)

// rig is a pipeline on a real index, for one watched folder.
type rig struct {
	p      *Pipeline
	store  *store.Store
	dirID  int64
	folder Folder
	log    *syncLog
}

type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// tinyEmbedder is a local model small enough for tests: one dimension per
// letter class. Tests wrap it to inject faults.
type tinyEmbedder struct{ panicOn string }

func (e tinyEmbedder) Model() string { return "tiny-v1" }
func (e tinyEmbedder) Dim() int      { return 2 }
func (e tinyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if e.panicOn != "" && strings.Contains(t, e.panicOn) {
			panic("embedder bug on " + e.panicOn)
		}
		out[i] = []float32{0.6, 0.8}
	}
	return out, nil
}

type panickyEnricher struct{ enrich.Enricher }

func (p panickyEnricher) Enrich(ctx context.Context, in enrich.Input) (enrich.Card, error) {
	if strings.Contains(in.Text, "detonate") {
		panic("enricher bug")
	}
	return p.Enricher.Enrich(ctx, in)
}

type rigOption func(*Deps, *core.Settings)

func newRig(t *testing.T, root string, opts ...rigOption) *rig {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dir, err := st.AddDirectory(context.Background(), root, true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{store: st, dirID: dir.ID, folder: Folder{ID: dir.ID, Folder: scan.Folder{Root: root, Recursive: true}}, log: &syncLog{}}
	cfg := settings.Defaults()
	matcher := filters.NewMatcher("blacklist", nil, nil)
	var enricher enrich.Enricher = enrich.NewBuiltin(DocStats{Store: st})
	var embedder embedding.Embedder = tinyEmbedder{}
	d := Deps{
		Store: st, Matcher: func() *filters.Matcher { return matcher },
		Enricher: func() enrich.Enricher { return enricher },
		Embedder: func() embedding.Embedder { return embedder },
		Publish:  func(core.EventData) {},
		Log:      slog.New(slog.NewTextHandler(r.log, nil)),
	}
	for _, o := range opts {
		o(&d, &cfg)
	}
	d.Settings = func() core.Settings { return cfg }
	r.p = New(d)
	return r
}

// index runs Index in a goroutine so that a read that blocks fails the
// test instead of hanging it.
func (r *rig) index(t *testing.T, ctx context.Context, path string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.p.Index(ctx, r.folder, path) }()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("indexing %s blocked", path)
	}
	return nil
}

// failure records err as the file's failure and returns the reason the
// folder's problems show.
func (r *rig) failure(t *testing.T, path string, err error) string {
	t.Helper()
	if err := r.p.RecordFailure(context.Background(), r.dirID, path, err); err != nil {
		t.Fatal(err)
	}
	f, err := r.store.FileByPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if f.State != core.StateFailed {
		t.Fatalf("%s: state %q, want failed", path, f.State)
	}
	return f.Error
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPanicInAStageFailsThatFileOnly(t *testing.T) {
	cases := []struct {
		stage string
		opt   rigOption
	}{
		{"extract", func(d *Deps, _ *core.Settings) {
			d.Extract = func(ctx context.Context, path string, opt extract.Options) (extract.Document, error) {
				if strings.HasSuffix(path, "bad.txt") {
					var doc *extract.Document
					return *doc, nil // nil dereference: a runtime panic
				}
				return extract.Extract(ctx, path, opt)
			}
		}},
		{"enrich", func(d *Deps, _ *core.Settings) {
			e := panickyEnricher{d.Enricher()}
			d.Enricher = func() enrich.Enricher { return e }
		}},
		{"embed", func(d *Deps, _ *core.Settings) {
			d.Embedder = func() embedding.Embedder { return tinyEmbedder{panicOn: "detonate"} }
		}},
		{"index", func(d *Deps, _ *core.Settings) {
			publish := d.Publish
			d.Publish = func(data core.EventData) {
				if ev, ok := data.(core.FileIndexed); ok && strings.HasSuffix(ev.Path, "bad.txt") {
					panic("event fan-out bug")
				}
				publish(data)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.stage, func(t *testing.T) {
			root := t.TempDir()
			r := newRig(t, root, c.opt)
			bad, good := filepath.Join(root, "bad.txt"), filepath.Join(root, "good.txt")
			writeFile(t, bad, "please detonate the parser")
			writeFile(t, good, "an ordinary note about gardening")
			err := r.index(t, context.Background(), bad)
			var pe *core.PanicError
			if !errors.As(err, &pe) || !core.IsPermanent(err) {
				t.Fatalf("want a permanent panic error, got %v", err)
			}
			if got := r.failure(t, bad, err); !strings.HasPrefix(got, c.stage+": internal error (panic: ") {
				t.Fatalf("reason %q does not name the %s stage", got, c.stage)
			}
			if out := r.log.String(); !strings.Contains(out, "panic while indexing a file") || !strings.Contains(out, "stage="+c.stage) || !strings.Contains(out, "goroutine") {
				t.Fatalf("the panic must be logged with its stack:\n%s", out)
			}
			if err := r.index(t, context.Background(), good); err != nil {
				t.Fatalf("the next file: %v", err)
			}
			if f, err := r.store.FileByPath(context.Background(), good); err != nil || f.State != core.StateIndexed {
				t.Fatalf("the next file: %+v %v", f, err)
			}
		})
	}
}

// A read that hangs (a dead network mount) fails the file at the time
// limit, with the limit in the reason, and frees the worker.
func TestHungReadFailsTheFileAtTheTimeLimit(t *testing.T) {
	h := hangfs.Mount(t)
	h.AddHanging("report.pdf", 64<<10)
	r := newRig(t, h.Dir, func(_ *Deps, cfg *core.Settings) { cfg.Extraction.TimeoutSeconds = 0.3 })
	path := filepath.Join(h.Dir, "report.pdf")
	start := time.Now()
	err := r.index(t, context.Background(), path)
	var te *fileread.TimeoutError
	if !errors.As(err, &te) || !core.IsPermanent(err) {
		t.Fatalf("want a permanent read timeout, got %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("held the worker %s", took)
	}
	if got := r.failure(t, path, err); got != "read timed out after 300ms" {
		t.Fatalf("reason %q", got)
	}
}

// Removing the item (or its folder) cancels it: a hung read lets go at once.
func TestCancelFreesAWorkerStuckInARead(t *testing.T) {
	h := hangfs.Mount(t)
	file := h.AddHanging("report.pdf", 64<<10)
	r := newRig(t, h.Dir, func(_ *Deps, cfg *core.Settings) { cfg.Extraction.TimeoutSeconds = 3600 })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.p.Index(ctx, r.folder, filepath.Join(h.Dir, "report.pdf")) }()
	select {
	case <-file.Reads():
	case <-time.After(10 * time.Second):
		t.Fatal("the read never started")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want cancellation, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling did not free the worker")
	}
}

// Swaps between the type check and the reads: a link to a file outside
// the folder, a folder on the way swapped for a link, a FIFO. None is
// read; links are dropped from the index, the FIFO fails at once.
func TestSwapAfterTheTypeCheck(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "notes.txt"), "root:$6$secrethash:19000")
	cases := []struct {
		name string
		swap func(path string)
		want func(t *testing.T, r *rig, path string, err error)
	}{
		{"link to a file outside", func(path string) {
			os.Remove(path)
			os.Symlink(filepath.Join(outside, "notes.txt"), path)
		}, dropped},
		{"folder on the way swapped for a link", func(path string) {
			dir := filepath.Dir(path)
			os.Rename(dir, dir+".old")
			os.Symlink(outside, dir)
		}, dropped},
		{"folder on the way swapped for a file", func(path string) {
			dir := filepath.Dir(path)
			os.Rename(dir, dir+".old")
			os.WriteFile(dir, []byte("a file now"), 0o644)
		}, dropped},
		{"named pipe", func(path string) {
			os.Remove(path)
			syscall.Mkfifo(path, 0o644)
		}, func(t *testing.T, r *rig, path string, err error) {
			if !errors.Is(err, fileread.ErrNotRegular) || !core.IsPermanent(err) {
				t.Fatalf("want a permanent not-regular error, got %v", err)
			}
			if got := r.failure(t, path, err); !strings.Contains(got, "not a regular file (named pipe)") {
				t.Fatalf("reason %q", got)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			r := newRig(t, root)
			path := filepath.Join(root, "sub", "notes.txt")
			writeFile(t, path, "ordinary notes, first version")
			if err := r.index(t, context.Background(), path); err != nil {
				t.Fatal(err)
			}
			writeFile(t, path, "ordinary notes, second version")
			testHookAfterCheck = c.swap
			defer func() { testHookAfterCheck = nil }()
			err := r.index(t, context.Background(), path)
			c.want(t, r, path, err)
		})
	}
}

// A file whose folder was replaced by a file is gone (the stat says
// ENOTDIR, not "does not exist"): it leaves the index at once, rather than
// failing, being retried and recorded as a failure.
func TestFileUnderAFolderReplacedByAFileIsDropped(t *testing.T) {
	root := t.TempDir()
	r := newRig(t, root)
	path := filepath.Join(root, "sub", "notes.txt")
	writeFile(t, path, "ordinary notes")
	if err := r.index(t, context.Background(), path); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Dir(path), "a file where the folder was")
	dropped(t, r, path, r.index(t, context.Background(), path))
}

func dropped(t *testing.T, r *rig, path string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("a link is dropped from the index, not an error: %v", err)
	}
	f, lerr := r.store.FileByPath(context.Background(), path)
	if !errors.Is(lerr, core.ErrNotFound) {
		t.Fatalf("still indexed after the swap: %+v (%v)", f, lerr)
	}
}

// Workers abandoned at stop may still finish after the index closed: their
// writes fail as errors, never as a panic.
func TestWritesAfterTheIndexClosedFailCleanly(t *testing.T) {
	root := t.TempDir()
	r := newRig(t, root)
	path := filepath.Join(root, "late.txt")
	writeFile(t, path, "written after the index closed")
	if err := r.store.Close(); err != nil {
		t.Fatal(err)
	}
	var err error
	if perr := core.Safe(func() { err = r.index(t, context.Background(), path) }); perr != nil {
		t.Fatalf("panicked: %v", perr)
	}
	if err == nil {
		t.Fatal("indexing into a closed index reported success")
	}
	if perr := core.Safe(func() { err = r.p.RecordFailure(context.Background(), r.dirID, path, errors.New("x")) }); perr != nil || err == nil {
		t.Fatalf("recording a failure into a closed index: %v %v", perr, err)
	}
}

// A file is indexed in the language of its text: a German file is found
// by another form of its words.
func TestFileIsIndexedInItsLanguage(t *testing.T) {
	root := t.TempDir()
	r := newRig(t, root)
	path := filepath.Join(root, "notiz.txt")
	writeFile(t, path, "Die Dateien auf dem Server wurden gestern von einem Kollegen gelöscht, und niemand weiß, warum das passiert ist.")
	if err := r.index(t, context.Background(), path); err != nil {
		t.Fatal(err)
	}
	hits, _, err := r.store.TermMatches(context.Background(), store.ContentTable, store.Any(store.Phrase{Words: []string{"Datei"}}), store.TermScope{})
	if err != nil || len(hits) != 1 {
		t.Errorf("Datei: %+v, %v; want the German file", hits, err)
	}
}
