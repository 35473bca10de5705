//go:build desktop

package main

import (
	"net/http"
	"testing"
)

// Beside its window, the desktop build's server admits the window's pages.
func TestWindowAdmitsItsOrigins(t *testing.T) {
	for _, o := range windowOrigins {
		if status := originStatus(t, windowConfig(testConfig(t)), o); status != http.StatusOK {
			t.Errorf("window, origin %s: %d, want 200", o, status)
		}
	}
}
