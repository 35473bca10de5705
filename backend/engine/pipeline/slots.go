package pipeline

import (
	"context"
	"sync"
	"sync/atomic"
)

// slots bounds how many files are in their CPU-heavy stages (hash,
// extract, enrich, embed) at once: the queue's max_concurrency. A file
// waiting for its write to commit holds no slot, so more files than that can
// be in flight and the single writer commits them in bigger batches, while
// the CPU work stays within the setting.
type slots struct {
	sem atomic.Pointer[chan struct{}]
}

func newSlots(n int) *slots {
	s := &slots{}
	s.resize(n)
	return s
}

// resize sets the limit (any settings change calls it; the same limit
// keeps the same slots). Files already holding a slot of the old size
// finish with it; new files take slots of the new size.
func (s *slots) resize(n int) {
	n = max(n, 1)
	if cur := s.sem.Load(); cur != nil && cap(*cur) == n {
		return
	}
	ch := make(chan struct{}, n)
	s.sem.Store(&ch)
}

// acquire waits for a slot; release gives it back and may be called more
// than once.
func (s *slots) acquire(ctx context.Context) (release func(), err error) {
	ch := *s.sem.Load()
	select {
	case ch <- struct{}{}:
		return sync.OnceFunc(func() { <-ch }), nil
	case <-ctx.Done():
		return func() {}, ctx.Err()
	}
}
