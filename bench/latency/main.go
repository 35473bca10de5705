// Command latency measures search latency over HTTP, as a script would see
// it, on the benchmark corpus:
//
//	go run ./bench/latency [-files 20000] [-corpus DIR] [-reps 20] [-recoll]
//
// It builds the corpus with shared/bench/make-corpus.sh, starts a trove
// server, and times POST /api/search/ (hybrid, limit 50, snippets included)
// for every query of shared/bench/queries.txt: first while the corpus is
// being indexed (an index run in progress), then once indexing is done. In
// the same run it times keyword-only searches as a baseline, with -fts5
// plain SQLite FTS5 BM25 over the same files (bench/knownitem's baseline
// database, queried in-process), and with -recoll, Recoll's own query
// benchmark on the same corpus. A query of 10,000 characters (the query
// lines repeated) is timed too and must answer with results. With -work, Trove's index is kept
// in that folder and used again (bench/knownitem's WORK/trove holds one).
// With -against REV, a server built from that git revision answers the
// same queries alternately with this checkout's (against.go says why).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"trove/bench/internal/fts5base"
	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

func main() {
	corpusFlags := ir.NewCorpusFlags()
	reps := flag.Int("reps", 20, "timed repetitions of each query once indexing is done (20 x 20 queries: a p95 over 400 samples)")
	recoll := flag.Bool("recoll", false, "also run Recoll's query benchmark on the same corpus (indexes it with recollindex)")
	keep := flag.String("work", "", "folder for Trove's index, kept and used again (default: a temporary one)")
	fts5dir := flag.String("fts5", "", "folder with fts5-baseline.db over the same corpus (bench/knownitem -work) to time in the same run")
	verbose := flag.Bool("v", false, "also print each query's hybrid p50 and p95")
	rev := flag.String("against", "", "a git revision whose server answers alternately with this checkout's, for ratios from one stretch of time")
	revWork := flag.String("against-work", "", "folder for that server's index, kept and used again (default: a temporary one)")
	flag.Parse()
	corpus, queries, sharedAbs := corpusFlags.Build()

	work, done := harness.WorkDir(*keep, "trove-latency-")
	defer done()
	bin, err := troveproc.Build(work)
	harness.Check(err)
	srv, err := troveproc.Start(bin, work)
	harness.Check(err)
	defer srv.Stop()
	api := client{srv}

	start := time.Now()
	if f, err := srv.Folder(corpus); err != nil || f == nil {
		_, err = srv.Call("POST", "/api/watch/directory", map[string]any{"path": corpus})
		harness.Check(err)
	}
	var during []time.Duration
	rounds := 0
	for !api.idle(corpus) {
		if api.indexed(corpus) >= corpusFlags.Files()/4 { // search a partly built index, while writes go on
			during = append(during, api.round(queries, "hybrid")...)
			rounds++
		} else {
			time.Sleep(200 * time.Millisecond)
		}
	}
	fmt.Printf("corpus %s: indexed in %.1f s\n\n", corpus, time.Since(start).Seconds())
	fmt.Printf("%-36s %8s %8s %8s %6s\n", "POST /api/search/, limit 50", "p50 ms", "p95 ms", "max ms", "n")
	report(fmt.Sprintf("hybrid, during indexing (%d rounds)", rounds), during)
	harness.Check(srv.Checked(10 * time.Minute))
	api.round(queries, "hybrid") // warm caches, as a running app has them
	var hybrid, keyword []time.Duration
	for range *reps {
		hybrid = append(hybrid, api.round(queries, "hybrid")...)
		keyword = append(keyword, api.round(queries, "keyword")...)
	}
	report("hybrid, idle", hybrid)
	report("keyword only, idle (baseline)", keyword)
	if *verbose {
		perQuery(queries, hybrid)
	}
	if *rev != "" {
		w, done := harness.WorkDir(*revWork, "trove-latency-against-")
		defer done()
		against(api, *rev, w, corpus, queries, *reps)
	}
	long := longQuery(queries, 10000)
	if status := api.status(long); status != http.StatusOK {
		fmt.Printf("10,000-character query refused: %d\n", status)
	} else {
		var longH, longK []time.Duration
		for range *reps {
			longH = append(longH, api.round([]string{long}, "hybrid")...)
			longK = append(longK, api.round([]string{long}, "keyword")...)
		}
		report("10,000 characters, hybrid", longH)
		report("10,000 characters, keyword", longK)
		fmt.Printf("10,000-character query: %d hybrid results, %d keyword\n", api.count(long, "hybrid"), api.count(long, "keyword"))
	}
	fmt.Printf("\nhybrid/keyword p95 ratio: %.2f\n", ms(harness.Percentile(hybrid, 95))/ms(harness.Percentile(keyword, 95)))
	if *fts5dir != "" {
		fts5Baseline(*fts5dir, queries, long, *reps, hybrid, keyword)
	}
	if *recoll {
		recollBaseline(sharedAbs, work, corpus)
	}
}

// longQuery repeats the query lines, space-separated, to n characters:
// a pasted paragraph of the corpus's own words.
func longQuery(queries []string, n int) string {
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
		b.WriteString(queries[i%len(queries)])
		b.WriteByte(' ')
	}
	return string([]rune(b.String())[:n])
}

