// Command scale measures Trove on a large tree: how soon every file is
// found by name (the names pass), how soon every file's content is indexed
// (the content pass), peak RSS, index size, and search latency while
// indexing and idle:
//
//	go run ./bench/scale [-files 1000000] [-docs /var/tmp/trove-corpus-20000] [-share 0.02] [-content=true] [-busy 30s] [-recoll 20000]
//
// With -content=false it stops after the names pass and -busy of the
// content pass, reports how far the content pass got and its files/s, then
// pauses the queue and times idle searches on the index as it stands.
// With -recoll N, Recoll then indexes whole top folders of the tree that
// hold at least N files (a documented share: on a million files its run
// would take hours), for its files/s, memory and index size.
//
// It generates the tree once (kept in /var/tmp/trove-scale-N: folders a few
// levels deep with realistic names, small texts, and a share of real
// documents copied from the benchmark corpus that bench/index builds with
// shared/bench/make-corpus.sh), builds the trove binary and indexes the
// tree through the real server. Run it from the repository's root.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"trove/bench/internal/harness"
)

func main() {
	files := flag.Int("files", 1_000_000, "files in the tree")
	docs := flag.String("docs", "/var/tmp/trove-corpus-20000", "benchmark corpus to take real documents from (\"\" for none)")
	share := flag.Float64("share", 0.02, "share of the files that are real documents")
	content := flag.Bool("content", true, "wait for the content pass too")
	busyFor := flag.Duration("busy", 30*time.Second, "how long searches are timed during the content pass besides the names pass")
	tree := flag.String("tree", "", "tree directory (default /var/tmp/trove-scale-N)")
	shared := flag.String("shared", "../shared", "the shared folder (Recoll's mime map)")
	recollShare := flag.Int("recoll", 0, "then index whole top folders holding at least this many files with Recoll (0: none)")
	flag.Parse()
	if *tree == "" {
		*tree = fmt.Sprintf("/var/tmp/trove-scale-%d", *files)
	}
	t0 := time.Now()
	n := generate(*tree, *files, *docs, *share)
	fmt.Printf("tree %s: %d files (made or checked in %v)\n", *tree, n, time.Since(t0).Round(time.Second))

	work, done := harness.WorkDir("", "trove-scale-")
	defer done()
	bin := filepath.Join(work, "trove")
	harness.Run("go", "build", "-o", bin, ".")
	data := filepath.Join(work, "data")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--config-dir", filepath.Join(work, "conf"))
	stderr, _ := cmd.StderrPipe()
	harness.Check(cmd.Start())
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
	}()
	api := client{"http://" + harness.WaitAddr(stderr)}

	start := time.Now()
	// The watch request answers once the walk (and with it the names
	// pass) is over; names are searchable a batch at a time before.
	answered := make(chan time.Duration, 1)
	go func() {
		api.get("POST", "/api/watch/directory", fmt.Sprintf(`{"path": %q}`, *tree))
		answered <- time.Since(start)
	}()
	var busy []time.Duration
	var namesAt, firstAt time.Duration
	var contentAtNames int64 // contents read while the names pass ran
	var f folder
	for namesAt == 0 || firstAt == 0 {
		if firstAt == 0 && api.hits("report") > 0 {
			firstAt = time.Since(start)
		}
		// Done once the walk ended (the total known) and every file it
		// found is recorded; the filters may leave some of the tree out.
		f = api.folder(*tree)
		if names := f.Progress.Names; names.State == "done" && names.Total >= 0 && names.Done >= names.Total {
			namesAt = time.Since(start)
			contentAtNames = f.Progress.Content.Done
		}
		busy = append(busy, api.search("report"))
		time.Sleep(200 * time.Millisecond)
	}
	watched := <-answered
	fmt.Printf("first names searchable after %v; watch answered after %v; all %d names searchable after %v (%.0f files/s)\n",
		firstAt.Round(time.Millisecond), watched.Round(time.Millisecond), f.Progress.Names.Done, namesAt.Round(time.Millisecond), float64(f.Progress.Names.Done)/namesAt.Seconds())
	for t := time.Now(); time.Since(t) < *busyFor; {
		busy = append(busy, api.search("report"))
		time.Sleep(200 * time.Millisecond)
	}
	if !*content {
		f = api.folder(*tree)
		spent := time.Since(start) - namesAt
		fmt.Printf("content pass after %v: %d of %d files (%d while the names pass ran; %.0f files/s since)\n", time.Since(start).Round(time.Second),
			f.Progress.Content.Done, f.Progress.Content.Total, contentAtNames, float64(f.Progress.Content.Done-contentAtNames)/spent.Seconds())
		// Idle, on the index as it stands: the queue paused.
		api.get("POST", "/api/queue/pause", "")
	}
	if *content {
		for {
			f := api.folder(*tree)
			if f.Progress.Content.State == "done" && f.Status != "indexing" {
				break
			}
			busy = append(busy, api.search("report"))
			time.Sleep(time.Second)
		}
		fmt.Printf("every content indexed after %v (%.0f files/s)\n", time.Since(start).Round(time.Second), float64(n)/time.Since(start).Seconds())
	}
	var idle []time.Duration
	for i := range 50 {
		idle = append(idle, api.search([]string{"report", "budget", "notes", "invoice", "holiday"}[i%5]))
	}
	fmt.Printf("peak RSS %d MiB, index %.1f MB\n", harness.PeakRSS(cmd.Process.Pid)>>20, float64(harness.DirSize(data))/1e6)
	fmt.Printf("search while indexing (%d): p50 %v p95 %v; idle (%d): p50 %v p95 %v\n",
		len(busy), harness.Percentile(busy, 50), harness.Percentile(busy, 95),
		len(idle), harness.Percentile(idle, 50), harness.Percentile(idle, 95))
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	stopped = true
	if *recollShare > 0 {
		recollOnShare(*tree, work, *shared, *recollShare)
	}
}

