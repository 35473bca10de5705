package indexer

import (
	"errors"

	"trove/backend/core"
)

// A panic that reaches the top of any goroutine ends the whole process, so
// every goroutine the indexer starts runs through these: the panic is
// logged with its stack and becomes that piece of work's failure.

// goSafe runs fn in a new goroutine that recovers a panic.
func (ix *Indexer) goSafe(what string, fn func()) {
	go ix.safely(what, fn)
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
