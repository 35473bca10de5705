package daemon

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves: each wait the code under test asks
// for arrives on timers, and fires when the test sends the time on it.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	timers chan fakeTimer
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) move(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

type fakeTimer struct {
	d    time.Duration
	fire chan time.Time
}

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.timers <- fakeTimer{d, ch}
	return ch
}

// next takes the wait the loop asked for, moves the clock by it and
// fires it.
func (c *fakeClock) next(t *testing.T) time.Duration {
	t.Helper()
	tm := c.take(t)
	tm.fire <- c.move(tm.d)
	return tm.d
}

// take takes the wait the loop asked for, leaving the loop waiting on it.
func (c *fakeClock) take(t *testing.T) fakeTimer {
	t.Helper()
	select {
	case tm := <-c.timers:
		return tm
	case <-time.After(10 * time.Second):
		t.Fatal("the loop asked for no wait")
		return fakeTimer{}
	}
}

// Trove gives memory back once after each quiet spell that follows work,
// never while work keeps coming, never twice for one spell, and the loop
// ends with its context.
func TestQuietReturnsMemoryOncePerQuietSpell(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0), timers: make(chan fakeTimer)}
	frees := make(chan struct{}, 10)
	q := &quiet{wait: 30 * time.Second, now: clock.now, after: clock.after,
		free: func() { frees <- struct{}{} }}
	freed := func() int { return len(frees) }
	q.touch() // a request at the start
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); q.run(ctx) }()

	if d := clock.next(t); d != 30*time.Second { // waits for the spell to end
		t.Fatalf("first wait %v, want 30s", d)
	}
	clock.next(t) // the loop has returned memory before asking again
	if freed() != 1 {
		t.Fatalf("after a quiet spell: %d returns, want 1", freed())
	}
	clock.next(t) // still quiet: nothing new to return
	if freed() != 1 {
		t.Fatalf("a second quiet spell without work: %d returns, want 1", freed())
	}
	// A request 10 s into the next wait, made while the loop waits (not
	// while it works out its next wait): the spell is counted from it.
	tm := clock.take(t)
	clock.move(10 * time.Second)
	q.touch()
	tm.fire <- clock.move(tm.d - 10*time.Second)
	// Checked before the wait fires: at its end the loop returns memory.
	if tm = clock.take(t); tm.d != 10*time.Second || freed() != 1 {
		t.Fatalf("after a request: waits %v with %d returns, want 10s and 1", tm.d, freed())
	}
	tm.fire <- clock.move(tm.d)
	clock.next(t) // the wait the loop asked for after returning memory
	if freed() != 2 {
		t.Fatalf("after the request's quiet spell: %d returns, want 2", freed())
	}
	cancel()
	for ended := false; !ended; {
		select {
		case <-done:
			ended = true
		case tm := <-clock.timers: // a wait it asked for before it saw the end
			tm.fire <- clock.now()
		case <-time.After(10 * time.Second):
			t.Fatal("the loop did not end with its context")
		}
	}
}
