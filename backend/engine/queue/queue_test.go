package queue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"trove/backend/core"
)

// recorder is a handler that records calls and can block or fail on demand.
type recorder struct {
	mu      sync.Mutex
	calls   []Item
	running int
	peak    int
	fail    func(it Item, n int) error // n: calls so far for this path
	gate    chan struct{}              // when set, each call waits for a value
}

func (r *recorder) handle(ctx context.Context, it Item) error {
	r.mu.Lock()
	r.running++
	r.peak = max(r.peak, r.running)
	n := 0
	for _, c := range r.calls {
		if c.Path == it.Path {
			n++
		}
	}
	r.calls = append(r.calls, it)
	gate, fail := r.gate, r.fail
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.running--; r.mu.Unlock() }()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if fail != nil {
		return fail(it, n)
	}
	return nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func (r *recorder) last() Item {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[len(r.calls)-1]
}

// start runs a queue inside the current synctest bubble.
func start(t *testing.T, cfg Config, r *recorder, hooks Hooks) *Queue {
	q := New(cfg, r.handle, hooks)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { q.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return q
}

func TestCooldownDelaysProcessing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Cooldown: 2 * time.Second, Concurrency: 1}, r, Hooks{})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Cooldown: 2 * time.Second})
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		if r.count() != 0 || q.Status().CoolingDown != 1 {
			t.Fatalf("processed during cooldown: calls=%d status=%+v", r.count(), q.Status())
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if r.count() != 1 || q.Status().Total != 0 {
			t.Fatalf("after cooldown: calls=%d status=%+v", r.count(), q.Status())
		}
	})
}

func TestBurstIsProcessedOnceAfterTheLastEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Concurrency: 2}, r, Hooks{})
		for range 1000 {
			q.Enqueue(Event{Path: "/hot", Action: ActionIndex, Cooldown: time.Second})
			time.Sleep(10 * time.Millisecond) // the writer's pace, in fake time
		}
		synctest.Wait()
		if r.count() != 0 {
			t.Fatalf("processed %d times during the burst", r.count())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if r.count() != 1 {
			t.Fatalf("processed %d times, want once", r.count())
		}
	})
}

func TestScanEventDoesNotShortenCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Concurrency: 1}, r, Hooks{})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Cooldown: 5 * time.Second})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Cooldown: 0})
		synctest.Wait()
		if r.count() != 0 {
			t.Fatal("a zero-cooldown event cut short a pending cooldown")
		}
	})
}

func TestConcurrencyLimitAndLiveChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := start(t, Config{Concurrency: 2}, r, Hooks{})
		for i := range 6 {
			q.Enqueue(Event{Path: fmt.Sprint("/f", i), Action: ActionIndex})
		}
		synctest.Wait()
		if st := q.Status(); st.Processing != 2 || st.Ready != 4 {
			t.Fatalf("status %+v, want 2 processing", st)
		}
		q.Configure(Config{Concurrency: 3})
		synctest.Wait()
		if st := q.Status(); st.Processing != 3 {
			t.Fatalf("after raising concurrency: %+v", st)
		}
		close(r.gate)
		synctest.Wait()
		if r.count() != 6 || r.peak != 3 {
			t.Fatalf("calls %d peak %d", r.count(), r.peak)
		}
	})
}

func TestRetriesWithBackoffThenSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{fail: func(_ Item, n int) error {
			if n < 2 {
				return errors.New("disk busy")
			}
			return nil
		}}
		var failed []Item
		q := start(t, Config{Concurrency: 1, MaxRetries: 3}, r, Hooks{Failed: func(it Item, _ error) { failed = append(failed, it) }})
		q.Enqueue(Event{Path: "/flaky", Action: ActionIndex})
		synctest.Wait()
		items, _ := q.Items(0, 0)
		if r.count() != 1 || len(items) != 1 || items[0].Retries != 1 || items[0].LastError != "disk busy" {
			t.Fatalf("after first failure: calls %d items %+v", r.count(), items)
		}
		time.Sleep(backoffBase)
		synctest.Wait()
		if r.count() != 2 {
			t.Fatalf("second attempt not after %v: calls %d", backoffBase, r.count())
		}
		time.Sleep(2 * backoffBase)
		synctest.Wait()
		if r.count() != 3 || q.Status().Total != 0 || len(failed) != 0 {
			t.Fatalf("calls %d total %d failed %d", r.count(), q.Status().Total, len(failed))
		}
	})
}

func TestRetriesExhaustedRecordsFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{fail: func(Item, int) error { return errors.New("unreadable") }}
		var failed []Item
		q := start(t, Config{Concurrency: 1, MaxRetries: 2}, r, Hooks{Failed: func(it Item, _ error) { failed = append(failed, it) }})
		q.Enqueue(Event{Path: "/bad", Action: ActionIndex})
		time.Sleep(time.Minute)
		synctest.Wait()
		if r.count() != 3 || len(failed) != 1 || failed[0].Retries != 2 || failed[0].LastError != "unreadable" {
			t.Fatalf("calls %d failed %+v", r.count(), failed)
		}
	})
}

func TestPermanentErrorIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{fail: func(Item, int) error { return core.Permanent(errors.New("not a regular file")) }}
		var failed int
		start(t, Config{Concurrency: 1, MaxRetries: 5}, r, Hooks{Failed: func(Item, error) { failed++ }}).
			Enqueue(Event{Path: "/fifo", Action: ActionIndex})
		time.Sleep(time.Minute)
		synctest.Wait()
		if r.count() != 1 || failed != 1 {
			t.Fatalf("calls %d failed %d", r.count(), failed)
		}
	})
}

func TestManualAndSchedulerPauses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Concurrency: 1}, r, Hooks{})
		q.Pause()
		q.SetSchedulerPause(true, "on battery")
		q.Enqueue(Event{Path: "/a", Action: ActionIndex})
		synctest.Wait()
		st := q.Status()
		if r.count() != 0 || !st.Paused || !st.PausedManually || !st.PausedByScheduler || st.SchedulerReason != "on battery" || st.Ready != 1 {
			t.Fatalf("paused: calls %d status %+v", r.count(), st)
		}
		q.Resume()
		synctest.Wait()
		if st := q.Status(); r.count() != 0 || !st.Paused || st.PausedManually {
			t.Fatalf("scheduler pause must still hold: calls %d %+v", r.count(), st)
		}
		q.SetSchedulerPause(false, "")
		synctest.Wait()
		if st := q.Status(); r.count() != 1 || st.Paused || st.SchedulerReason != "" {
			t.Fatalf("after both cleared: calls %d %+v", r.count(), st)
		}
	})
}

func TestEventDuringProcessingRunsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := start(t, Config{Concurrency: 1}, r, Hooks{})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex})
		synctest.Wait()
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Cooldown: time.Second})
		r.gate <- struct{}{}
		synctest.Wait()
		if r.count() != 1 || q.Status().CoolingDown != 1 {
			t.Fatalf("dirty item not re-queued: calls %d %+v", r.count(), q.Status())
		}
		time.Sleep(time.Second)
		r.gate <- struct{}{}
		synctest.Wait()
		if r.count() != 2 || q.Status().Total != 0 {
			t.Fatalf("calls %d %+v", r.count(), q.Status())
		}
	})
}

// A move waits for the worker still indexing its old name, and the other
// way round: otherwise the move takes the record away and the indexing
// writes the old name back.
func TestOnePathOneWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := start(t, Config{Concurrency: 4}, r, Hooks{})
		q.Enqueue(Event{Path: "/from", Action: ActionIndex})
		synctest.Wait()
		q.Enqueue(Event{Path: "/from", Dest: "/to", Action: ActionMove})
		q.Enqueue(Event{Path: "/other", Action: ActionIndex})
		synctest.Wait()
		if r.count() != 2 || r.last().Path != "/other" {
			t.Fatalf("the move ran beside the indexing of its old name: %+v", r.calls)
		}
		r.gate <- struct{}{}
		r.gate <- struct{}{}
		synctest.Wait()
		if r.count() != 3 || r.last().Action != ActionMove {
			t.Fatalf("the held move did not run once the path was free: %+v", r.calls)
		}
		q.Enqueue(Event{Path: "/from", Action: ActionIndex})
		synctest.Wait()
		if r.count() != 3 || len(q.held) != 1 {
			t.Fatalf("an item for the move's old name ran beside it: %+v", r.calls)
		}
		q.Remove(q.held[0].ID) // a held item can be removed
		r.gate <- struct{}{}
		synctest.Wait()
		if r.count() != 3 || q.Status().Total != 0 || len(q.held) != 0 || len(q.busy) != 0 {
			t.Fatalf("left behind: %+v calls %d held %v busy %v", q.Status(), r.count(), q.held, q.busy)
		}
	})
}

