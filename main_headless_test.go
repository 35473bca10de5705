//go:build !desktop

package main

import (
	"strings"
	"testing"
)

// A bare trove prints the help (trove serve starts the server).
func TestBareTrovePrintsHelp(t *testing.T) {
	code, out, _ := run3(t)
	if code != exitOK || !strings.Contains(out, "usage:") || !strings.Contains(out, "unwatch") {
		t.Fatalf("bare trove: %d %q", code, out)
	}
}
