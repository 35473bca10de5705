package search

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// countingIndex counts the searches that reach the index (each lists its
// ranked files' keys once).
type countingIndex struct {
	*store.Store
	runs atomic.Int64
}

func (c *countingIndex) KeysOf(ctx context.Context, ids []int64, f store.FileFilter) (map[int64]store.FileKey, error) {
	c.runs.Add(1)
	return c.Store.KeysOf(ctx, ids, f)
}

// A page is kept for the same request on the same index: asked again it
// is not searched again, and the caller's copy is its own. A write to the
// index, another request, the time limit and another tuning each search
// again; the same search asked by many at once runs once.
func TestKeptPagesServeOnlyTheIndexTheyRead(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"a/harbour.txt", []string{"The harbour master keeps the tide tables."}},
		{"b/notes.txt", []string{"Notes on the harbour wall and its repairs."}},
	})
	st := e.Store.(*store.Store)
	ix := &countingIndex{Store: st}
	e.Store = ix
	clock := time.Unix(1_800_000_000, 0)
	e.pages.now = func() time.Time { return clock }
	ctx := context.Background()
	req := PageRequest{Request: Request{Query: "harbour", Limit: 10, Mode: Hybrid, Snippets: true}}
	ask := func(pr PageRequest) Page {
		t.Helper()
		p, err := e.SearchPage(ctx, pr)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	pagePaths := func(p Page) []string {
		var out []string
		for _, r := range p.Results {
			out = append(out, r.File.Path)
		}
		slices.Sort(out)
		return out
	}

	first := ask(req)
	want := pagePaths(first)
	if len(want) != 2 || ix.runs.Load() != 1 {
		t.Fatalf("first search: %v, %d runs", want, ix.runs.Load())
	}
	first.Results[0].File.Path = "/changed by the caller"
	again := ask(req)
	if ix.runs.Load() != 1 {
		t.Fatalf("the same search on the same index ran again (%d runs)", ix.runs.Load())
	}
	if got := pagePaths(again); !slices.Equal(got, want) || again.Total != first.Total {
		t.Fatalf("kept page %v, want %v (a caller's change reached the kept page?)", got, want)
	}

	other := req
	other.Limit = 1
	ask(other)
	if ix.runs.Load() != 2 {
		t.Fatalf("another request was served from a kept page (%d runs)", ix.runs.Load())
	}

	d, err := st.AddDirectory(ctx, "/x", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutDocument(ctx, store.Document{
		File:   core.File{DirID: d.ID, Path: "/x/new.txt", Filename: "new.txt", Extension: ".txt", Modified: time.Now(), Title: "new"},
		Chunks: []store.Chunk{{Text: "A new harbour guide."}},
	}); err != nil {
		t.Fatal(err)
	}
	if got := pagePaths(ask(req)); len(got) != 3 || ix.runs.Load() != 3 {
		t.Fatalf("after a write: %v, %d runs; want the new file, searched again", got, ix.runs.Load())
	}

	clock = clock.Add(pageTTL + time.Second)
	ask(req)
	if ix.runs.Load() != 4 {
		t.Fatalf("a page past its time served (%d runs)", ix.runs.Load())
	}
	tn := DefaultTuning
	tn.OtherForm = 0.25
	e.Tuning = &tn
	ask(req)
	if ix.runs.Load() != 5 {
		t.Fatalf("a page of another tuning served (%d runs)", ix.runs.Load())
	}

	fresh := req
	fresh.Query = "tide tables"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if p, err := e.SearchPage(ctx, fresh); err != nil || len(p.Results) == 0 {
				t.Errorf("asked at once: %v, %d results", err, len(p.Results))
			}
		})
	}
	wg.Wait()
	if ix.runs.Load() != 6 {
		t.Fatalf("eight asking one search at once ran it %d times", ix.runs.Load()-5)
	}
}

// One waiting for a search that another runs stops waiting when its own
// context ends, and a search given up by its caller is run again for the
// one still waiting.
func TestWaitingForAKeptPageEndsWithTheContext(t *testing.T) {
	e := testIndex(t, []testDoc{{"a.txt", []string{"tide tables"}}})
	k, ok := e.keyOf(PageRequest{Request: Request{Query: "tide"}})
	if !ok {
		t.Fatal("a real index names its states")
	}
	f, leader := e.pages.join(k)
	if !leader {
		t.Fatal("the first to ask leads")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.keptSearchPage(ctx, PageRequest{Request: Request{Query: "tide"}}, func(context.Context) (Page, error) {
		t.Error("a follower ran the search while its leader did")
		return Page{}, nil
	}); err == nil {
		t.Fatal("a cancelled wait answered")
	}
	// The leader gave up: its flight ends with its context's error, still
	// listed, so the next to ask waits on it, then runs the search itself.
	f.err = context.Canceled
	close(f.done)
	ran := false
	p, err := e.keptSearchPage(context.Background(), PageRequest{Request: Request{Query: "tide"}}, func(context.Context) (Page, error) {
		ran = true
		return Page{Total: 1}, nil
	})
	if err != nil || !ran || p.Total != 1 {
		t.Fatalf("after the leader gave up: %v, ran %v, total %d", err, ran, p.Total)
	}
}
