package embedding

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"trove/internal/poll"

	"trove/backend/core"
	"trove/backend/engine/provider"
)

// logBuffer collects log lines from several goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// count is how many lines contain all of words.
func (l *logBuffer) count(words ...string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range strings.Split(l.b.String(), "\n") {
		all := line != ""
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if all {
			n++
		}
	}
	return n
}

// clock is a settable time.
type clock struct{ ns atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	poll.Eventually(t, 10*time.Second, what, cond)
}

// flaky is an Ollama stub that answers 503 while down.
func flaky(t *testing.T) (*stub, *atomic.Bool) {
	s := ollamaStub(t)
	var down atomic.Bool
	s.setAnswer(func(w http.ResponseWriter, r *http.Request, inputs []string) bool {
		if !down.Load() {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":"server busy"}`)
		return true
	})
	return s, &down
}

// An outage is recorded once, refuses requests at once while it lasts,
// is summarised now and then, and ends when a probe is answered.
func TestHealthFollowsAnOutage(t *testing.T) {
	s, down := flaky(t)
	r, err := NewOllama("m", s.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs logBuffer
	var clk clock
	clk.ns.Store(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC).UnixNano())
	var changes atomic.Int32
	recovered := make(chan struct{}, 1)
	h := NewHealth(HealthOptions{
		Log: slog.New(slog.NewTextHandler(&logs, nil)), RetryEvery: 5 * time.Millisecond, SummaryEvery: time.Minute, Now: clk.now,
		OnChange: func(core.EmbeddingHealth) { changes.Add(1) }, OnRecover: func() { recovered <- struct{}{} },
	})
	em := h.Watch(r)
	ctx := context.Background()
	if _, err := em.Embed(ctx, []string{"roof"}); err != nil || h.Status().Failing() {
		t.Fatalf("a working provider: %v %+v", err, h.Status())
	}

	down.Store(true)
	before, _, _, _ := s.snapshot()
	for range 50 {
		if _, err := em.Embed(ctx, []string{"roof"}); !provider.Down(err) {
			t.Fatalf("want a provider error, got %v", err)
		}
	}
	if after, _, _, _ := s.snapshot(); after-before != 1 {
		t.Fatalf("%d requests reached the server during the outage; want 1, the rest refused at once", after-before)
	}
	st := h.Status()
	if st.State != core.EmbeddingFailing || !strings.Contains(st.Message, "503") || st.Failed != 50 || !st.Since.Equal(clk.now()) || st.Model != "ollama:m" {
		t.Fatalf("status %+v", st)
	}
	if n := logs.count("level=WARN"); n != 1 || changes.Load() != 1 {
		t.Fatalf("%d warnings and %d changes for one outage:\n%s", n, changes.Load(), logs.b.String())
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	clk.advance(2 * time.Minute)
	eventually(t, "a summary of the outage", func() bool { return logs.count("level=WARN", "still failing", "failed_requests=") == 1 })

	down.Store(false)
	select {
	case <-recovered:
	case <-time.After(10 * time.Second):
		t.Fatal("the provider's return was not noticed")
	}
	if st := h.Status(); st.Failing() || st.Message != "" || !st.Since.IsZero() {
		t.Fatalf("after the outage: %+v", st)
	}
	if logs.count("level=INFO", "answers again") != 1 || changes.Load() != 2 {
		t.Fatalf("the return was not logged once:\n%s", logs.b.String())
	}
	if _, err := em.Embed(context.Background(), []string{"roof"}); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A request the provider refuses on its own, or one the caller gives up,
// says nothing about the provider.
func TestHealthIgnoresOneRefusedRequest(t *testing.T) {
	s := ollamaStub(t)
	s.setAnswer(func(w http.ResponseWriter, r *http.Request, inputs []string) bool {
		if inputs[0] == "too long" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"input length exceeds the context length"}`)
			return true
		}
		if inputs[0] == "slow" {
			<-r.Context().Done()
			return true
		}
		return false
	})
	r, _ := NewOllama("m", s.srv.URL, nil)
	h := NewHealth(HealthOptions{})
	em := h.Watch(r)
	if _, err := em.Embed(context.Background(), []string{"too long"}); err == nil || provider.Down(err) {
		t.Fatalf("a refused request: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if n, _, _, _ := s.snapshot(); n == 2 {
				return // the slow request has arrived: give up on it
			}
		}
	}()
	if _, err := em.Embed(ctx, []string{"slow"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request: %v", err)
	}
	if st := h.Status(); st.Failing() {
		t.Fatalf("%+v", st)
	}
}

// Choosing another embedder forgets the outage of the one before; the
// builtin is not wrapped.
func TestHealthFollowsTheEmbedderInUse(t *testing.T) {
	s, down := flaky(t)
	down.Store(true)
	r, _ := NewOllama("m", s.srv.URL, nil)
	h := NewHealth(HealthOptions{})
	old := h.Watch(r)
	old.Embed(context.Background(), []string{"x"})
	if !h.Status().Failing() {
		t.Fatal("not failing")
	}
	b := builtin(t)
	if got := h.Watch(b); got != Embedder(b) {
		t.Fatalf("the builtin was wrapped: %T", got)
	}
	if st := h.Status(); st.Failing() || st.Model != b.Model() {
		t.Fatalf("after the change: %+v", st)
	}
	old.Embed(context.Background(), []string{"x"}) // a late call of the old one
	if h.Status().Failing() {
		t.Fatal("the old embedder's failure counted against the new one")
	}
}

// At start, a remote provider is tried once; files left without vectors
// are embedded when it answers.
func TestHealthStartsWithAProbe(t *testing.T) {
	s, _ := flaky(t)
	r, _ := NewOllama("m", s.srv.URL, nil)
	recovered := make(chan struct{}, 1)
	h := NewHealth(HealthOptions{
		Pending:   func(context.Context) (int, error) { return 3, nil },
		OnRecover: func() { recovered <- struct{}{} },
	})
	h.Watch(r)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	select {
	case <-recovered:
	case <-time.After(10 * time.Second):
		t.Fatal("files without vectors were not re-embedded at start")
	}
	if n, _, _, _ := s.snapshot(); n != 1 {
		t.Fatalf("%d requests at start", n)
	}
}
