//go:build !desktop

package main

import (
	"fmt"
	"io"
)

// defaultCommand of the headless build is serve.
func defaultCommand(args []string, stderr io.Writer) int { return serve(args, stderr) }

// quick needs the desktop app's window.
func quick(_ string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: quick search is part of the desktop app (build it with make desktop); from a terminal, use %s search WORDS\n", prog, prog)
	return 2
}
