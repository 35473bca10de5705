package search

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// pollCtx is a context that SQLite's progress handler polls (through Err)
// every thousand or so steps of a query; it reports itself cancelled once
// it has been polled more than after times. So a test can cancel a query
// in the middle of its work without racing a clock.
type pollCtx struct {
	context.Context
	after int

	mu    sync.Mutex
	polls int
	done  chan struct{}
}

func newPollCtx(after int) *pollCtx {
	return &pollCtx{Context: context.Background(), after: after, done: make(chan struct{})}
}

func (c *pollCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.polls++
	if c.polls > c.after {
		select {
		case <-c.done:
		default:
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

func (c *pollCtx) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.polls
}

// stormEngine indexes n documents of random words (a large vocabulary, so
// that prefixes expand to many words) for keyword search.
func stormEngine(t *testing.T, n int) *Engine {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	d, _ := st.AddDirectory(ctx, "/d", true, "", time.Now())
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 3+rng.IntN(6))
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	for i := range n {
		words := make([]string, 300)
		for j := range words {
			words[j] = word()
		}
		name := fmt.Sprintf("f%d.txt", i)
		if _, err := st.PutDocument(ctx, store.Document{
			File: core.File{DirID: d.ID, Path: "/d/" + name, Filename: name, Extension: ".txt",
				Created: time.Now(), Modified: time.Now(), Accessed: time.Now(), Title: name},
			Chunks: []store.Chunk{{Text: strings.Join(words, " ")}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	return &Engine{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// SQLite stops a query when its context ends, in the middle of the
// query's work: a prefix storm cancelled a quarter of the way through
// returns an error soon after, instead of running to the end.
func TestCancelledStormStopsInsideSQLite(t *testing.T) {
	e := stormEngine(t, 300)
	storm := "ab* ac* ad* ae* af* ag* ah* ai*"
	full := newPollCtx(1 << 30)
	if _, err := e.Search(full, Request{Query: storm, Limit: 50, Mode: Keyword, Snippets: true}); err != nil {
		t.Fatal(err)
	}
	total := full.count()
	t.Logf("a full storm polls its context %d times", total)
	if total < 40 {
		t.Fatalf("the storm polled its context only %d times: too little work to cancel in the middle", total)
	}
	cut := newPollCtx(total / 4)
	_, err := e.Search(cut, Request{Query: storm, Limit: 50, Mode: Keyword, Snippets: true})
	if err == nil {
		t.Fatal("a cancelled storm ran to the end")
	}
	if after := cut.count() - total/4; after > total/4 {
		t.Fatalf("the storm went on for %d polls after it was cancelled (%d in all)", after, total)
	}
}
