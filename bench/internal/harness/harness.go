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

// WorkDir is keep, or else a temporary folder named from prefix that done
// removes.
func WorkDir(keep, prefix string) (dir string, done func()) {
	if keep != "" {
		return keep, func() {}
	}
	tmp, err := os.MkdirTemp("", prefix)
	Check(err)
	return tmp, func() { os.RemoveAll(tmp) }
}

// ReadLines reads a file's lines, blanks around them and empty ones left
// out (a list of queries, one a line), and stops the benchmark if it
// cannot.
func ReadLines(path string) []string {
	b, err := os.ReadFile(path)
	Check(err)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
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
