// Package harness is what the benchmark commands share around their
// measurements: running a helper program, stopping on an error,
// percentiles of timings, and reading a trove server's address, memory
// and index size.
package harness

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

var addrRE = regexp.MustCompile(`msg="trove started" addr=(\S+)`)

// WaitAddr reads a starting trove server's log until it says its address,
// then drains the rest.
func WaitAddr(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, r)
			return m[1]
		}
	}
	log.Fatal("trove did not start")
	return ""
}

// PeakRSS is a running process's peak resident set size (VmHWM), in bytes.
func PeakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	Check(err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// DirSize is the total size of the files below root.
func DirSize(root string) int64 {
	var total int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

// Recollq runs recollq over the Recoll configuration conf with args (the
// query last) and returns its first ten files, slash-separated below
// corpus; nil when Recoll refuses the query, which counts as not found.
func Recollq(conf, corpus string, args ...string) []string {
	cmd := exec.Command("recollq", append([]string{"-c", conf, "-b", "-n", "10"}, args...)...)
	stdout, err := cmd.Output()
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(stdout)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "file://") {
			continue
		}
		p, err := url.PathUnescape(strings.TrimPrefix(line, "file://"))
		if err != nil {
			p = strings.TrimPrefix(line, "file://")
		}
		rel, _ := filepath.Rel(corpus, p)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// RecollRun is what one recollindex run measured.
type RecollRun struct {
	Wall       time.Duration
	PeakRSS    int64 // bytes
	IndexBytes int64
}

// RecollIndex writes a Recoll configuration in conf for topdirs (the
// shared folder's tuned mime map, English stemming) and times
// recollindex over them, with its peak RSS and index size.
func RecollIndex(shared, conf string, topdirs []string) RecollRun {
	Check(os.MkdirAll(conf, 0o755))
	Check(os.WriteFile(filepath.Join(conf, "recoll.conf"), []byte(fmt.Sprintf(
		"topdirs = %s\nloglevel = 2\naspellLanguage = en\nsystemfilecommand = file -b --mime-type\n", strings.Join(topdirs, " "))), 0o644))
	mm, err := os.ReadFile(filepath.Join(shared, "bench", "recoll", "mimemap.tuned"))
	Check(err)
	Check(os.WriteFile(filepath.Join(conf, "mimemap"), mm, 0o644))
	var stderr strings.Builder
	cmd := exec.Command("/usr/bin/time", "-v", "recollindex", "-c", conf, "-z")
	cmd.Stderr = &stderr
	start := time.Now()
	Check(cmd.Run())
	run := RecollRun{Wall: time.Since(start), IndexBytes: DirSize(filepath.Join(conf, "xapiandb"))}
	if m := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindStringSubmatch(stderr.String()); m != nil {
		kb, _ := strconv.ParseInt(m[1], 10, 64)
		run.PeakRSS = kb << 10
	}
	return run
}