func TestMerging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Concurrency: 1}, r, Hooks{})
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Cooldown: time.Second})
		q.Enqueue(Event{Path: "/a", Action: ActionDelete, Cooldown: time.Second})
		q.Enqueue(Event{Path: "/old", Action: ActionIndex, Cooldown: time.Second})
		q.Enqueue(Event{Path: "/old", Dest: "/new", Action: ActionMove, Cooldown: time.Second})
		q.Enqueue(Event{Path: "/new", Action: ActionIndex, Cooldown: time.Second})
		items, total := q.Items(0, 0)
		if total != 2 {
			t.Fatalf("want 2 merged items, got %+v", items)
		}
		byPath := map[string]Item{}
		for _, it := range items {
			byPath[it.Path] = it
		}
		if byPath["/a"].Action != ActionDelete {
			t.Errorf("index+delete = %s, want delete", byPath["/a"].Action)
		}
		if mv := byPath["/old"]; mv.Action != ActionMove || mv.Dest != "/new" {
			t.Errorf("move then modify of the destination = %+v, want the move kept", mv)
		}
		q.Enqueue(Event{Path: "/new", Action: ActionDelete, Cooldown: time.Second})
		items, _ = q.Items(0, 0)
		deletes := map[string]bool{}
		for _, it := range items {
			if it.Action == ActionDelete && it.Dest == "" {
				deletes[it.Path] = true
			}
		}
		if !deletes["/old"] || !deletes["/new"] {
			t.Errorf("move then delete of the destination = %+v, want both names deleted", items)
		}
		q.Enqueue(Event{Path: "/new", Action: ActionIndex, Cooldown: time.Second}) // found under its key
		// Another file renamed onto a move's destination: the first file's
		// old name must still go.
		q.Enqueue(Event{Path: "/b", Dest: "/c", Action: ActionMove, Cooldown: time.Second})
		q.Enqueue(Event{Path: "/tmp-c", Dest: "/c", Action: ActionMove, Cooldown: time.Second})
		items, _ = q.Items(0, 0)
		deletes = map[string]bool{}
		for _, it := range items {
			if it.Action == ActionDelete {
				deletes[it.Path] = true
			}
		}
		if !deletes["/b"] {
			t.Errorf("a second move onto /c dropped the first one's old name: %+v", items)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if r.count() != 5 || q.Status().Total != 0 {
			t.Fatalf("calls %d, %+v", r.count(), q.Status())
		}
	})
}

func TestRemoveWaitingAndRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		var settled []int
		q := start(t, Config{Concurrency: 1}, r, Hooks{Pending: func(_ int64, n int) { settled = append(settled, n) }})
		q.Enqueue(Event{Path: "/run", Action: ActionIndex, DirID: 7})
		q.Enqueue(Event{Path: "/wait", Action: ActionIndex, DirID: 7, Cooldown: time.Hour})
		synctest.Wait()
		items, _ := q.Items(0, 0)
		for _, it := range items {
			if !q.Remove(it.ID) {
				t.Fatalf("remove %s failed", it.ID)
			}
		}
		if q.Remove("no-such-id") {
			t.Fatal("removed an unknown id")
		}
		synctest.Wait()
		if st := q.Status(); st.Total != 0 || q.Pending(7) != 0 {
			t.Fatalf("status after removal %+v", st)
		}
		if len(settled) == 0 || settled[len(settled)-1] != 0 {
			t.Fatalf("settled %v", settled)
		}
	})
}

func TestShutdownKeepsUnfinishedWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := New(Config{Concurrency: 1}, r.handle, Hooks{})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { q.Run(ctx); close(done) }()
		q.Enqueue(Event{Path: "/a", Action: ActionIndex, Persist: true})
		synctest.Wait()
		cancel()
		<-done
		if p := q.Persistent(); len(p) != 1 || p[0].Path != "/a" {
			t.Fatalf("unfinished work lost at shutdown: %+v", p)
		}
	})
}

func TestRestoreKeepsIDsAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		q := start(t, Config{Concurrency: 1}, r, Hooks{})
		q.Pause()
		q.Restore([]Item{{ID: "id-1", Path: "/a", Action: ActionIndex, Retries: 2, ReadyAt: time.Now()}})
		items, _ := q.Items(0, 0)
		if len(items) != 1 || items[0].ID != "id-1" || items[0].Retries != 2 {
			t.Fatalf("restored %+v", items)
		}
		q.Resume()
		synctest.Wait()
		if r.count() != 1 || r.last().ID != "id-1" {
			t.Fatal("restored item not processed")
		}
	})
}

// A failure that is not the item's (the index's disk is full) keeps the
// item as it was, takes nothing more while held, and runs it once released.
func TestHeldFailureKeepsTheItemWithoutSpendingRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		full := true
		var failed []Item
		r := &recorder{}
		var q *Queue
		r.fail = func(it Item, n int) error {
			if full {
				q.SetStorageHold(true, "disk full")
				return Held(errors.New("database or disk is full"))
			}
			return nil
		}
		q = start(t, Config{Concurrency: 1, MaxRetries: 1}, r, Hooks{Failed: func(it Item, _ error) { failed = append(failed, it) }})
		q.EnqueueAll([]Event{{Path: "/a", Action: ActionIndex}, {Path: "/b", Action: ActionIndex}})
		time.Sleep(time.Hour)
		synctest.Wait()
		st := q.Status()
		if r.count() != 1 || st.Total != 2 || !st.Paused || !st.PausedByStorage || st.StorageReason != "disk full" || len(failed) != 0 {
			t.Fatalf("while held: calls=%d status=%+v failed=%v", r.count(), st, failed)
		}
		for _, it := range q.Persistent() {
			if it.Retries != 0 {
				t.Fatalf("a held item spent a retry: %+v", it)
			}
		}
		full = false
		q.SetStorageHold(false, "")
		synctest.Wait()
		if st := q.Status(); st.Total != 0 || st.Paused || r.count() != 3 || len(failed) != 0 {
			t.Fatalf("after release: calls=%d status=%+v failed=%v", r.count(), st, failed)
		}
	})
}

// While a folder's records move, nothing at or below its old or new name
// runs: wait returns once the items already running there end, the items
// that come due meanwhile are held back, and release lets them run.
func TestHoldTreeHoldsBothNamesUntilReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{gate: make(chan struct{})}
		q := start(t, Config{Concurrency: 4}, r, Hooks{})
		q.Enqueue(Event{Path: "/old/a", Action: ActionIndex})
		synctest.Wait()
		wait, release := q.HoldTree("/old", "/new")
		waited := make(chan error, 1)
		go func() { waited <- wait(t.Context()) }()
		q.EnqueueAll([]Event{{Path: "/old/b", Action: ActionIndex}, {Path: "/new/c", Action: ActionIndex},
			{Path: "/older/d", Action: ActionIndex}})
		synctest.Wait()
		select {
		case err := <-waited:
			t.Fatalf("wait returned (%v) while /old/a still runs", err)
		default:
		}
		if r.count() != 2 || r.last().Path != "/older/d" {
			t.Fatalf("an item in a held tree ran: %+v", r.calls)
		}
		r.gate <- struct{}{}
		r.gate <- struct{}{}
		synctest.Wait()
		if err := <-waited; err != nil {
			t.Fatal(err)
		}
		if r.count() != 2 {
			t.Fatalf("an item in a held tree ran before release: %+v", r.calls)
		}
		release()
		release() // a second release changes nothing
		synctest.Wait()
		if r.count() != 4 {
			t.Fatalf("the held items did not run after release: %+v", r.calls)
		}
		r.gate <- struct{}{}
		r.gate <- struct{}{}
		synctest.Wait()
		if q.Status().Total != 0 || len(q.trees) != 0 || len(q.held) != 0 || len(q.busy) != 0 {
			t.Fatalf("left behind: %+v trees %v held %v busy %v", q.Status(), q.trees, q.held, q.busy)
		}
	})
}
