package embedding

import (
	"runtime"
	"syscall"
	"testing"
)

// threadCPU is the CPU time the calling thread has used.
func threadCPU(tb testing.TB) int64 {
	var ru syscall.Rusage
	const rusageThread = 1
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		tb.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// cpuLoop runs f b.N times on one locked thread and reports CPU time per
// call ("cpu-ns/op"), which, unlike wall time, other loads on the machine
// do not inflate.
func cpuLoop(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU(b)
	for range b.N {
		f()
	}
	b.ReportMetric(float64(threadCPU(b)-start)/float64(b.N), "cpu-ns/op")
}
