package indexer

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Many looks at once are no sign of a dead share: when several workers
// drop files together, each looks at its folder, and every look that
// answers in time says the folder is there. (Only looks that overran
// their time once counted against a cap of four in flight, and the fifth
// worker's folder was taken offline.)
func TestManyLooksInFlightAllAnswer(t *testing.T) {
	const n = 3 * maxStuckLooks
	release := make(chan struct{})
	var started, refused atomic.Int32
	var wg sync.WaitGroup
	answers := make([]bool, n)
	for i := range n {
		wg.Go(func() {
			v, ok := bounded(func() bool { started.Add(1); <-release; return true })
			answers[i] = v && ok
			if !ok {
				refused.Add(1)
			}
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for started.Load()+refused.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d looks started, %d refused, of %d", started.Load(), refused.Load(), n)
		}
		time.Sleep(time.Millisecond) // polling interval
	}
	close(release)
	wg.Wait()
	for i, ok := range answers {
		if !ok {
			t.Fatalf("look %d of %d answered in time but was taken as unreachable (%d refused)", i, n, refused.Load())
		}
	}
	if s := stuckLooks.Load(); s != 0 {
		t.Fatalf("%d looks counted as stuck after all answered", s)
	}
}
