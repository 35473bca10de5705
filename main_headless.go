//go:build !desktop

package main

import (
	"fmt"
	"io"
)

// defaultCommand of the headless build: with flags (--addr, --data-dir),
// serve, as before; alone, the help, so a person trying the command sees
// what it does instead of a server holding the terminal (trove serve
// starts one).
func defaultCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return exitOK
	}
	return serve(args, stderr)
}

// quick needs the desktop app's window.
func quick(_ string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: quick search is part of the desktop app (build it with make desktop); from a terminal, use %s search WORDS\n", prog, prog)
	return 2
}
