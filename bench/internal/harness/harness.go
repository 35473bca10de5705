// Package harness is what the benchmark commands share around their
// measurements: running a helper program, stopping on an error, and
// percentiles of timings.
package harness

import (
	"log"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Run runs a program with its output on stderr (the benchmarks' stdout is
// their report) and stops the benchmark if it fails.
func Run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
}

// Check stops the benchmark on an error.
func Check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// Percentile is the p-th percentile (0 to 100) of xs by nearest rank, 0
// for none.
func Percentile(xs []time.Duration, p float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(float64(len(s))*p/100+0.999999) - 1
	return s[max(0, min(k, len(s)-1))]
}
