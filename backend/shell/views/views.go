// Package views holds the JSON shapes Trove shows its clients and the
// validation of what they send, shared by the HTTP API and the desktop
// window's bindings so both speak exactly the same language.
package views

import (
	"time"
	"trove/backend/core"
)

// Timestamps: file times are local wall-clock time without a zone suffix,
// as the spec shows them; folder and job times are UTC with a Z suffix;
// queue times are Unix seconds.
const (
	localLayout = "2006-01-02T15:04:05"
	utcLayout   = "2006-01-02T15:04:05Z"
)

// LocalTime formats a file time.
func LocalTime(t time.Time) string { return t.Local().Format(localLayout) }

// UTCTime formats a folder or job time.
func UTCTime(t time.Time) string { return t.UTC().Format(utcLayout) }

// OptionalLocal is LocalTime, or nil for no time.
func OptionalLocal(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := LocalTime(*t)
	return &s
}

// OptionalUTC is UTCTime, or nil for no time.
func OptionalUTC(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := UTCTime(*t)
	return &s
}

// UnixSeconds is a time as Unix seconds with millisecond precision.
func UnixSeconds(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

func round(x float64) float64 { return float64(int64(x*1e6+0.5)) / 1e6 }

// CreatedTime is a file's creation time as the API shows it, a string as
// the spec has it (core.CreatedOr: a record without one, as a file that
// could not be read, shows its modification time).
func CreatedTime(created, modified time.Time) string {
	return LocalTime(core.CreatedOr(created, modified))
}
