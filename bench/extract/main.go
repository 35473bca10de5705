// Command extract measures text extraction over a folder:
//
//	go run ./bench/extract [-n RUNS] [-digests FILE] DIR
//
// It runs Extract on every regular file, one at a time with the default
// options, and prints per format the files, megabytes read, time, MB/s and
// milliseconds per file, then the total. With -n, each file is extracted
// RUNS times and the fastest run counts, which filters out the noise of a
// busy machine. With -digests, it also writes the SHA-256 of each file's
// text, warning and error to FILE, one file a line in walk order: two runs'
// files compare equal exactly when the extractors gave the same output.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"text/tabwriter"
	"time"

	"trove/backend/engine/extract"
)

type stats struct {
	files, warned, failed int
	bytes, text           int64
	took                  time.Duration
	slowest               time.Duration
	slowestPath           string
}

func (s *stats) add(o *stats) {
	s.files += o.files
	s.warned += o.warned
	s.failed += o.failed
	s.bytes += o.bytes
	s.text += o.text
	s.took += o.took
}

func main() {
	runs := flag.Int("n", 1, "extract each file this many times; the fastest run counts")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the extractions here")
	digestPath := flag.String("digests", "", "write the SHA-256 of each file's output here")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if flag.NArg() != 1 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/extract [-n RUNS] DIR")
		os.Exit(2)
	}
	var digests *bufio.Writer
	if *digestPath != "" {
		f, err := os.Create(*digestPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		digests = bufio.NewWriter(f)
		defer digests.Flush()
	}
	byFormat := map[string]*stats{}
	opt := extract.DefaultOptions()
	err := filepath.WalkDir(flag.Arg(0), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		var doc extract.Document
		took := time.Duration(1<<63 - 1)
		for range *runs {
			start := time.Now()
			doc, err = extract.Extract(context.Background(), path, opt)
			took = min(took, time.Since(start))
		}
		if digests != nil {
			writeDigest(digests, path, doc, err)
		}
		format := doc.Format
		if err != nil {
			format = "(error)"
		}
		s := byFormat[format]
		if s == nil {
			s = &stats{}
			byFormat[format] = s
		}
		s.files++
		s.bytes += info.Size()
		s.text += int64(len(doc.Text))
		s.took += took
		if err != nil {
			s.failed++
		}
		if doc.Warning != "" {
			s.warned++
		}
		if took > s.slowest {
			s.slowest, s.slowestPath = took, path
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	report(byFormat)
}

// writeDigest writes one line: the SHA-256 of the document's fields and
// error, then the path.
func writeDigest(w io.Writer, path string, doc extract.Document, err error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", doc.Format, doc.Mime, doc.Warning, doc.Title)
	keys := slices.Sorted(maps.Keys(doc.Meta))
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\x00", k, doc.Meta[k])
	}
	if err != nil {
		fmt.Fprintf(h, "%v", err)
	}
	h.Write([]byte{0})
	io.WriteString(h, doc.Text)
	fmt.Fprintf(w, "%x  %s\n", h.Sum(nil), path)
}

func report(byFormat map[string]*stats) {
	names := make([]string, 0, len(byFormat))
	for n := range byFormat {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return byFormat[names[i]].took > byFormat[names[j]].took })
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "format\tfiles\tMB\ttext MB\tseconds\tMB/s\tms/file\twarnings\tslowest ms\t")
	total := &stats{}
	for _, n := range names {
		s := byFormat[n]
		total.add(s)
		row(w, n, s, fmt.Sprintf("%.2f", ms(s.slowest)))
	}
	row(w, "total", total, "")
	w.Flush()
	for _, n := range names {
		if s := byFormat[n]; ms(s.slowest) > 50 {
			fmt.Printf("slowest %s: %s (%.1f ms)\n", n, s.slowestPath, ms(s.slowest))
		}
	}
}

func row(w *tabwriter.Writer, name string, s *stats, slowest string) {
	mb := float64(s.bytes) / (1 << 20)
	secs := s.took.Seconds()
	rate := 0.0
	if secs > 0 {
		rate = mb / secs
	}
	fmt.Fprintf(w, "%s\t%d\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%d\t%s\t\n", name, s.files, mb,
		float64(s.text)/(1<<20), secs, rate, ms(s.took)/float64(max(s.files, 1)), s.warned, slowest)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
