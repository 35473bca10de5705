package indexer

import (
	"errors"
	"time"

	"trove/backend/core"
)

// A panic that reaches the top of any goroutine ends the whole process, so
// every goroutine the indexer starts runs through these: the panic is
// logged with its stack and becomes that piece of work's failure.

// goSafe runs fn in a new goroutine that recovers a panic. Run waits for
// these goroutines (waitBackground) before it returns.
func (ix *Indexer) goSafe(what string, fn func()) {
	ix.background.Go(func() { ix.safely(what, fn) })
}

// backgroundGrace bounds how long Run waits for background work after it
// was cancelled: a scan stuck in the kernel on a dead mount may never come
// back, and it holds nothing the shutdown needs.
const backgroundGrace = 5 * time.Second

// waitBackground waits for the goroutines goSafe started, at most
// backgroundGrace.
func (ix *Indexer) waitBackground() {
	done := make(chan struct{})
	go func() {
		ix.background.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(backgroundGrace):
		ix.Log.Warn("background work still running at shutdown; leaving it", "waited", backgroundGrace)
	}
}

// safely runs fn, recovering a panic; it returns the panic as an error.
func (ix *Indexer) safely(what string, fn func()) error {
	err := core.Safe(fn)
	var pe *core.PanicError
	if errors.As(err, &pe) {
		ix.Log.Error("recovered from a panic", "in", what, "panic", pe.Value, "stack", string(pe.Stack))
	}
	return err
}
