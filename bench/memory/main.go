// Command memory measures the memory a Trove server holds before, during
// and after a burst of searches, as a person sees it in a process list
// (resident memory), on the benchmark corpus:
//
//	go run ./bench/memory [-files 20000] [-clients 16] [-load 60s] [-idle 60s] [-against REV,...] [-own-index] [-distinct]
//
// It builds the corpus with shared/bench/make-corpus.sh and indexes it
// once. Each build measured then starts afresh on that index, settles (no
// queued work, the integrity check done), and is measured: resident memory
// before; its peak while -clients clients search without pause for -load
// (POST /api/search/, hybrid, limit 50, the queries of
// shared/bench/queries.txt), with the searches' latencies; and after 10 s,
// 30 s and -idle of quiet; then the latency of the first search after the
// quiet. With -against, builds of those git revisions are measured the same
// way in the same run, one after the other, on the same index (with
// -own-index, each on an index it made itself). The machine's load
// average at the end of each load is printed beside, as latencies on a
// shared machine follow it. Searches repeat (the queries in turn), as a
// person's and a script's do; with -distinct each excludes a word no file
// holds, so that no two are the same search and none is answered from a
// page kept for reuse.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

func main() {
	corpusFlags := ir.NewCorpusFlags()
	keep := flag.String("work", "", "folder for the index, kept and used again (default: a temporary one)")
	clients := flag.Int("clients", 16, "clients searching at once")
	load := flag.Duration("load", time.Minute, "how long the clients search")
	idle := flag.Duration("idle", time.Minute, "quiet after the load before the last measure")
	revs := flag.String("against", "", "git revisions, comma-separated, measured in the same run after this checkout")
	distinct := flag.Bool("distinct", false, "make every search differ (each excludes a word no file holds), so none is answered from a page kept for reuse")
	own := flag.Bool("own-index", false, "each -against build indexes the corpus itself (in WORK/rev-REV, kept with -work): for builds whose index format differs")
	flag.Parse()
	corpus, queries, _ := corpusFlags.Build()
	work, done := harness.WorkDir(*keep, "trove-memory-")
	defer done()
	builds := []build{{"this checkout", must(troveproc.Build(work)), work}}
	index(builds[0].bin, work, corpus)
	for _, rev := range strings.Split(*revs, ",") {
		if rev = strings.TrimSpace(rev); rev != "" {
			dir, err := os.MkdirTemp("", "trove-memory-rev-")
			harness.Check(err)
			defer os.RemoveAll(dir)
			b := build{rev, must(troveproc.BuildAt(rev, dir)), work}
			if *own {
				b.work = filepath.Join(work, "rev-"+rev)
				index(b.bin, b.work, corpus)
			}
			builds = append(builds, b)
		}
	}
	p := plan{clients: *clients, load: *load, idle: *idle, queries: queries, distinct: *distinct}
	fmt.Printf("corpus %s; %d clients searching for %v, then %v quiet; resident memory in MB\n\n", corpus, p.clients, p.load, p.idle)
	fmt.Printf("%-14s %7s %7s %7s %7s %7s %9s %9s %8s %8s %10s %6s\n", "build", "before", "peak", "+10s", "+30s",
		"+"+p.idle.String(), "searches", "per s", "p50 ms", "p95 ms", "first ms", "load")
	for _, b := range builds {
		p.measure(b).print(b.name, p.load)
	}
}

// build is a binary measured, and the folder whose index it serves.
type build struct{ name, bin, work string }

func must(bin string, err error) string {
	harness.Check(err)
	return bin
}

// index watches corpus with bin's server until it is indexed, so that
// every build measured starts on the same index.
func index(bin, work, corpus string) {
	srv, err := troveproc.Start(bin, work)
	harness.Check(err)
	defer srv.Stop()
	harness.Check(srv.Indexed(corpus, 2*time.Hour))
}

// plan is what each build goes through.
type plan struct {
	clients    int
	load, idle time.Duration
	queries    []string
	distinct   bool
}

// figures are one build's measures.
type figures struct {
	before, peak, after10, after30, afterIdle int64
	latencies                                 []time.Duration
	first                                     time.Duration
	load                                      string // the load average as the load ended
}

func (f figures) print(name string, load time.Duration) {
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	fmt.Printf("%-14s %7.0f %7.0f %7.0f %7.0f %7.0f %9d %9.1f %8.1f %8.1f %10.1f %6s\n", name,
		mb(f.before), mb(f.peak), mb(f.after10), mb(f.after30), mb(f.afterIdle), len(f.latencies), float64(len(f.latencies))/load.Seconds(),
		ms(harness.Percentile(f.latencies, 50)), ms(harness.Percentile(f.latencies, 95)), ms(f.first), f.load)
}

// measure starts the build on its index and takes its figures.
func (p plan) measure(b build) figures {
	srv, err := troveproc.Start(b.bin, b.work)
	harness.Check(err)
	defer srv.Stop()
	harness.Check(srv.Checked(10 * time.Minute))
	var f figures
	f.before = rss(srv)
	var peak atomic.Int64
	stop := sample(srv, &peak)
	f.latencies = p.search(srv)
	stop()
	f.load = loadAverage()
	f.peak = peak.Load()
	end := time.Now()
	f.after10 = rssAt(srv, end.Add(10*time.Second))
	f.after30 = rssAt(srv, end.Add(30*time.Second))
	f.afterIdle = rssAt(srv, end.Add(p.idle))
	f.first = timed(srv, p.queries[0])
	return f
}

// sample records the highest resident memory into peak every 100 ms until
// the returned stop is called, which waits for it.
func sample(srv *troveproc.Server, peak *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if n := rss(srv); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// search runs p.clients clients, each searching the queries in turn (each
// from its own place in the list) until p.load has passed, and returns
// every search's latency.
func (p plan) search(srv *troveproc.Server) []time.Duration {
	deadline := time.Now().Add(p.load)
	var mu sync.Mutex
	var all []time.Duration
	var wg sync.WaitGroup
	for c := range p.clients {
		wg.Go(func() {
			var mine []time.Duration
			for i := c; time.Now().Before(deadline); i++ {
				q := p.queries[i%len(p.queries)]
				if p.distinct {
					q += fmt.Sprintf(" -zqx%dq%d", c, i)
				}
				mine = append(mine, timed(srv, q))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return all
}

// timed runs one hybrid search, limit 50, and returns how long it took.
func timed(srv *troveproc.Server, q string) time.Duration {
	body, _ := json.Marshal(map[string]any{"query": q, "limit": 50, "mode": "hybrid"})
	t0 := time.Now()
	resp, err := http.Post(srv.Base+"/api/search/", "application/json", bytes.NewReader(body))
	harness.Check(err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		harness.Check(fmt.Errorf("query %q: %s", q, resp.Status))
	}
	return time.Since(t0)
}

func rss(srv *troveproc.Server) int64 {
	n, err := srv.RSS()
	harness.Check(err)
	return n
}

// rssAt waits until t (the quiet after the load) and reads the resident
// memory then.
func rssAt(srv *troveproc.Server, t time.Time) int64 {
	time.Sleep(time.Until(t)) // the measure is of a moment, not a condition
	return rss(srv)
}

// loadAverage is the machine's load average over the last minute ("?"
// where /proc/loadavg cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
