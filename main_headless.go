//go:build !desktop

package main

import "io"

// defaultCommand of the headless build is serve.
func defaultCommand(args []string, stderr io.Writer) int { return serve(args, stderr) }
