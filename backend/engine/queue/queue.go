// Package queue is the indexing queue: per-path debounce (cooldown), merging
// of repeated events, a bounded pool of workers, retries with backoff, and
// three independent pauses (manual, scheduler, and the storage hold: the
// index cannot be written, so nothing is taken and no retry is spent).
package queue

import (
	"container/heap"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"trove/backend/core"
	"trove/backend/engine/text/pathglob"
)

// Handler processes one item. An error wrapped by core.Permanent is not
// retried; one wrapped by Held keeps the item as it was.
type Handler func(ctx context.Context, it Item) error

// Config are the live-tunable knobs (the queue.* settings).
type Config struct {
	Cooldown    time.Duration
	Concurrency int
	MaxRetries  int
	// StopGrace is how long Run waits for running items once its context
	// ends (not a user setting; 0 means DefaultStopGrace).
	StopGrace time.Duration
}

// DefaultStopGrace bounds the wait for running items at stop: a worker
// stuck in the kernel (a hung mount) must not keep Trove from stopping.
const DefaultStopGrace = 2 * time.Second

// Hooks let the owner react to the queue. All are optional and are called
// without the queue's lock held.
type Hooks struct {
	// Failed runs when an item's retries are exhausted (or its error is
	// permanent): the owner records the failure.
	Failed func(it Item, err error)
	// Pending runs after a folder's number of queued items changed (an item
	// arrived or left), with the new number.
	Pending func(dirID int64, pending int)
	// Changed runs after any change of the counts (rate limiting is the
	// owner's business).
	Changed func()
	// Log receives what the queue itself has to report: panics recovered
	// in its workers, workers left running at stop. nil: slog.Default().
	Log *slog.Logger
}

// Backoff between retries: base doubled per attempt, capped.
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 5 * time.Minute
)

// Queue is safe for concurrent use. Create it with New and run it with Run.
type Queue struct {
	handler Handler
	hooks   Hooks

	mu           sync.Mutex
	cfg          Config
	items        map[string]*Item // by key path
	byID         map[string]*Item
	waiting      itemHeap // not processing, ordered by ReadyAt
	running      int
	pending      map[int64]int  // items per folder
	touched      map[int64]bool // folders whose pending count changed, not yet reported
	pausedManual bool
	sched        pause // the scheduler's rules
	storage      pause // the index cannot be written
	wake         chan struct{}
	ctx          context.Context
	cancels      map[string]context.CancelFunc
	// One path, one worker: busy counts the running items that touch each
	// path (a move touches two), and held keeps the due items that touch a
	// busy path until it is free. Otherwise a move could take a file's
	// record away while another worker still writes the file's old name.
	busy map[string]int
	held []*Item
	// trees are folders whose items wait while the owner moves the folder's
	// records (see HoldTree); freed is closed and replaced whenever a
	// running item lets go of its paths.
	trees map[string]int
	freed chan struct{}
}

// New builds a queue that hands items to handler.
func New(cfg Config, handler Handler, hooks Hooks) *Queue {
	if hooks.Log == nil {
		hooks.Log = slog.Default()
	}
	return &Queue{
		handler: handler, hooks: hooks, cfg: sanitize(cfg),
		items: map[string]*Item{}, byID: map[string]*Item{}, pending: map[int64]int{}, touched: map[int64]bool{},
		wake: make(chan struct{}, 1), cancels: map[string]context.CancelFunc{}, busy: map[string]int{},
		trees: map[string]int{}, freed: make(chan struct{}),
	}
}

func sanitize(c Config) Config {
	c.Concurrency = max(c.Concurrency, 1)
	c.MaxRetries = max(c.MaxRetries, 0)
	c.Cooldown = max(c.Cooldown, 0)
	if c.StopGrace <= 0 {
		c.StopGrace = DefaultStopGrace
	}
	return c
}

// Configure applies new settings at once: waiting items keep their
// cooldowns, new events use the new one, and the worker limit changes for
// the next item taken.
func (q *Queue) Configure(cfg Config) {
	q.mu.Lock()
	q.cfg = sanitize(cfg)
	q.mu.Unlock()
	q.poke()
}

