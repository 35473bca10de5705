// Package events is Trove's in-process publish/subscribe bus. The indexing
// engine publishes state changes; /api/updates and the desktop window
// subscribe. Publishing never blocks: a subscriber that falls too far behind
// is dropped, and reconnects to resynchronise.
package events

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"trove/backend/core"
)

// Bus fans events out to subscribers. The zero value is not usable; use New.
type Bus struct {
	nextID atomic.Uint64
	now    func() time.Time
	log    *slog.Logger

	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// New returns an empty bus that logs to log (nil: slog.Default()).
func New(log *slog.Logger) *Bus {
	if log == nil {
		log = slog.Default()
	}
	return &Bus{now: time.Now, log: log, subs: map[*Subscription]struct{}{}}
}

// Subscription is one subscriber's queue of pending events. The queue takes
// memory only while events wait in it (a subscriber that keeps up holds
// next to nothing, however many there are), and at most limit events: one
// more and the subscriber is dropped.
type Subscription struct {
	bus    *Bus
	filter func(core.Event) bool
	limit  int
	ready  chan struct{} // holds a token while events wait or once ended

	mu      sync.Mutex
	pending []core.Event
	ended   bool
	behind  bool
}

// Subscribe starts a subscription to the events filter accepts (all when
// filter is nil) that may fall at most limit events behind. Call Cancel
// when done.
func (b *Bus) Subscribe(limit int, filter func(core.Event) bool) *Subscription {
	s := &Subscription{bus: b, filter: filter, limit: max(limit, 1), ready: make(chan struct{}, 1)}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Publish stamps e with an id and time and queues it for every subscriber
// whose filter accepts it. A filter that panics ends its own subscription,
// never the publisher.
func (b *Bus) Publish(data core.EventData) {
	typ := data.EventKind()
	e := core.Event{ID: b.nextID.Add(1), Type: typ, Time: b.now().UTC(), Data: data}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		var want bool
		if err := core.Safe(func() { want = s.filter == nil || s.filter(e) }); err != nil {
			b.log.Error("event subscriber's filter panicked; subscription ended", "event", typ, "panic", err,
				"stack", string(panicStack(err)))
			b.dropLocked(s, false)
			continue
		}
		if want && !s.push(e) {
			b.dropLocked(s, true)
		}
	}
}

func panicStack(err error) []byte {
	if p, ok := err.(*core.PanicError); ok {
		return p.Stack
	}
	return []byte(fmt.Sprint(err))
}

// dropLocked removes s from the bus (b.mu held) and ends it.
func (b *Bus) dropLocked(s *Subscription, behind bool) {
	delete(b.subs, s)
	s.end(behind)
}

// Subscribers reports how many subscriptions are live.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}

// push queues e; false when the queue is full.
func (s *Subscription) push(e core.Event) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) >= s.limit {
		return false
	}
	s.pending = append(s.pending, e)
	s.signal()
	return true
}

func (s *Subscription) end(behind bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.ended, s.behind = true, behind
		s.signal()
	}
}

func (s *Subscription) signal() {
	select {
	case s.ready <- struct{}{}:
	default: // a token is already waiting
	}
}

// Ready receives a value when events wait or the subscription has ended;
// then call Take.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Take appends the waiting events to buf and reports whether the
// subscription is still live. Once it has ended, Take returns the events
// that were waiting and false.
func (s *Subscription) Take(buf []core.Event) ([]core.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf = append(buf, s.pending...)
	clear(s.pending)
	s.pending = s.pending[:0]
	if cap(s.pending) > 64 {
		s.pending = nil // after a burst, give the memory back
	}
	return buf, !s.ended
}

// FellBehind reports whether the subscription ended because more than its
// limit of events waited.
func (s *Subscription) FellBehind() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.behind
}

// Cancel ends the subscription; calling it again does nothing.
func (s *Subscription) Cancel() {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[s]; ok {
		b.dropLocked(s, false)
	}
}
