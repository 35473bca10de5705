package core

import (
	"fmt"
	"runtime/debug"
)

// PanicError is a panic recovered at a goroutine boundary. A panic that
// reached the top of any goroutine would end the whole process, so every
// goroutine Trove starts defers Recover and turns the panic into this
// error: that request's 500, that file's failure, a logged line.
type PanicError struct {
	Value any
	Stack []byte
}

func (p *PanicError) Error() string { return fmt.Sprintf("internal error (panic: %v)", p.Value) }

// Recover stores a panic in *err as a *PanicError, with the stack. Defer it
// directly: `defer core.Recover(&err)`.
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r, Stack: debug.Stack()}
	}
}

// Safe runs fn and returns its panic, if any, as a *PanicError.
func Safe(fn func()) (err error) {
	defer Recover(&err)
	fn()
	return nil
}
