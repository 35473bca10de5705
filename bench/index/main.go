// Command index measures Trove's indexing on the benchmark corpus, against
// Recoll's recollindex on the same corpus in the same run:
//
//	go run ./bench/index [-files 20000] [-shared ../shared] [-recoll=true] [-edits 50] [-against REV]
//
// It builds the corpus with shared/bench/make-corpus.sh, builds the trove
// binary, indexes the corpus through the real server (HTTP on loopback) and
// prints files/s, MB/s, peak RSS, index size, per-format extraction
// throughput and the save-to-searchable latency (cooldown 0), then the same
// figures for recollindex (tuned configuration) and the ratios. With
// -against, a build of that git revision indexes the corpus too, after
// this checkout's.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"trove/bench/internal/harness"
	"trove/bench/internal/troveproc"
)

func main() {
	files := flag.Int("files", 20000, "approximate corpus size")
	shared := flag.String("shared", "../shared", "the shared folder with bench/make-corpus.sh")
	corpus := flag.String("corpus", "", "corpus directory (default /var/tmp/trove-corpus-N)")
	recoll := flag.Bool("recoll", true, "also run recollindex for the baseline")
	edits := flag.Int("edits", 50, "edits for the save-to-searchable latency")
	against := flag.String("against", "", "a git revision whose build indexes the same corpus in the same run, after this checkout's")
	flag.Parse()
	if *corpus == "" {
		*corpus = fmt.Sprintf("/var/tmp/trove-corpus-%d", *files)
	}
	sharedAbs, _ := filepath.Abs(*shared)
	harness.Run("bash", filepath.Join(sharedAbs, "bench", "make-corpus.sh"), *corpus, strconv.Itoa(*files))
	nFiles, nBytes := census(*corpus)
	fmt.Printf("corpus %s: %d files, %.1f MB\n\n", *corpus, nFiles, float64(nBytes)/1e6)

	work, err := os.MkdirTemp("", "trove-bench-")
	harness.Check(err)
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "trove")
	harness.Run("go", "build", "-o", bin, ".")

	tr := indexWithTrove(bin, work, *corpus, *edits)
	fmt.Printf("trove:  %6.1f s  %6.0f files/s  %5.1f MB/s  peak RSS %4d MiB  index %6.1f MB\n",
		tr.wall.Seconds(), float64(nFiles)/tr.wall.Seconds(), float64(nBytes)/1e6/tr.wall.Seconds(), tr.peakRSS>>20, float64(tr.indexBytes)/1e6)
	fmt.Printf("        save-to-searchable over %d edits (cooldown 0): median %v, p95 %v\n", len(tr.latencies), harness.Percentile(tr.latencies, 50), harness.Percentile(tr.latencies, 95))
	if *against != "" {
		dir := filepath.Join(work, "against")
		harness.Check(os.MkdirAll(dir, 0o755))
		revBin, err := troveproc.BuildAt(*against, dir)
		harness.Check(err)
		ar := indexWithTrove(revBin, dir, *corpus, *edits)
		fmt.Printf("%-7s %6.1f s  %6.0f files/s  %5.1f MB/s  peak RSS %4d MiB  index %6.1f MB\n", *against+":",
			ar.wall.Seconds(), float64(nFiles)/ar.wall.Seconds(), float64(nBytes)/1e6/ar.wall.Seconds(), ar.peakRSS>>20, float64(ar.indexBytes)/1e6)
		fmt.Printf("        save-to-searchable over %d edits (cooldown 0): median %v, p95 %v\n", len(ar.latencies), harness.Percentile(ar.latencies, 50), harness.Percentile(ar.latencies, 95))
		fmt.Printf("ratios this checkout/%s: speed %.2fx   peak RSS %.2fx   index size %.2fx\n\n", *against,
			ar.wall.Seconds()/tr.wall.Seconds(), float64(tr.peakRSS)/float64(ar.peakRSS), float64(tr.indexBytes)/float64(ar.indexBytes))
	}
	extractThroughput(sharedAbs, *corpus)
	if !*recoll {
		return
	}
	rc := indexWithRecoll(sharedAbs, work, *corpus)
	fmt.Printf("recoll: %6.1f s  %6.0f files/s  %5.1f MB/s  peak RSS %4d MiB  index %6.1f MB\n",
		rc.wall.Seconds(), float64(nFiles)/rc.wall.Seconds(), float64(nBytes)/1e6/rc.wall.Seconds(), rc.peakRSS>>20, float64(rc.indexBytes)/1e6)
	fmt.Printf("\nratios trove/recoll: speed %.2fx   peak RSS %.2fx   index size %.2fx\n",
		rc.wall.Seconds()/tr.wall.Seconds(), float64(tr.peakRSS)/float64(rc.peakRSS), float64(tr.indexBytes)/float64(rc.indexBytes))
}