// Cooldown is the configured cooldown for watcher events.
func (q *Queue) Cooldown() time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.cfg.Cooldown
}

// Enqueue adds or merges work for a path. A second event for a waiting path
// merges actions and pushes its cooldown out (never in); one for a path being
// processed marks it to run again once done.
func (q *Queue) Enqueue(ev Event) {
	q.EnqueueAll([]Event{ev})
}

// EnqueueAll is Enqueue for many events under one lock.
func (q *Queue) EnqueueAll(evs []Event) {
	now := time.Now()
	q.mu.Lock()
	for _, ev := range evs {
		q.enqueueLocked(ev, now)
	}
	q.mu.Unlock()
	q.notify()
	q.poke()
}

// Offer queues the events whose paths wait for nothing yet, in the order
// given (among items due at the same time, an earlier one is taken
// first), until limit are queued, and leaves the paths already queued as
// they are: their items keep their cooldowns and retries. It returns how
// many it queued and how many of evs it went through. The content pass
// hands its files over this way, a window at a time.
func (q *Queue) Offer(evs []Event, limit int) (queued, used int) {
	now := time.Now()
	n := 0
	q.mu.Lock()
	for _, ev := range evs {
		if n >= limit {
			break
		}
		used++
		key := ev.Path
		if ev.Action == ActionMove {
			key = ev.Dest
		}
		if _, queued := q.items[key]; queued {
			continue
		}
		// One nanosecond apart: the heap takes items due together by age.
		q.enqueueLocked(ev, now.Add(time.Duration(n)))
		n++
	}
	q.mu.Unlock()
	if n > 0 {
		q.notify()
		q.poke()
	}
	return n, used
}

// Len is the number of items queued.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.byID)
}

// Paused reports whether any pause holds.
func (q *Queue) Paused() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pausedLocked()
}

func (q *Queue) enqueueLocked(ev Event, now time.Time) {
	if ev.Action == ActionMove {
		// A pending item for the old name is superseded by the move.
		if old, ok := q.items[ev.Path]; ok && !old.processing {
			q.dropLocked(old)
		}
	}
	key := ev.Path
	if ev.Action == ActionMove {
		key = ev.Dest
	}
	readyAt := now.Add(ev.Cooldown)
	if it, ok := q.items[key]; ok {
		if it.Action == ActionMove && (ev.Action == ActionDelete || ev.Action == ActionMove && ev.Path != it.Path) {
			// The moved file is gone from its new name too, or another file
			// took that name: its old name (still indexed if the move has
			// not run) must go as well.
			defer q.enqueueLocked(Event{Path: it.Path, Action: ActionDelete, DirID: it.DirID, Cooldown: ev.Cooldown, Persist: true}, now)
		}
		it.merge(ev)
		if it.processing {
			it.dirty = true
			it.ReadyAt = readyAt
			return
		}
		it.ReadyAt = maxTime(it.ReadyAt, readyAt)
		it.Retries = 0
		q.rekeyLocked(it, key)
		if it.heapIndex >= 0 { // not held back for a busy path
			heap.Fix(&q.waiting, it.heapIndex)
		}
		return
	}
	q.addLocked(&Item{
		ID: uuid.NewString(), Path: ev.Path, Dest: ev.Dest, Action: ev.Action, DirID: ev.DirID,
		EnqueuedAt: now, ReadyAt: readyAt, persist: ev.Persist,
	})
}

// addLocked files a new waiting item.
func (q *Queue) addLocked(it *Item) {
	q.items[it.key()] = it
	q.byID[it.ID] = it
	q.pending[it.DirID]++
	q.touched[it.DirID] = true
	heap.Push(&q.waiting, it)
}

// rekeyLocked files an item under its current key after a merge changed it.
func (q *Queue) rekeyLocked(it *Item, oldKey string) {
	newKey := it.key()
	if newKey == oldKey {
		return
	}
	delete(q.items, oldKey)
	if other, ok := q.items[newKey]; ok && !other.processing {
		q.dropLocked(other)
	}
	q.items[newKey] = it
}

