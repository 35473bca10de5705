//go:build desktop

package main

import "io"

// defaultCommand of the desktop build runs the backend; the window and tray
// start beside it once the desktop shell is built in.
func defaultCommand(stderr io.Writer) int { return serve(nil, stderr) }
