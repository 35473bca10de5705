//go:build !linux

package embedding

import "testing"

// cpuLoop runs f b.N times; CPU time per call is reported on Linux only.
func cpuLoop(b *testing.B, f func()) {
	for range b.N {
		f()
	}
}
