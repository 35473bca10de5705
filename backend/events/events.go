// Package events is Trove's in-process publish/subscribe bus. The indexing
// engine publishes state changes; /api/updates and the desktop window
// subscribe. Publishing never blocks: a subscriber that falls too far behind
// is dropped (its channel closed), and reconnects to resynchronise.
package events

import (
	"sync"
	"sync/atomic"
	"time"

	"trove/backend/core"
)

// Bus fans events out to subscribers. The zero value is not usable; use New.
type Bus struct {
	nextID atomic.Uint64
	now    func() time.Time

	mu   sync.Mutex
	subs map[*subscription]struct{}
}

type subscription struct {
	ch     chan core.Event
	filter func(core.Event) bool
}

// New returns an empty bus.
func New() *Bus {
	return &Bus{now: time.Now, subs: map[*subscription]struct{}{}}
}

// Publish stamps e with an id and time and delivers it to every subscriber
// whose filter accepts it.
func (b *Bus) Publish(typ string, data any) {
	e := core.Event{ID: b.nextID.Add(1), Type: typ, Time: b.now().UTC(), Data: data}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if s.filter != nil && !s.filter(e) {
			continue
		}
		select {
		case s.ch <- e:
		default:
			// Too far behind: drop it rather than block the publisher.
			delete(b.subs, s)
			close(s.ch)
		}
	}
}

// Subscribe returns a channel of events (those accepted by filter, or all
// when filter is nil) with room for buffer pending events, and a cancel
// function that unsubscribes and closes the channel. The channel is also
// closed if the subscriber falls more than buffer events behind.
func (b *Bus) Subscribe(buffer int, filter func(core.Event) bool) (<-chan core.Event, func()) {
	s := &subscription{ch: make(chan core.Event, buffer), filter: filter}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if _, ok := b.subs[s]; ok {
				delete(b.subs, s)
				close(s.ch)
			}
		})
	}
}

// Subscribers reports how many subscriptions are live.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}
