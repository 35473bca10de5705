package queue

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"trove/backend/core"
)

// syncBuffer is a log sink safe for the queue's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A worker stuck where cancellation cannot reach (a system call on a hung
// mount) holds Run for the grace period only.
func TestStopWaitsForAStuckWorkerOnlyForTheGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stuck := make(chan struct{})
		defer close(stuck) // lets the abandoned worker end before the bubble does
		started := make(chan struct{})
		q := New(Config{Concurrency: 1, StopGrace: 3 * time.Second}, func(ctx context.Context, it Item) error {
			close(started)
			<-stuck // ignores ctx
			return nil
		}, Hooks{Log: slog.New(slog.DiscardHandler)})
		ctx, cancel := context.WithCancel(t.Context())
		stopped := make(chan time.Duration, 1)
		go func() {
			q.Run(ctx)
			close(stopped)
		}()
		q.Enqueue(Event{Path: "/hung/mount/file", Action: ActionIndex, Persist: true})
		<-started
		begin := time.Now()
		cancel()
		<-stopped
		if waited := time.Since(begin); waited != 3*time.Second {
			t.Fatalf("Run returned after %s, want the 3s grace", waited)
		}
		if st := q.Status(); st.Processing != 1 || len(q.Persistent()) != 1 {
			t.Fatalf("the abandoned item must stay queued for the next start: %+v", st)
		}
	})
}

// Workers that finish in time are waited for, and Run returns as soon as
// they are done.
func TestStopReturnsAsSoonAsWorkersEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := New(Config{Concurrency: 2}, r.handle, Hooks{})
		ctx, cancel := context.WithCancel(t.Context())
		stopped := make(chan struct{})
		go func() { q.Run(ctx); close(stopped) }()
		q.Enqueue(Event{Path: "/a", Action: ActionIndex})
		synctest.Wait()
		begin := time.Now()
		cancel()
		<-stopped
		if waited := time.Since(begin); waited != 0 {
			t.Fatalf("Run waited %s for a worker that honours cancellation", waited)
		}
	})
}

func TestPanicInHandlerFailsTheItemOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log syncBuffer
		var mu sync.Mutex
		failed := map[string]error{}
		var done []string
		q := start(t, Config{Concurrency: 1, MaxRetries: 5}, &recorder{}, Hooks{})
		q.handler = func(ctx context.Context, it Item) error {
			if it.Path == "/bomb" {
				var m map[string]int
				m["boom"]++ // a nil map write: a runtime panic, as a bug would raise
			}
			mu.Lock()
			done = append(done, it.Path)
			mu.Unlock()
			return nil
		}
		q.hooks.Log = slog.New(slog.NewTextHandler(&log, nil))
		q.hooks.Failed = func(it Item, err error) { mu.Lock(); failed[it.Path] = err; mu.Unlock() }
		q.Enqueue(Event{Path: "/bomb", Action: ActionIndex})
		q.Enqueue(Event{Path: "/fine", Action: ActionIndex})
		time.Sleep(time.Minute)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		var pe *core.PanicError
		if !errors.As(failed["/bomb"], &pe) || !strings.Contains(pe.Error(), "assignment to entry in nil map") {
			t.Fatalf("the panic must be the item's failure, got %v", failed["/bomb"])
		}
		if len(done) != 1 || done[0] != "/fine" || len(failed) != 1 {
			t.Fatalf("the other item must go on: done %v failed %v", done, failed)
		}
		if out := log.String(); !strings.Contains(out, "panic while processing a queue item") || !strings.Contains(out, "lifetime_test.go") {
			t.Fatalf("the panic must be logged with its stack:\n%s", out)
		}
	})
}

func TestPanicInAHookIsContained(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log syncBuffer
		r := &recorder{fail: func(Item, int) error { return core.Permanent(errors.New("unreadable")) }}
		q := start(t, Config{Concurrency: 1}, r, Hooks{
			Failed: func(Item, error) { panic("cannot record the failure") },
			Log:    slog.New(slog.NewTextHandler(&log, nil)),
		})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex})
		q.Enqueue(Event{Path: "/b", Action: ActionIndex})
		time.Sleep(time.Minute)
		synctest.Wait()
		if r.count() != 2 || q.Status().Total != 0 {
			t.Fatalf("calls %d, status %+v", r.count(), q.Status())
		}
		if !strings.Contains(log.String(), "panic in the failure hook") {
			t.Fatalf("log:\n%s", log.String())
		}
	})
}
