// Command quality measures Trove's ranking on a BEIR-format collection
// (Cranfield by default), through the real pipeline and the real API:
//
//	go run ./bench/quality [-data ../shared/datasets/cranfield] [-modes keyword,semantic,hybrid]
//
// Every document becomes a Markdown file (its title as the heading), a
// trove server indexes the folder, every query goes through POST
// /api/search/, and the program prints nDCG@10 (graded, linear gain),
// Recall@100 and MRR@10 for each mode.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	data := flag.String("data", "../shared/datasets/cranfield", "BEIR collection folder")
	modes := flag.String("modes", "keyword,semantic,hybrid", "search modes to measure")
	bin := flag.String("bin", "", "trove binary (built from this checkout when empty)")
	verbose := flag.Bool("v", false, "print per-query nDCG@10 of the last mode")
	keep := flag.String("keep", "", "keep the corpus and index in this folder (for further experiments)")
	embedModel := flag.String("embedding-model", "", "embedding.model setting (default: the builtin default)")
	flag.Parse()

	docs := readCorpus(filepath.Join(*data, "corpus.jsonl"))
	queries := readQueries(filepath.Join(*data, "queries.jsonl"))
	qrels := readQrels(filepath.Join(*data, "qrels.tsv"))

	work := *keep
	if work == "" {
		tmp, err := os.MkdirTemp("", "trove-quality-")
		check(err)
		defer os.RemoveAll(tmp)
		work = tmp
	} else {
		check(os.RemoveAll(work))
		check(os.MkdirAll(work, 0o755))
	}
	corpus := filepath.Join(work, "corpus")
	check(os.MkdirAll(corpus, 0o755))
	for id, d := range docs {
		body := d.Text
		if d.Title != "" {
			body = "# " + d.Title + "\n\n" + d.Text
		}
		check(os.WriteFile(filepath.Join(corpus, id+".md"), []byte(body+"\n"), 0o644))
	}
	if *bin == "" {
		*bin = filepath.Join(work, "trove")
		cmd := exec.Command("go", "build", "-o", *bin, ".")
		cmd.Stderr = os.Stderr
		check(cmd.Run())
	}
	api, stop := startTrove(*bin, work)
	defer stop()
	if *embedModel != "" {
		api.put("/api/settings/", map[string]any{"embedding.model": *embedModel})
	}
	t0 := time.Now()
	api.post("/api/watch/directory", map[string]any{"path": corpus})
	for !api.idle(corpus, len(docs)) {
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Printf("%s: %d documents indexed in %.1f s, %d queries\n\n", filepath.Base(*data), len(docs), time.Since(t0).Seconds(), len(queries))
	fmt.Printf("%-9s %8s %11s %8s %10s\n", "mode", "nDCG@10", "Recall@100", "MRR@10", "p50 ms")
	for _, mode := range strings.Split(*modes, ",") {
		var ndcg, recall, mrr float64
		var lat []float64
		n := 0
		perQuery := map[string]float64{}
		for _, q := range queries {
			rel := qrels[q.ID]
			if len(rel) == 0 {
				continue
			}
			start := time.Now()
			ranked := api.search(q.Text, mode, 100)
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
			nd := ndcgAt(ranked, rel, 10)
			perQuery[q.ID] = nd
			ndcg += nd
			recall += recallAt(ranked, rel, 100)
			mrr += mrrAt(ranked, rel, 10)
			n++
		}
		sort.Float64s(lat)
		fmt.Printf("%-9s %8.4f %11.4f %8.4f %10.1f\n", mode, ndcg/float64(n), recall/float64(n), mrr/float64(n), lat[len(lat)/2])
		if *verbose {
			ids := make([]string, 0, len(perQuery))
			for id := range perQuery {
				ids = append(ids, id)
			}
			sort.Slice(ids, func(i, j int) bool { a, _ := strconv.Atoi(ids[i]); b, _ := strconv.Atoi(ids[j]); return a < b })
			for _, id := range ids {
				fmt.Printf("  q%s %.3f\n", id, perQuery[id])
			}
		}
	}
}

type doc struct{ Title, Text string }

type querySpec struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

func readCorpus(path string) map[string]doc {
	out := map[string]doc{}
	eachLine(path, func(line []byte) {
		var d struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		check(json.Unmarshal(line, &d))
		out[d.ID] = doc{d.Title, d.Text}
	})
	return out
}

func readQueries(path string) []querySpec {
	var out []querySpec
	eachLine(path, func(line []byte) {
		var q querySpec
		check(json.Unmarshal(line, &q))
		out = append(out, q)
	})
	return out
}

func readQrels(path string) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	first := true
	eachLine(path, func(line []byte) {
		if first {
			first = false
			return
		}
		f := strings.Split(string(line), "\t")
		score, _ := strconv.ParseFloat(f[2], 64)
		if score <= 0 {
			return
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]float64{}
		}
		out[f[0]][f[1]] = score
	})
	return out
}

func eachLine(path string, fn func([]byte)) {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			fn(sc.Bytes())
		}
	}
	check(sc.Err())
}

// Metrics. ranked holds document ids, best first.

func ndcgAt(ranked []string, rel map[string]float64, k int) float64 {
	dcg := 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		dcg += rel[id] / math.Log2(float64(i)+2)
	}
	ideal := make([]float64, 0, len(rel))
	for _, g := range rel {
		ideal = append(ideal, g)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
	idcg := 0.0
	for i, g := range ideal[:min(k, len(ideal))] {
		idcg += g / math.Log2(float64(i)+2)
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

func recallAt(ranked []string, rel map[string]float64, k int) float64 {
	hit := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(rel))
}

func mrrAt(ranked []string, rel map[string]float64, k int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// The server.

type client struct{ base string }

var addrRE = regexp.MustCompile(`msg="trove started" addr=(\S+)`)

func startTrove(bin, work string) (client, func()) {
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(work, "data"), "--config-dir", filepath.Join(work, "conf"))
	stderr, _ := cmd.StderrPipe()
	check(cmd.Start())
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			c := client{"http://" + m[1]}
			c.put("/api/settings/", map[string]any{"queue.cooldown_seconds": 0})
			return c, func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
		}
	}
	log.Fatal("trove did not start")
	return client{}, nil
}

func (c client) call(method, path string, body any) map[string]any {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	check(err)
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	if resp.StatusCode >= 300 {
		log.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, m)
	}
	return m
}

func (c client) post(path string, body any) map[string]any { return c.call("POST", path, body) }
func (c client) put(path string, body any) map[string]any  { return c.call("PUT", path, body) }

func (c client) idle(root string, want int) bool {
	if q := c.call("GET", "/api/queue/status", nil); q["total"] != float64(0) {
		return false
	}
	d := c.call("GET", "/api/watched-directories", nil)
	list, _ := d["data"].(map[string]any)["directories"].([]any)
	for _, x := range list {
		if m := x.(map[string]any); m["path"] == root {
			done, _ := m["indexed_count"].(float64)
			failed, _ := m["failed_count"].(float64)
			return m["status"] == "watching" && int(done+failed) >= want
		}
	}
	return false
}

func (c client) search(q, mode string, limit int) []string {
	r := c.post("/api/search/", map[string]any{"query": q, "mode": mode, "limit": limit})
	results, _ := r["results"].([]any)
	out := make([]string, 0, len(results))
	for _, x := range results {
		f := x.(map[string]any)["file"].(map[string]any)
		out = append(out, strings.TrimSuffix(f["filename"].(string), ".md"))
	}
	return out
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
