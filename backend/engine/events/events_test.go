package events

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"trove/backend/core"
)

func take(s *Subscription) ([]core.Event, bool) {
	<-s.Ready()
	return s.Take(nil)
}

func TestDeliversInOrderWithIDs(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(4, nil)
	defer s.Cancel()
	b.Publish(core.FileIndexed{ID: 1})
	b.Publish(core.FileRemoved{ID: 2})
	got, live := take(s)
	if !live || len(got) != 2 {
		t.Fatalf("got %+v, live %v", got, live)
	}
	e1, e2 := got[0], got[1]
	if e1.Type != core.EventFileIndexed || e2.Type != core.EventFileRemoved || e2.ID != e1.ID+1 || e1.Time.IsZero() {
		t.Fatalf("got %+v, %+v", e1, e2)
	}
}

func TestFilter(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(4, func(e core.Event) bool { return e.Type == core.EventQueueStatus })
	defer s.Cancel()
	b.Publish(core.FileIndexed{})
	b.Publish(core.QueueStatus{})
	if got, _ := take(s); len(got) != 1 || got[0].Type != core.EventQueueStatus {
		t.Fatalf("filter let through %+v", got)
	}
}

func TestSlowSubscriberIsDroppedNotBlocking(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(2, nil)
	defer s.Cancel()
	for i := range 5 {
		b.Publish(core.FileIndexed{ID: int64(i)}) // must not block
	}
	got, live := take(s)
	if live || len(got) != 2 || !s.FellBehind() || b.Subscribers() != 0 {
		t.Fatalf("received %d, live %v, behind %v, %d subscribers left", len(got), live, s.FellBehind(), b.Subscribers())
	}
}

func TestCancelIsIdempotentAndEnds(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(1, nil)
	s.Cancel()
	s.Cancel()
	if _, live := take(s); live || s.FellBehind() {
		t.Fatal("subscription live after cancel, or said to have fallen behind")
	}
	b.Publish(core.FileIndexed{}) // no panic on an ended subscriber
}

// A subscriber whose filter panics loses its subscription; the publisher
// and the other subscribers carry on, and the panic is logged with its
// stack.
func TestPanickingFilterEndsOnlyItsSubscription(t *testing.T) {
	var log bytes.Buffer
	b := New(slog.New(slog.NewTextHandler(&log, nil)))
	bad := b.Subscribe(8, func(e core.Event) bool {
		if e.Type == core.EventFileFailed {
			panic("filter bug")
		}
		return true
	})
	good := b.Subscribe(8, nil)
	defer good.Cancel()
	b.Publish(core.FileIndexed{ID: 1})
	b.Publish(core.FileFailed{ID: 2}) // panics inside bad's filter
	b.Publish(core.FileRemoved{ID: 3})
	if got, live := take(good); !live || len(got) != 3 {
		t.Fatalf("good subscriber got %d events, live %v", len(got), live)
	}
	if got, live := take(bad); live || len(got) != 1 {
		t.Fatalf("bad subscriber: %d events, live %v", len(got), live)
	}
	if b.Subscribers() != 1 || !strings.Contains(log.String(), "filter bug") || !strings.Contains(log.String(), "events_test.go") {
		t.Fatalf("%d subscribers; log %s", b.Subscribers(), log.String())
	}
}

// An idle subscriber holds no event buffer; one that drained a burst
// gives its memory back.
func TestIdleSubscribersHoldNoBuffer(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(1024, nil)
	defer s.Cancel()
	if cap(s.pending) != 0 {
		t.Fatalf("a new subscription holds room for %d events", cap(s.pending))
	}
	for i := range 500 {
		b.Publish(core.FileIndexed{ID: int64(i)})
	}
	if got, _ := take(s); len(got) != 500 || cap(s.pending) != 0 {
		t.Fatalf("took %d; %d slots kept after the burst", len(got), cap(s.pending))
	}
}