// fts5Baseline times FTS5 BM25 (limit 50) for the same queries in
// process, interleaved the same way, and prints Trove's ratios to it.
func fts5Baseline(dir string, queries []string, long string, reps int, hybrid, keyword []time.Duration) {
	ix, err := fts5base.Open(dir)
	harness.Check(err)
	defer ix.Close()
	timed := func(qs []string) []time.Duration {
		out := make([]time.Duration, 0, len(qs))
		for _, q := range qs {
			t0 := time.Now()
			_, err := ix.Search(q, 50)
			harness.Check(err)
			out = append(out, time.Since(t0))
		}
		return out
	}
	timed(queries) // warm the page cache, as Trove's round was
	var base, baseLong []time.Duration
	for i := range reps {
		base = append(base, timed(queries)...)
		if i < 3 { // FTS5 takes seconds over a 10,000-character OR query
			baseLong = append(baseLong, timed([]string{long})...)
		}
	}
	fmt.Println("\nFTS5 BM25 over the same files, in process (no HTTP, no snippets):")
	report("FTS5 BM25, limit 50", base)
	report("FTS5 BM25, 10,000 characters", baseLong)
	fmt.Printf("p50/p95 ratio to FTS5: hybrid %.2f/%.2f, keyword %.2f/%.2f\n",
		ms(harness.Percentile(hybrid, 50))/ms(harness.Percentile(base, 50)), ms(harness.Percentile(hybrid, 95))/ms(harness.Percentile(base, 95)),
		ms(harness.Percentile(keyword, 50))/ms(harness.Percentile(base, 50)), ms(harness.Percentile(keyword, 95))/ms(harness.Percentile(base, 95)))
}

// perQuery prints each query's p50 and p95 from rounds of all queries.
func perQuery(queries []string, rounds []time.Duration) {
	fmt.Printf("\n%-36s %8s %8s\n", "hybrid, per query", "p50 ms", "p95 ms")
	for i, q := range queries {
		var xs []time.Duration
		for j := i; j < len(rounds); j += len(queries) {
			xs = append(xs, rounds[j])
		}
		fmt.Printf("%-36s %8.1f %8.1f\n", q, ms(harness.Percentile(xs, 50)), ms(harness.Percentile(xs, 95)))
	}
	fmt.Println()
}

func report(label string, xs []time.Duration) {
	if len(xs) == 0 {
		fmt.Printf("%-36s %8s\n", label, "-")
		return
	}
	fmt.Printf("%-36s %8.1f %8.1f %8.1f %6d\n", label, ms(harness.Percentile(xs, 50)), ms(harness.Percentile(xs, 95)), ms(harness.Percentile(xs, 100)), len(xs))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// recollBaseline indexes the corpus with Recoll (tuned, as the project's
// anchors do) and runs its query benchmark.
func recollBaseline(shared, work, corpus string) {
	conf := filepath.Join(work, "recoll")
	harness.Check(os.MkdirAll(conf, 0o755))
	harness.Check(os.WriteFile(filepath.Join(conf, "recoll.conf"), []byte(fmt.Sprintf(
		"topdirs = %s\nloglevel = 2\naspellLanguage = en\nsystemfilecommand = file -b --mime-type\n", corpus)), 0o644))
	mm, err := os.ReadFile(filepath.Join(shared, "bench", "recoll", "mimemap.tuned"))
	harness.Check(err)
	harness.Check(os.WriteFile(filepath.Join(conf, "mimemap"), mm, 0o644))
	fmt.Println("\nRecoll (same corpus, tuned):")
	harness.Run("recollindex", "-c", conf, "-z")
	cmd := exec.Command("/usr/bin/python3", filepath.Join(shared, "bench", "recoll_query_bench.py"), conf,
		filepath.Join(shared, "bench", "queries.txt"), "--reps", "5")
	cmd.Stdout, cmd.Stderr = os.Stdout, io.Discard
	if err := cmd.Run(); err != nil {
		log.Printf("recoll query benchmark: %v", err)
	}
}

type client struct{ *troveproc.Server }

func (c client) indexed(root string) int {
	f, err := c.Folder(root)
	harness.Check(err)
	n, _ := f["indexed_count"].(float64)
	return int(n)
}

func (c client) idle(root string) bool {
	ok, err := c.Idle(root, 0)
	harness.Check(err)
	return ok
}

// count is how many results a query gets (limit 50).
func (c client) count(q, mode string) int {
	hits, err := c.Search(q, mode, 50)
	harness.Check(err)
	return len(hits)
}

// status is the HTTP status of a hybrid search for q.
func (c client) status(q string) int {
	body, _ := json.Marshal(map[string]any{"query": q, "limit": 50, "mode": "hybrid"})
	resp, err := http.Post(c.Base+"/api/search/", "application/json", bytes.NewReader(body))
	harness.Check(err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// round runs every query once and returns the latencies.
func (c client) round(queries []string, mode string) []time.Duration {
	out := make([]time.Duration, 0, len(queries))
	for _, q := range queries {
		body, _ := json.Marshal(map[string]any{"query": q, "limit": 50, "mode": mode})
		t0 := time.Now()
		resp, err := http.Post(c.Base+"/api/search/", "application/json", bytes.NewReader(body))
		harness.Check(err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out = append(out, time.Since(t0))
		if resp.StatusCode != 200 {
			log.Fatalf("query %q: %s", q, resp.Status)
		}
	}
	return out
}