// Restore re-adds items saved before a restart, keeping ids and retry counts.
func (q *Queue) Restore(items []Item) {
	q.mu.Lock()
	for _, saved := range items {
		it := saved
		it.processing, it.dirty, it.persist = false, false, true
		if _, ok := q.items[it.key()]; ok {
			continue
		}
		q.addLocked(&it)
	}
	q.mu.Unlock()
	q.notify()
	q.poke()
}

// Remove drops an item by id; a running item is cancelled. It reports
// whether the id was known.
func (q *Queue) Remove(id string) bool {
	q.mu.Lock()
	it, ok := q.byID[id]
	if ok {
		if it.processing {
			if cancel := q.cancels[id]; cancel != nil {
				cancel()
			}
			it.dirty = false
		}
		q.dropLocked(it)
	}
	q.mu.Unlock()
	q.notify()
	return ok
}

// Forget drops the waiting item filed under path, if any (a folder rename
// turned its delete into a move the owner handles itself).
func (q *Queue) Forget(path string) {
	q.mu.Lock()
	it, ok := q.items[path]
	if ok && !it.processing {
		q.dropLocked(it)
	}
	q.mu.Unlock()
	q.notify()
}

// RemoveFolder drops every item of a folder (its watch was removed).
func (q *Queue) RemoveFolder(dirID int64) {
	q.mu.Lock()
	for _, it := range q.byID {
		if it.DirID == dirID {
			if cancel := q.cancels[it.ID]; cancel != nil {
				cancel()
			}
			it.dirty = false
			q.dropLocked(it)
		}
	}
	q.mu.Unlock()
	q.notify()
}

// dropLocked forgets an item entirely.
func (q *Queue) dropLocked(it *Item) {
	if cur, ok := q.items[it.key()]; ok && cur == it {
		delete(q.items, it.key())
	}
	if _, ok := q.byID[it.ID]; !ok {
		return
	}
	delete(q.byID, it.ID)
	switch {
	case it.processing:
	case it.heapIndex >= 0:
		heap.Remove(&q.waiting, it.heapIndex)
	default: // held back for a busy path
		q.held = slices.DeleteFunc(q.held, func(h *Item) bool { return h == it })
	}
	if q.pending[it.DirID]--; q.pending[it.DirID] <= 0 {
		delete(q.pending, it.DirID)
	}
	q.touched[it.DirID] = true
}

// Pause holds processing until Resume. Items are still accepted.
func (q *Queue) Pause() { q.setPause(func() { q.pausedManual = true }) }

// Resume clears the manual pause; a scheduler pause still holds.
func (q *Queue) Resume() { q.setPause(func() { q.pausedManual = false }) }

// SetSchedulerPause sets or clears the scheduler's pause and its reason.
func (q *Queue) SetSchedulerPause(paused bool, reason string) {
	q.setPause(func() { q.sched.set(paused, reason) })
}

// SetStorageHold sets or clears the storage hold: while the index cannot be
// written (its disk is full), no item is taken, so none spends its retries
// on a failure that is not its own.
func (q *Queue) SetStorageHold(held bool, reason string) {
	q.setPause(func() { q.storage.set(held, reason) })
}

// pause is one of the owners' reasons to take no items, with its words.
type pause struct {
	on  bool
	why string // "" when off
}

func (p *pause) set(on bool, why string) {
	p.on, p.why = on, ""
	if on {
		p.why = why
	}
}

// pausedLocked reports whether any pause holds.
func (q *Queue) pausedLocked() bool { return q.pausedManual || q.sched.on || q.storage.on }

func (q *Queue) setPause(fn func()) {
	func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		fn()
	}()
	q.changed()
	q.poke()
}

func (q *Queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *Queue) changed() {
	if q.hooks.Changed != nil {
		q.hooks.Changed()
	}
}

// notify reports the folders whose pending counts changed, then that the
// queue changed. Call it after releasing the lock.
func (q *Queue) notify() {
	q.mu.Lock()
	counts := make(map[int64]int, len(q.touched))
	for dirID := range q.touched {
		counts[dirID] = q.pending[dirID]
	}
	clear(q.touched)
	q.mu.Unlock()
	if q.hooks.Pending != nil {
		for dirID, n := range counts {
			q.hooks.Pending(dirID, n)
		}
	}
	q.changed()
}