type result struct {
	wall       time.Duration
	peakRSS    int64
	indexBytes int64
	latencies  []time.Duration
}

func indexWithTrove(bin, work, corpus string, edits int) result {
	data, conf := filepath.Join(work, "data"), filepath.Join(work, "conf")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--config-dir", conf)
	stderr, _ := cmd.StderrPipe()
	harness.Check(cmd.Start())
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	base := "http://" + harness.WaitAddr(stderr)
	api := client{base}
	api.do("PUT", "/api/settings/", `{"queue.cooldown_seconds": 0}`)
	start := time.Now()
	api.do("POST", "/api/watch/directory", fmt.Sprintf(`{"path": %q}`, corpus))
	for !api.idle(corpus) {
		time.Sleep(100 * time.Millisecond)
	}
	res := result{wall: time.Since(start)}
	res.peakRSS = harness.PeakRSS(cmd.Process.Pid)
	res.indexBytes = harness.DirSize(data)
	res.latencies = saveToSearchable(api, corpus, edits)
	return res
}

// saveToSearchable appends a unique word to text files one at a time and
// times how long until the index has the new content.
func saveToSearchable(api client, corpus string, n int) []time.Duration {
	var targets []string
	filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") && len(targets) < n {
			targets = append(targets, p)
		}
		return nil
	})
	var out []time.Duration
	for i, p := range targets {
		before := api.hash(p)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		harness.Check(err)
		t0 := time.Now()
		fmt.Fprintf(f, "\nzqedit%04d\n", i)
		f.Close()
		for api.hash(p) == before {
			time.Sleep(2 * time.Millisecond)
			if time.Since(t0) > 30*time.Second {
				log.Fatalf("edit of %s never became searchable", p)
			}
		}
		out = append(out, time.Since(t0))
	}
	return out
}

type client struct{ base string }

func (c client) do(method, path, body string) map[string]any {
	req, _ := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	harness.Check(err)
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return m
}

func (c client) hash(path string) any {
	return c.do("GET", "/api/files/lookup?path="+url.QueryEscape(path), "")["content_hash"]
}

func (c client) idle(root string) bool {
	q := c.do("GET", "/api/queue/status", "")
	if q["total"] != float64(0) {
		return false
	}
	d := c.do("GET", "/api/watched-directories", "")
	data, _ := d["data"].(map[string]any)
	list, _ := data["directories"].([]any)
	for _, x := range list {
		if m := x.(map[string]any); m["path"] == root {
			return m["status"] == "watching" || m["status"] == "complete"
		}
	}
	return false
}

func indexWithRecoll(shared, work, corpus string) result {
	r := harness.RecollIndex(shared, filepath.Join(work, "recoll"), []string{corpus})
	return result{wall: r.Wall, peakRSS: r.PeakRSS, indexBytes: r.IndexBytes}
}

// extractThroughput runs the extraction benchmark on the corpus, when the
// project has one.
func extractThroughput(shared, corpus string) {
	if _, err := os.Stat("bench/extract"); err != nil {
		return
	}
	fmt.Println("\nper-format extraction throughput:")
	cmd := exec.Command("go", "run", "./bench/extract", corpus)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Printf("extract benchmark: %v", err)
	}
	fmt.Println()
}

func census(root string) (n int, bytes int64) {
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n++
				bytes += info.Size()
			}
		}
		return nil
	})
	return
}
