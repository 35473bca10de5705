package daemon

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// QuietFor is how long Trove waits after its latest work (a request, a
// search from the window, a file indexed) before it gives back the memory
// the runtime kept from the burst before. A burst of searches or indexing
// grows the heap (each search's candidates, evidence and answer), and the
// runtime returns freed pages to the system only slowly: a desktop app
// idle in the tray should not hold a busy minute's peak for hours.
const QuietFor = 30 * time.Second

// quiet returns the runtime's idle memory to the system (free) once each
// time Trove falls quiet: QuietFor after the latest work, if any work came
// since the last return. Its clock and hook are fields, so that a test can
// drive it without waiting.
type quiet struct {
	wait  time.Duration
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
	free  func()
	last  atomic.Int64 // the latest work's start or end, Unix nanoseconds
	work  atomic.Bool  // work came since the last return
}

func newQuiet() *quiet {
	return &quiet{wait: QuietFor, now: time.Now, after: time.After, free: debug.FreeOSMemory}
}

// touch records work starting or ending.
func (q *quiet) touch() {
	q.last.Store(q.now().UnixNano())
	q.work.Store(true)
}

// run returns memory after each quiet spell until ctx ends. The daemon's
// Run starts it beside the other parts and waits for it.
func (q *quiet) run(ctx context.Context) error {
	for {
		since := q.now().Sub(time.Unix(0, q.last.Load()))
		wait := q.wait - since
		if wait <= 0 {
			if q.work.Swap(false) {
				q.free()
			}
			wait = q.wait
		}
		select {
		case <-ctx.Done():
			return nil
		case <-q.after(wait):
		}
	}
}
