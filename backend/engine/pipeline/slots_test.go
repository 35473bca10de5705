package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSlotsBoundConcurrentWork(t *testing.T) {
	s := newSlots(2)
	ctx := context.Background()
	r1, _ := s.acquire(ctx)
	r2, _ := s.acquire(ctx)

	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.acquire(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a third slot was given while two are held (err %v)", err)
	}

	r1()
	r1() // releasing twice gives back one slot only
	r3, err := s.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short2, cancel2 := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel2()
	if _, err := s.acquire(short2); err == nil {
		t.Fatal("a double release freed two slots")
	}
	r2()
	r3()
}

func TestSlotsResize(t *testing.T) {
	s := newSlots(1)
	ctx := context.Background()
	old, _ := s.acquire(ctx)
	s.resize(3)
	var releases []func()
	for range 3 {
		r, err := s.acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.acquire(short); err == nil {
		t.Fatal("more than the new limit of slots were given")
	}
	old() // a slot of the old size goes back to the old semaphore
	for _, r := range releases {
		r()
	}
	if _, err := s.acquire(ctx); err != nil {
		t.Fatal(err)
	}
	s.resize(0) // below one is one
	held, err := s.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.resize(1) // the same limit: the held slot still counts
	short2, cancel2 := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel2()
	if _, err := s.acquire(short2); err == nil {
		t.Fatal("resizing to the same limit freed a held slot")
	}
	held()
}