// Run dispatches ready items to workers until ctx ends, then waits for the
// running items to finish, for StopGrace at most: the items still running
// then are abandoned (they stay queued for the next start, and their
// workers, cancelled, end whenever what holds them lets go).
func (q *Queue) Run(ctx context.Context) error {
	q.mu.Lock()
	q.ctx = ctx
	q.mu.Unlock()
	var wg sync.WaitGroup
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		for {
			it, wait := q.next()
			if it == nil {
				resetTimer(timer, wait)
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				q.safely("a queue worker", func() { q.work(ctx, it) })
			}()
		}
		select {
		case <-ctx.Done():
			q.drain(&wg)
			return nil
		case <-q.wake:
		case <-timer.C:
		}
	}
}

// drain waits for the running items, for the grace period at most.
func (q *Queue) drain(wg *sync.WaitGroup) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	q.mu.Lock()
	grace := q.cfg.StopGrace
	q.mu.Unlock()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		q.mu.Lock()
		n := q.running
		q.mu.Unlock()
		q.hooks.Log.Warn("stopping with items still processing: they stay queued for the next start", "items", n, "waited", grace)
	}
}

func resetTimer(t *time.Timer, d time.Duration) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(d)
}

// next takes the earliest ready item if a worker is free and the queue is
// not paused; otherwise it says how long to wait before looking again.
func (q *Queue) next() (*Item, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pausedLocked() || q.running >= q.cfg.Concurrency {
		return nil, time.Hour
	}
	for q.waiting.Len() > 0 {
		first := q.waiting[0]
		if wait := time.Until(first.ReadyAt); wait > 0 {
			return nil, wait
		}
		heap.Pop(&q.waiting)
		if q.blockedLocked(first) {
			q.held = append(q.held, first)
			continue
		}
		first.processing = true
		first.dirty = false
		q.running++
		q.hold(first, 1)
		return first, 0
	}
	return nil, time.Hour
}

// hold marks the paths a starting item touches as busy (delta 1), or those
// of a finished one as free (-1), when the items held for them are due
// again. The paths are kept on the item: an event merged into it while it
// runs may change its names, not what it holds.
func (q *Queue) hold(it *Item, delta int) {
	if delta > 0 {
		it.holds = [2]string{it.Path, it.Dest}
	}
	for _, p := range it.holds {
		if p == "" {
			continue
		}
		if q.busy[p] += delta; q.busy[p] <= 0 {
			delete(q.busy, p)
		}
	}
	if delta > 0 {
		return
	}
	close(q.freed)
	q.freed = make(chan struct{})
	q.releaseHeldLocked()
}

// blockedLocked reports whether an item must wait: a running item holds
// one of its paths, or they lie in a held tree.
func (q *Queue) blockedLocked(it *Item) bool {
	for _, p := range []string{it.Path, it.Dest} {
		if p == "" {
			continue
		}
		if q.busy[p] > 0 {
			return true
		}
		for dir := range q.trees {
			if pathglob.Within(dir, p) {
				return true
			}
		}
	}
	return false
}

// releaseHeldLocked makes due again the held items nothing blocks now.
func (q *Queue) releaseHeldLocked() {
	q.held = slices.DeleteFunc(q.held, func(h *Item) bool {
		if q.blockedLocked(h) {
			return false
		}
		heap.Push(&q.waiting, h)
		return true
	})
}

