// Command latency measures search latency over HTTP, as a script would see
// it, on the benchmark corpus:
//
//	go run ./bench/latency [-files 20000] [-corpus DIR] [-reps 20] [-recoll]
//
// It builds the corpus with shared/bench/make-corpus.sh, starts a trove
// server, and times POST /api/search/ (hybrid, limit 50, snippets included)
// for every query of shared/bench/queries.txt: first while the corpus is
// being indexed (an index run in progress), then once indexing is done. In
// the same run it times keyword-only searches as a baseline, and with
// -recoll, Recoll's own query benchmark on the same corpus.
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
	"sort"
	"strconv"
	"strings"
	"time"

	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

func main() {
	files := flag.Int("files", 20000, "approximate corpus size")
	corpusDir := flag.String("corpus", "", "the corpus folder (default /var/tmp/trove-corpus-FILES; built with make-corpus.sh)")
	shared := flag.String("shared", ir.SharedDir(), "the shared folder with bench/make-corpus.sh and bench/queries.txt")
	reps := flag.Int("reps", 20, "timed repetitions of each query once indexing is done (20 x 20 queries: a p95 over 400 samples)")
	recoll := flag.Bool("recoll", false, "also run Recoll's query benchmark on the same corpus (indexes it with recollindex)")
	flag.Parse()
	sharedAbs, _ := filepath.Abs(*shared)
	corpus := *corpusDir
	if corpus == "" {
		corpus = fmt.Sprintf("/var/tmp/trove-corpus-%d", *files)
	}
	run("bash", filepath.Join(sharedAbs, "bench", "make-corpus.sh"), corpus, strconv.Itoa(*files))
	queries := readLines(filepath.Join(sharedAbs, "bench", "queries.txt"))

	work, err := os.MkdirTemp("", "trove-latency-")
	check(err)
	defer os.RemoveAll(work)
	bin, err := troveproc.Build(work)
	check(err)
	srv, err := troveproc.Start(bin, work)
	check(err)
	defer srv.Stop()
	api := client{srv}

	start := time.Now()
	_, err = srv.Call("POST", "/api/watch/directory", map[string]any{"path": corpus})
	check(err)
	var during []time.Duration
	rounds := 0
	for !api.idle(corpus) {
		if api.indexed(corpus) >= *files/4 { // search a partly built index, while writes go on
			during = append(during, api.round(queries, "hybrid")...)
			rounds++
		} else {
			time.Sleep(200 * time.Millisecond)
		}
	}
	fmt.Printf("corpus %s: indexed in %.1f s\n\n", corpus, time.Since(start).Seconds())
	fmt.Printf("%-36s %8s %8s %8s %6s\n", "POST /api/search/, limit 50", "p50 ms", "p95 ms", "max ms", "n")
	report(fmt.Sprintf("hybrid, during indexing (%d rounds)", rounds), during)
	api.round(queries, "hybrid") // warm caches, as a running app has them
	var hybrid, keyword []time.Duration
	for range *reps {
		hybrid = append(hybrid, api.round(queries, "hybrid")...)
		keyword = append(keyword, api.round(queries, "keyword")...)
	}
	report("hybrid, idle", hybrid)
	report("keyword only, idle (baseline)", keyword)
	fmt.Printf("\nhybrid/keyword p95 ratio: %.2f\n", ms(pct(hybrid, 95))/ms(pct(keyword, 95)))
	if *recoll {
		recollBaseline(sharedAbs, work, corpus)
	}
}

func report(label string, xs []time.Duration) {
	if len(xs) == 0 {
		fmt.Printf("%-36s %8s\n", label, "-")
		return
	}
	fmt.Printf("%-36s %8.1f %8.1f %8.1f %6d\n", label, ms(pct(xs, 50)), ms(pct(xs, 95)), ms(pct(xs, 100)), len(xs))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// recollBaseline indexes the corpus with Recoll (tuned, as the project's
// anchors do) and runs its query benchmark.
func recollBaseline(shared, work, corpus string) {
	conf := filepath.Join(work, "recoll")
	check(os.MkdirAll(conf, 0o755))
	check(os.WriteFile(filepath.Join(conf, "recoll.conf"), []byte(fmt.Sprintf(
		"topdirs = %s\nloglevel = 2\naspellLanguage = en\nsystemfilecommand = file -b --mime-type\n", corpus)), 0o644))
	mm, err := os.ReadFile(filepath.Join(shared, "bench", "recoll", "mimemap.tuned"))
	check(err)
	check(os.WriteFile(filepath.Join(conf, "mimemap"), mm, 0o644))
	fmt.Println("\nRecoll (same corpus, tuned):")
	run("recollindex", "-c", conf, "-z")
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
	check(err)
	n, _ := f["indexed_count"].(float64)
	return int(n)
}

func (c client) idle(root string) bool {
	ok, err := c.Idle(root, 0)
	check(err)
	return ok
}

// round runs every query once and returns the latencies.
func (c client) round(queries []string, mode string) []time.Duration {
	out := make([]time.Duration, 0, len(queries))
	for _, q := range queries {
		body, _ := json.Marshal(map[string]any{"query": q, "limit": 50, "mode": mode})
		t0 := time.Now()
		resp, err := http.Post(c.Base+"/api/search/", "application/json", bytes.NewReader(body))
		check(err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out = append(out, time.Since(t0))
		if resp.StatusCode != 200 {
			log.Fatalf("query %q: %s", q, resp.Status)
		}
	}
	return out
}

func pct(xs []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := int(float64(len(s))*p/100+0.999999) - 1 // nearest rank
	return s[max(0, min(k, len(s)-1))]
}

func readLines(path string) []string {
	b, err := os.ReadFile(path)
	check(err)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
