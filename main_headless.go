//go:build !desktop

package main

import "io"

// defaultCommand of the headless build is serve.
func defaultCommand(stderr io.Writer) int { return serve(nil, stderr) }