// recollOnShare indexes whole top folders of the tree holding at least
// share files with Recoll (its stemmers, the tuned mime map of
// shared/bench/recoll) and prints its files/s, peak RSS and index size,
// and those scaled to the whole tree: Recoll has no names pass, and on a
// million files its run would take hours.
func recollOnShare(tree, work, shared string, share int) {
	tops, err := os.ReadDir(tree)
	harness.Check(err)
	var dirs []string
	files := 0
	for _, d := range tops {
		if files >= share {
			break
		}
		if d.IsDir() {
			dirs = append(dirs, filepath.Join(tree, d.Name()))
			files += countFiles(dirs[len(dirs)-1])
		}
	}
	total := countFiles(tree)
	r := harness.RecollIndex(shared, filepath.Join(work, "recoll"), dirs)
	wall, rss, size := r.Wall, r.PeakRSS, r.IndexBytes
	fmt.Printf("Recoll on %d top folders (%d files of %d): %v, %.0f files/s, peak RSS %d MiB, index %.1f MB (%.0f MB scaled to the tree)\n",
		len(dirs), files, total, wall.Round(time.Second), float64(files)/wall.Seconds(), rss>>20, float64(size)/1e6, float64(size)/1e6*float64(total)/float64(files))
}

var (
	topics = []string{"projects", "photos", "taxes", "school", "work", "recipes", "travel", "music", "notes", "archive"}
	words  = []string{"report", "budget", "draft", "final", "notes", "invoice", "summary", "plan", "letter", "holiday",
		"meeting", "scan", "backup", "list", "todo", "garden", "kitchen", "roof", "car", "insurance"}
)

// generate makes the tree (or keeps the one there with as many files) and
// returns its file count.
func generate(root string, n int, docs string, share float64) int {
	if have := countFiles(root); have >= n {
		return have
	}
	harness.Check(os.RemoveAll(root))
	var real []string
	if docs != "" {
		filepath.WalkDir(docs, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				real = append(real, p)
			}
			return nil
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	dir := ""
	for i := 0; i < n; i++ {
		if i%200 == 0 { // a folder of 200 files, 2 to 5 levels deep
			parts := []string{root}
			for d := 0; d < 2+r.IntN(4); d++ {
				parts = append(parts, fmt.Sprintf("%s-%d", topics[r.IntN(len(topics))], r.IntN(50)))
			}
			parts = append(parts, fmt.Sprintf("f%d", i/200))
			dir = filepath.Join(parts...)
			harness.Check(os.MkdirAll(dir, 0o755))
		}
		w1, w2 := words[r.IntN(len(words))], words[r.IntN(len(words))]
		if len(real) > 0 && r.Float64() < share {
			src := real[r.IntN(len(real))]
			copyFile(src, filepath.Join(dir, fmt.Sprintf("%s-%d-%s", w1, i, filepath.Base(src))))
			continue
		}
		body := fmt.Sprintf("%s %s %d\nThe %s for the %s, written on day %d.\n", w1, w2, i, w1, w2, r.IntN(365))
		harness.Check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%s_%d.txt", w1, w2, i)), []byte(body), 0o644))
	}
	return countFiles(root)
}

func copyFile(src, dst string) {
	in, err := os.Open(src)
	harness.Check(err)
	defer in.Close()
	out, err := os.Create(dst)
	harness.Check(err)
	_, err = io.Copy(out, in)
	harness.Check(err)
	harness.Check(out.Close())
}

func countFiles(root string) int {
	n := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

type client struct{ base string }

func (c client) get(method, path, body string) []byte {
	req, _ := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	harness.Check(err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	harness.Check(err)
	return b
}

type pass struct {
	State string `json:"state"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

type folder struct {
	Path     string `json:"path"`
	Status   string `json:"status"`
	Progress struct {
		Names, Content pass
	} `json:"progress"`
}

func (c client) folder(root string) folder {
	var out struct {
		Data struct {
			Directories []folder `json:"directories"`
		} `json:"data"`
	}
	harness.Check(json.Unmarshal(c.get("GET", "/api/watched-directories", ""), &out))
	for _, f := range out.Data.Directories {
		if f.Path == root {
			return f
		}
	}
	return folder{}
}

// hits is how many results a search of the stream endpoint has.
func (c client) hits(q string) int {
	var out struct {
		Data struct {
			Total int `json:"total_results"`
		} `json:"data"`
	}
	json.Unmarshal(c.get("GET", "/api/search/stream?query="+url.QueryEscape(q), ""), &out)
	return out.Data.Total
}

// search times one search of the stream endpoint.
func (c client) search(q string) time.Duration {
	t := time.Now()
	c.get("GET", "/api/search/stream?query="+url.QueryEscape(q), "")
	return time.Since(t)
}
