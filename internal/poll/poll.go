// Package poll is the one way tests wait for something to become true:
// they ask again, with a growing interval, until it holds or a deadline
// passes. The interval is a polling interval, never a synchronisation:
// the condition decides.
package poll

import (
	"testing"
	"time"
)

// Until reports whether cond held before within passed.
func Until(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for delay := 5 * time.Millisecond; ; delay = min(delay*2, 200*time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(delay)
	}
}

// Eventually fails the test when cond does not hold within within; what
// says what was awaited.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Until(within, cond) {
		t.Fatalf("timed out after %v waiting for %s", within, what)
	}
}