// HoldTree holds back the items at or below each of dirs: they wait, due
// or not, until release is called. wait returns once no running item
// touches any of dirs or anything below them (or ctx ends). The owner holds
// a folder's old and new names this way while it moves the folder's
// records, so no worker writes the old names after the move, nor a new file
// at an old name before it.
func (q *Queue) HoldTree(dirs ...string) (wait func(context.Context) error, release func()) {
	q.mu.Lock()
	for _, dir := range dirs {
		q.trees[dir]++
	}
	q.mu.Unlock()
	release = sync.OnceFunc(func() {
		q.mu.Lock()
		for _, dir := range dirs {
			if q.trees[dir]--; q.trees[dir] <= 0 {
				delete(q.trees, dir)
			}
		}
		q.releaseHeldLocked()
		q.mu.Unlock()
		q.poke()
	})
	wait = func(ctx context.Context) error {
		for {
			q.mu.Lock()
			running := false
			for p := range q.busy {
				for _, dir := range dirs {
					running = running || pathglob.Within(dir, p)
				}
			}
			freed := q.freed
			q.mu.Unlock()
			if !running {
				return nil
			}
			select {
			case <-freed:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return wait, release
}

func (q *Queue) work(ctx context.Context, it *Item) {
	ictx, cancel := context.WithCancel(ctx)
	q.mu.Lock()
	q.cancels[it.ID] = cancel
	snapshot := *it
	q.mu.Unlock()
	q.safely("the change hook", q.changed)

	err := q.call(ictx, snapshot)
	cancel()

	q.mu.Lock()
	delete(q.cancels, it.ID)
	q.running--
	q.hold(it, -1)
	it.processing = false
	_, alive := q.byID[it.ID]
	var failed *Item
	switch {
	case !alive:
		// removed while running
	case it.dirty:
		// changed again while we worked: go round once more
		it.Retries, it.LastError = 0, ""
		heap.Push(&q.waiting, it)
	case err == nil:
		q.dropLocked(it)
	case ctx.Err() != nil:
		// shutting down: keep it for the next start
		heap.Push(&q.waiting, it)
	case isHeld(err):
		// not the item's failure: it waits, as it was, for the hold to end
		it.LastError = err.Error()
		it.persist = true
		heap.Push(&q.waiting, it)
	case core.IsPermanent(err) || isPanic(err) || it.Retries >= q.cfg.MaxRetries:
		it.LastError = err.Error()
		cp := *it
		failed = &cp
		q.dropLocked(it)
	default:
		it.Retries++
		it.LastError = err.Error()
		it.persist = true
		it.ReadyAt = time.Now().Add(backoff(it.Retries))
		heap.Push(&q.waiting, it)
	}
	q.mu.Unlock()
	if failed != nil && q.hooks.Failed != nil {
		q.safely("the failure hook", func() { q.hooks.Failed(*failed, err) })
	}
	q.safely("the change hooks", q.notify)
	q.poke()
}

// call runs the handler; a panic in it becomes the item's failure (not
// retried), logged with its stack, never the process's end.
func (q *Queue) call(ctx context.Context, it Item) (err error) {
	defer func() {
		if pe, ok := err.(*core.PanicError); ok {
			q.hooks.Log.Error("panic while processing a queue item", "path", it.Path, "action", it.Action, "panic", pe.Value, "stack", string(pe.Stack))
		}
	}()
	defer core.Recover(&err)
	return q.handler(ctx, it)
}

// safely runs an owner's hook in a worker: a panic there is logged and
// dropped, since the item's bookkeeping is already done.
func (q *Queue) safely(what string, fn func()) {
	if err := core.Safe(fn); err != nil {
		pe := err.(*core.PanicError)
		q.hooks.Log.Error("panic in "+what, "panic", pe.Value, "stack", string(pe.Stack))
	}
}

func backoff(attempt int) time.Duration {
	d := backoffBase << (attempt - 1)
	if d <= 0 || d > backoffMax {
		return backoffMax
	}
	return d
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// isPanic reports a panic recovered at this boundary (not one a handler
// already turned into a core.Permanent error of its own).
func isPanic(err error) bool {
	_, ok := err.(*core.PanicError)
	return ok
}

// heldError marks a failure that is not the item's own (the index's disk is
// full): the item is kept without spending a retry.
type heldError struct{ err error }

func (h heldError) Error() string { return h.err.Error() }
func (h heldError) Unwrap() error { return h.err }

// Held wraps err so the queue keeps the item as it was, ready to run again
// once the owner lifts the storage hold (SetStorageHold).
func Held(err error) error { return heldError{err} }

func isHeld(err error) bool {
	var h heldError
	return errors.As(err, &h)
}
