package events

import (
	"testing"

	"trove/backend/core"
)

func TestDeliversInOrderWithIDs(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(4, nil)
	defer cancel()
	b.Publish(core.EventFileIndexed, 1)
	b.Publish(core.EventFileRemoved, 2)
	e1, e2 := <-ch, <-ch
	if e1.Type != core.EventFileIndexed || e2.Type != core.EventFileRemoved || e2.ID != e1.ID+1 || e1.Time.IsZero() {
		t.Fatalf("got %+v, %+v", e1, e2)
	}
}

func TestFilter(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(4, func(e core.Event) bool { return e.Type == core.EventQueueStatus })
	defer cancel()
	b.Publish(core.EventFileIndexed, nil)
	b.Publish(core.EventQueueStatus, nil)
	if e := <-ch; e.Type != core.EventQueueStatus {
		t.Fatalf("filter let through %s", e.Type)
	}
}

func TestSlowSubscriberIsDroppedNotBlocking(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(2, nil)
	defer cancel()
	for i := range 5 {
		b.Publish(core.EventFileIndexed, i) // must not block
	}
	n := 0
	for range ch {
		n++
	}
	if n != 2 || b.Subscribers() != 0 {
		t.Fatalf("received %d before close, %d subscribers left", n, b.Subscribers())
	}
}

func TestCancelIsIdempotentAndCloses(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(1, nil)
	cancel()
	cancel()
	if _, ok := <-ch; ok {
		t.Fatal("channel open after cancel")
	}
	b.Publish(core.EventFileIndexed, nil) // no panic on a closed subscriber
}
