// Package core is Trove's shared vocabulary: the domain types every layer
// passes around, the error kinds (invalid, not found, conflict, forbidden,
// unavailable) that views map to HTTP statuses, and the typed events.
// It imports nothing of ours, so every other package may import it.
package core

import (
	"errors"
	"fmt"
)

// Sentinel error kinds. Engine packages wrap them (usually through *Error)
// and the API layer maps them to statuses in one place.
var (
	ErrInvalid  = errors.New("invalid input")
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	// ErrForbidden: the caller may not do this (the request itself is fine).
	ErrForbidden = errors.New("forbidden")
	// ErrUnavailable: the request is sound but cannot be served now (busy,
	// out of time, the index's disk is full, the index is damaged); retrying
	// later, or after the action the message names, can succeed.
	ErrUnavailable = errors.New("unavailable")
)

// Fault is one way a request can fail (faults.go), of one kind. It is
// the error's identity: the shells give each fault its code.
type Fault struct {
	kind error
	name string
}

func (f *Fault) Error() string { return f.name }

// Unwrap makes a fault its kind too: errors.Is(err, ErrInvalid).
func (f *Fault) Unwrap() error { return f.kind }

// Error is an error a client can act on: its fault, its kind (the
// fault's, unless a shell words it otherwise), a message for people, and
// optionally the input field at fault (a dotted settings key, a JSON field
// name).
type Error struct {
	Kind    error
	Fault   *Fault
	Message string
	Field   string
}

func (e *Error) Error() string { return e.Message }

// Unwrap gives errors.Is both the kind and the fault.
func (e *Error) Unwrap() []error {
	out := []error{e.Kind}
	if e.Fault != nil {
		out = append(out, e.Fault)
	}
	return out
}

// Fail is an error of fault f with a formatted message.
func Fail(f *Fault, format string, args ...any) *Error {
	return &Error{Kind: f.kind, Fault: f, Message: fmt.Sprintf(format, args...)}
}

// FailField is Fail for one named input field; the message starts with
// the field's name so a person reading it knows what to fix.
func FailField(f *Fault, field, format string, args ...any) *Error {
	return &Error{Kind: f.kind, Fault: f, Field: field, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// FaultOf returns the fault of the first *Error in err's chain, or nil.
func FaultOf(err error) *Fault {
	var e *Error
	if errors.As(err, &e) {
		return e.Fault
	}
	return nil
}

// FieldOf returns the field of the first *Error in err's chain, if any.
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// Things that can be missing (see Missing).
const (
	ThingFile   = "file"
	ThingFolder = "folder"
	ThingSaved  = "saved search"
)

// Missing is the domain error of a thing the caller named that does not
// exist: an unknown file or watched folder, by id or by path. It is of kind
// ErrNotFound and carries no wording for people: views give it its code
// and message.
type Missing struct {
	Thing string // ThingFile, ThingFolder or ThingSaved
	ID    int64  // 0 when named by path
	Path  string
}

func (m *Missing) Error() string {
	if m.Path != "" {
		return m.Thing + " " + m.Path + " not found"
	}
	return fmt.Sprintf("%s %d not found", m.Thing, m.ID)
}

func (m *Missing) Unwrap() error { return ErrNotFound }

// BadGlob is the domain error of a glob pattern the caller gave that
// cannot be read (the search's path filter). It is of kind ErrInvalid and,
// like Missing, names no request field and carries no wording for people:
// views say which field of which request it was.
type BadGlob struct {
	Glob string
}

func (b *BadGlob) Error() string { return fmt.Sprintf("%q is not a valid glob pattern", b.Glob) }

func (b *BadGlob) Unwrap() error { return ErrInvalid }

// Permanent marks err as a failure that trying again cannot fix (a pipe in
// place of a file, a read that hung past its limit): the indexing queue
// records it at once instead of retrying. The pipeline marks its errors
// this way, the queue asks IsPermanent, and neither knows the other.
func Permanent(err error) error { return permanentError{err} }

// IsPermanent reports whether err, or an error in its chain, was marked by
// Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

type permanentError struct{ err error }

func (p permanentError) Error() string { return p.err.Error() }
func (p permanentError) Unwrap() error { return p.err }
