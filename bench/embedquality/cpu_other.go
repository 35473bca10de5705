//go:build !linux

package main

import "time"

// CPU times are measured on Linux only; elsewhere they read 0.
func threadCPU() time.Duration  { return 0 }
func processCPU() time.Duration { return 0 }
