package daemon_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3/driver"

	"trove/internal/testserver"
)

// TestChaos drives a real server with random file-system changes (creates,
// edits, renames of files and folders, deletes, FIFO and symlink swaps,
// images swapped after they were indexed, files whose write panics inside
// the index's transaction),
// watch and unwatch, settings changes, pauses, and searches with random and
// hostile queries from clients that sometimes hang up, all at once. Then
// the index must equal the disk, no text from outside the watched folders
// may ever have been searchable, no request may have failed with a 5xx
// other than a documented overload answer, and the process must be alive.
//
// It runs the seeds that once failed (testdata/chaos-seeds.txt), so the
// suite stays deterministic; TROVE_CHAOS_NEW=n adds n fresh seeds, printed
// (`make chaos` explores that way), TROVE_CHAOS_SEED replays one seed, and
// TROVE_CHAOS_OPS sets the number of operations per seed.
func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("a few thousand operations against a real server")
	}
	seeds := keptSeeds(t)
	if s := os.Getenv("TROVE_CHAOS_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("TROVE_CHAOS_SEED: %v", err)
		}
		seeds = []uint64{seed}
	} else if s := os.Getenv("TROVE_CHAOS_NEW"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("TROVE_CHAOS_NEW: %v", err)
		}
		for i := range n {
			seeds = append(seeds, uint64(time.Now().UnixNano())+uint64(i))
		}
	}
	ops := 300
	if s := os.Getenv("TROVE_CHAOS_OPS"); s != "" {
		var err error
		if ops, err = strconv.Atoi(s); err != nil {
			t.Fatalf("TROVE_CHAOS_OPS: %v", err)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Logf("chaos seed %d, %d operations (replay: TROVE_CHAOS_SEED=%d go test -run TestChaos ./backend/daemon/)", seed, ops, seed)
			runChaos(t, seed, ops)
		})
	}
}

// keptSeeds reads the seeds that found a failure once: each line is a seed,
// optionally followed by a comment on what it found.
func keptSeeds(t *testing.T) []uint64 {
	b, err := os.ReadFile("testdata/chaos-seeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		seed, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			t.Fatalf("chaos-seeds.txt: %v", err)
		}
		out = append(out, seed)
	}
	return out
}

// world is the test's model of what it did: the folders, which of them are
// watched, and the secret outside all of them.
type world struct {
	t        *testing.T
	rnd      *rand.Rand
	srv      *testserver.Server
	roots    []string
	jobs     map[string]int64 // watched root -> job id
	secret   string           // a file outside every watched folder
	canary   string           // a word only the secret holds
	counts   map[string]int   // operations done, by kind
	paused   bool
	vocab    []string
	errs     chan string // failures seen by background clients
	created  int
	history  []string // what the test did to the disk and the server, in order
	lastPath string   // the path difference() last found wrong
}

// did records an operation, for the failure report.
func (w *world) did(format string, args ...any) {
	w.history = append(w.history, fmt.Sprintf(format, args...))
}

// historyOf lists the recorded operations that mention path or one of its
// folders, and every watch and unwatch.
func (w *world) historyOf(path string) string {
	var out []string
	for i, h := range w.history {
		if strings.HasPrefix(h, "watch ") || strings.HasPrefix(h, "unwatch ") {
			out = append(out, fmt.Sprintf("#%d %s", i, h))
			continue
		}
		for dir := path; len(dir) > 1; dir = filepath.Dir(dir) {
			if strings.Contains(h, dir+" ") || strings.HasSuffix(h, dir) {
				out = append(out, fmt.Sprintf("#%d %s", i, h))
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

func runChaos(t *testing.T, seed uint64, ops int) {
	base := t.TempDir()
	w := &world{
		t: t, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		jobs: map[string]int64{}, counts: map[string]int{}, errs: make(chan string, 1000),
		canary: fmt.Sprintf("canaryzq%x", seed%0xffffff),
	}
	w.vocab = strings.Fields(`roof leak budget invoice meeting notes garden tomato river bridge engine
		pressure boundary layer turbine quarterly revenue recipe bread oven storm ceiling paint window
		contract lease tenant deposit kernel module socket buffer packet latency`)
	w.secret = filepath.Join(base, "outside", "secret.txt")
	must(t, os.MkdirAll(filepath.Dir(w.secret), 0o755))
	must(t, os.WriteFile(w.secret, []byte("top secret "+w.canary+" password hunter2"), 0o600))
	for _, name := range []string{"alpha", "beta", "gamma"} {
		root := filepath.Join(base, name)
		must(t, os.MkdirAll(root, 0o755))
		w.roots = append(w.roots, root)
	}
	for range 30 {
		w.create()
	}
	// A write of a file named boom-* panics inside the transaction, as
	// SQLite does when it runs out of memory: that file fails, nothing
	// else waits.
	w.srv = testserver.Start(t, testserver.WithWriteHook(func(path string) {
		if isBoom(path) {
			panic("sqlite3: out of memory")
		}
	}))
	w.watch(w.roots[0])
	w.watch(w.roots[1])

	ctx, stop := context.WithCancel(context.Background())
	var bg sync.WaitGroup
	for i := range 3 {
		bg.Go(func() { w.hostileClient(ctx, seed+uint64(i)+1) })
	}
	for range ops {
		w.step()
	}
	stop()
	bg.Wait()
	w.settle()
	close(w.errs)
	for e := range w.errs {
		t.Error(e)
	}
	t.Logf("seed %d: %v", seed, w.counts)
}

// step does one random operation.
func (w *world) step() {
	type op struct {
		weight int
		fn     func()
	}
	table := []op{
		{20, w.create}, {12, w.edit}, {8, w.rename}, {3, w.renameDir}, {6, w.remove},
		{3, w.fifoSwap}, {3, w.symlinkSwap}, {2, w.toggleWatch}, {3, w.changeSettings},
		{2, w.togglePause}, {12, w.search}, {4, w.checkCanary}, {3, w.oddRequest}, {3, w.swapImage},
	}
	total := 0
	for _, o := range table {
		total += o.weight
	}
	n := w.rnd.IntN(total)
	for _, o := range table {
		if n < o.weight {
			o.fn()
			return
		}
		n -= o.weight
	}
}

var subdirs = []string{"", "sub", "sub/deep", "other"}
var exts = []string{".txt", ".md", ".html", ".json", ".csv", ".bin", "", ".png"}

func (w *world) randomPath() string {
	root := w.roots[w.rnd.IntN(len(w.roots))]
	stem := "file"
	if w.rnd.IntN(30) == 0 {
		stem = "boom"
	}
	name := fmt.Sprintf("%s-%02d%s", stem, w.rnd.IntN(25), exts[w.rnd.IntN(len(exts))])
	return filepath.Join(root, subdirs[w.rnd.IntN(len(subdirs))], name)
}

// isBoom tells the files whose write panics.
func isBoom(path string) bool { return strings.HasPrefix(filepath.Base(path), "boom-") }

// tinyPNG is a 2x2 PNG: an image the preview serves.
var tinyPNG = func() []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2)))
	return b.Bytes()
}()

func (w *world) words(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = w.vocab[w.rnd.IntN(len(w.vocab))]
	}
	return strings.Join(out, " ")
}

func (w *world) content(path string) []byte {
	w.created++
	if strings.HasSuffix(path, ".png") && w.rnd.IntN(4) != 0 {
		return tinyPNG
	}
	switch w.rnd.IntN(6) {
	case 0: // one long token, then the words: snippets must cope
		return []byte("Meeting notes " + strings.Repeat(fmt.Sprintf("%x", w.rnd.Uint64()), 30) + " " + w.words(5))
	case 1:
		b := make([]byte, w.rnd.IntN(4096))
		for i := range b {
			b[i] = byte(w.rnd.IntN(256))
		}
		return b
	case 2:
		return nil
	case 3:
		return []byte("<html><head><title>" + w.words(3) + "</title></head><body><p>" + w.words(200) + "</p></body></html>")
	}
	return []byte(fmt.Sprintf("%s %d\n%s\n", w.words(4), w.created, w.words(20+w.rnd.IntN(400))))
}

// writeFile replaces whatever is at path (a FIFO or a link too: writing
// through them would block or write outside) with a regular file.
func (w *world) writeFile(path string, data []byte) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		os.RemoveAll(path)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil && !isNotDir(err) {
		w.t.Fatalf("write %s: %v", path, err)
	}
}

// isNotDir is the error of a write under a path whose folder a rename just
// turned into a file (or the reverse): the model moves on.
func isNotDir(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR)
}

func (w *world) create() {
	w.counts["create"]++
	p := w.randomPath()
	w.did("create %s", p)
	w.writeFile(p, w.content(p))
}

// regularFiles lists the regular files below the roots, sorted.
func (w *world) regularFiles() []string {
	var out []string
	for _, root := range w.roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				out = append(out, p)
			}
			return nil
		})
	}
	slices.Sort(out)
	return out
}

func (w *world) pick() string {
	files := w.regularFiles()
	if len(files) == 0 {
		return ""
	}
	return files[w.rnd.IntN(len(files))]
}

func (w *world) edit() {
	w.counts["edit"]++
	if p := w.pick(); p != "" {
		if w.rnd.IntN(2) == 0 {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				f.WriteString("\n" + w.words(10))
				f.Close()
			}
			return
		}
		w.did("rewrite %s", p)
		w.writeFile(p, w.content(p))
	}
}

func (w *world) rename() {
	w.counts["rename"]++
	if p := w.pick(); p != "" {
		to := w.randomPath()
		if st, err := os.Lstat(to); err == nil && st.IsDir() {
			return
		}
		os.MkdirAll(filepath.Dir(to), 0o755)
		w.did("rename %s -> %s", p, to)
		os.Rename(p, to)
	}
}

func (w *world) renameDir() {
	w.counts["rename-dir"]++
	root := w.roots[w.rnd.IntN(len(w.roots))]
	from := filepath.Join(root, subdirs[1+w.rnd.IntN(len(subdirs)-1)])
	toRoot := w.roots[w.rnd.IntN(len(w.roots))]
	to := filepath.Join(toRoot, subdirs[1+w.rnd.IntN(len(subdirs)-1)])
	if strings.HasPrefix(to+"/", from+"/") || strings.HasPrefix(from+"/", to+"/") {
		return
	}
	if _, err := os.Lstat(to); err == nil {
		w.did("remove-all %s", to)
		os.RemoveAll(to)
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	w.did("rename-dir %s -> %s", from, to)
	os.Rename(from, to)
}

func (w *world) remove() {
	w.counts["remove"]++
	if w.rnd.IntN(8) == 0 {
		root := w.roots[w.rnd.IntN(len(w.roots))]
		dir := filepath.Join(root, subdirs[1+w.rnd.IntN(len(subdirs)-1)])
		w.did("remove-all %s", dir)
		os.RemoveAll(dir)
		return
	}
	if p := w.pick(); p != "" {
		w.did("remove %s", p)
		os.Remove(p)
	}
}

// fifoSwap replaces a file with a named pipe: opening it for reading would
// wait for a writer forever.
func (w *world) fifoSwap() {
	w.counts["fifo-swap"]++
	if p := w.pick(); p != "" {
		tmp := p + ".swap-fifo"
		w.did("fifo-swap %s", p)
		if syscall.Mkfifo(tmp, 0o644) == nil {
			os.Rename(tmp, p)
		}
	}
}

// symlinkSwap replaces a file with a link to the secret outside every
// watched folder: its text must never become searchable.
func (w *world) symlinkSwap() {
	w.counts["symlink-swap"]++
	if p := w.pick(); p != "" {
		tmp := p + ".swap-link"
		w.did("symlink-swap %s", p)
		if os.Symlink(w.secret, tmp) == nil {
			os.Rename(tmp, p)
		}
	}
}

// swapImage puts a link to the secret, or another file, in the place of
// an indexed image, then asks for the image: it must never be served with
// the secret's bytes, or with any bytes the index was not made from.
func (w *world) swapImage() {
	w.counts["image-swap"]++
	var images []string
	for _, p := range w.regularFiles() {
		if strings.HasSuffix(p, ".png") {
			images = append(images, p)
		}
	}
	if len(images) == 0 {
		return
	}
	p := images[w.rnd.IntN(len(images))]
	r := w.srv.Get("/api/files/lookup?path=" + url.QueryEscape(p))
	id, _ := r.Field("id").(float64)
	if r.Status != 200 || r.Field("status") != "indexed" || !bytes.Equal(readAll(p), tinyPNG) {
		return
	}
	tmp := p + ".swap-image"
	if other := w.pick(); w.rnd.IntN(2) == 0 && other != "" && other != p {
		w.did("image-swap %s <- %s", p, other)
		os.Rename(other, p)
	} else if os.Symlink(w.secret, tmp) == nil {
		w.did("image-swap %s <- link to the secret", p)
		os.Rename(tmp, p)
	}
	img := w.srv.Get(fmt.Sprintf("/api/files/%d/image", int64(id)))
	w.checkAnswer("image after a swap", p, img.Status, img.Body)
	if img.Status == 200 && (bytes.Contains(img.Body, []byte(w.canary)) || !bytes.Equal(img.Body, readAll(p))) {
		w.t.Errorf("the image of %s was served after another file took its place: %.80q", p, img.Body)
	}
}

func readAll(p string) []byte {
	b, _ := os.ReadFile(p)
	return b
}

func (w *world) watch(root string) {
	r := w.srv.Do("POST", "/api/watch/directory", map[string]any{"path": root})
	if r.Status != 200 {
		w.t.Fatalf("watch %s: %d %s", root, r.Status, r.Body)
	}
	id, _ := r.Field("data.job_id").(float64)
	w.jobs[root] = int64(id)
	w.did("watch %s", root)
}

func (w *world) toggleWatch() {
	w.counts["watch-toggle"]++
	root := w.roots[w.rnd.IntN(len(w.roots))]
	if id, ok := w.jobs[root]; ok {
		if r := w.srv.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", id), nil); r.Status != 200 {
			w.t.Fatalf("unwatch %s: %d %s", root, r.Status, r.Body)
		}
		delete(w.jobs, root)
		w.did("unwatch %s", root)
		return
	}
	w.watch(root)
}

func (w *world) changeSettings() {
	w.counts["settings"]++
	choices := []map[string]any{
		{"queue.cooldown_seconds": []float64{0, 0.05, 0.3}[w.rnd.IntN(3)]},
		{"queue.max_concurrency": 1 + w.rnd.IntN(4)},
		{"queue.max_retries": w.rnd.IntN(4)},
		{"extraction.timeout_seconds": []float64{1, 5, 30}[w.rnd.IntN(3)]},
		{"queue.max_concurrency": -5}, // refused
		{"queue.cooldown_seconds": "soon"},
	}
	c := choices[w.rnd.IntN(len(choices))]
	r := w.srv.Do("PUT", "/api/settings/", c)
	if r.Status >= 500 {
		w.t.Errorf("settings %v: %d %s", c, r.Status, r.Body)
	}
}

func (w *world) togglePause() {
	w.counts["pause-toggle"]++
	path := "/api/queue/pause"
	if w.paused {
		path = "/api/queue/resume"
	}
	if r := w.srv.Do("POST", path, nil); r.Status != 200 {
		w.t.Errorf("%s: %d %s", path, r.Status, r.Body)
	}
	w.paused = !w.paused
}

func (w *world) search() {
	w.counts["search"]++
	body := map[string]any{"query": w.words(1 + w.rnd.IntN(4)), "limit": 1 + w.rnd.IntN(200)}
	if w.rnd.IntN(4) == 0 {
		body["filters"] = map[string]any{"path": []string{"*.md", "**/sub/**", "file-1*", "[", "**/deep/*.txt"}[w.rnd.IntN(5)]}
	}
	r := w.srv.Do("POST", "/api/search/", body)
	w.checkAnswer("search", body, r.Status, r.Body)
}

// checkCanary searches for the word only the secret holds.
func (w *world) checkCanary() {
	w.counts["canary"]++
	r := w.srv.Do("POST", "/api/search/", map[string]any{"query": w.canary, "mode": "keyword"})
	if r.Status == 200 {
		if res, _ := r.Field("results").([]any); len(res) > 0 {
			path, _ := res[0].(map[string]any)["file"].(map[string]any)["file_path"].(string)
			what := "gone"
			if st, err := os.Lstat(path); err == nil {
				what = st.Mode().String()
			}
			w.t.Errorf("text from outside the watched folders is searchable (the path is now %s): %s\nwhat the test did there:\n%s", what, r.Body, w.historyOf(path))
		}
	}
}

// oddRequest sends requests a careless or hostile client might.
func (w *world) oddRequest() {
	w.counts["odd-request"]++
	reqs := []struct{ method, path, body string }{
		{"GET", "/api/files/999999", ""}, {"GET", "/api/files/-1", ""}, {"GET", "/api/files/abc", ""},
		{"POST", "/api/files/999999/open", ""}, {"DELETE", "/api/queue/items/nope", ""},
		{"GET", "/api/files/lookup?path=" + url.QueryEscape(w.secret), ""},
		{"GET", "/api/queue/items?limit=5", ""}, {"GET", "/api/watched-directories", ""},
		{"POST", "/api/search/", `{"query": "x", "min_score": 1e999}`},
		{"POST", "/api/search/", `{"query": "x", "limit": "many"}`},
		{"POST", "/api/search/", `{"query": ` + strconv.Quote(strings.Repeat("é", 600)) + `}`},
		{"POST", "/api/watch/directory", `{"path": "relative/path"}`},
		{"POST", "/api/watch/directory", `{"path": ` + strconv.Quote(w.secret) + `}`},
		{"PUT", "/api/filters/config", `{"mode": "nonsense"}`},
		{"GET", "/api/search/stream?query=" + url.QueryEscape(w.words(2)) + "&limit=3", ""},
		{"GET", "/api/status/", ""}, {"GET", "/api/files/stats", ""},
	}
	q := reqs[w.rnd.IntN(len(reqs))]
	var body any
	if q.body != "" {
		body = q.body
	}
	r := w.srv.Do(q.method, q.path, body)
	w.checkAnswer(q.method+" "+q.path, q.body, r.Status, r.Body)
}

// checkAnswer fails on any 5xx but the documented overload answers (a
// search over its time limit, a server at its connection cap), which must
// still carry an error code.
func (w *world) checkAnswer(what string, req any, status int, body []byte) {
	if msg := badAnswer(status, body); msg != "" {
		w.t.Errorf("%s %v: %s", what, req, msg)
	}
}

func badAnswer(status int, body []byte) string {
	if status < 500 {
		return ""
	}
	var shaped struct {
		Code  string `json:"code"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(body, &shaped)
	if (status == 503 || status == 504) && (shaped.Code != "" || shaped.Error.Code != "") {
		return ""
	}
	return fmt.Sprintf("answered %d: %s", status, body)
}

// hostileClient searches all the time with queries meant to hurt: long
// tokens, prefix storms, operators, huge limits, and hangs up on some.
func (w *world) hostileClient(ctx context.Context, seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, seed*31))
	client := &http.Client{Timeout: 30 * time.Second}
	storm := make([]string, 26)
	for i := range storm {
		storm[i] = string(rune('a'+i)) + "*"
	}
	queries := []string{
		strings.Join(storm, " "), strings.Repeat("a", 5000), strings.Repeat("zebra budget ", 700),
		`"unclosed`, `NEAR(a b, 0)`, `*`, `-`, `ext:`, `in:/`, `after:9999-99-99`, "\x00\x01", "😀 emoji 😀",
		`-"x" ext:txt in:/ after:2024 before:2020-02`, `roof OR "raised bed"`, `col:value`, `""""`, "r*", "budget",
	}
	for ctx.Err() == nil {
		q := queries[rnd.IntN(len(queries))]
		body, _ := json.Marshal(map[string]any{"query": q, "limit": []int{1, 50, 200, 500}[rnd.IntN(4)]})
		rctx, cancel := context.WithCancel(ctx)
		hangUp := rnd.IntN(3) == 0
		if hangUp {
			rctx, cancel = context.WithTimeout(ctx, time.Duration(1+rnd.IntN(30))*time.Millisecond)
		}
		req, _ := http.NewRequestWithContext(rctx, "POST", w.srv.URL+"/api/search/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err == nil {
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if msg := badAnswer(resp.StatusCode, raw); msg != "" && rctx.Err() == nil {
				w.report(fmt.Sprintf("hostile search %.60q: %s", q, msg))
			}
		} else if !hangUp && ctx.Err() == nil {
			w.report(fmt.Sprintf("hostile search %.60q: %v", q, err))
		}
		cancel()
		if rnd.IntN(10) == 0 {
			w.briefStream(ctx, client, rnd)
		}
	}
}

// briefStream opens /api/updates, reads a little and leaves.
func (w *world) briefStream(ctx context.Context, client *http.Client, rnd *rand.Rand) {
	sctx, cancel := context.WithTimeout(ctx, time.Duration(5+rnd.IntN(200))*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(sctx, "GET", w.srv.URL+"/api/updates", nil)
	resp, err := client.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		raw, _ := io.ReadAll(resp.Body)
		if msg := badAnswer(resp.StatusCode, raw); msg != "" {
			w.report("updates: " + msg)
		}
		return
	}
	sc := bufio.NewScanner(resp.Body)
	for i := 0; i < 3 && sc.Scan(); i++ {
	}
}

func (w *world) report(msg string) {
	select {
	case w.errs <- msg:
	default:
	}
}

// settle resumes indexing, then waits until the index equals the disk.
func (w *world) settle() {
	if w.paused {
		w.togglePause()
	}
	w.srv.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0, "queue.max_retries": 3})
	var last string
	deadline := time.Now().Add(90 * time.Second)
	for {
		if last = w.difference(); last == "" {
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the index did not converge to the disk within 90s: %s\nqueue: %s\nwhat the test did there:\n%s",
				last, w.srv.Get("/api/queue/items?limit=20").Body, w.historyOf(w.lastPath))
		}
		time.Sleep(100 * time.Millisecond) // polling interval: difference() decides
	}
	w.checkCanary()
	if r := w.srv.Get("/api/status/"); r.Status != 200 {
		w.t.Fatalf("status after the run: %d %s", r.Status, r.Body)
	}
}

// difference compares the index with the disk and says how they differ,
// or "" when they agree: every regular file in a watched folder is indexed
// with its content's hash; a named pipe there is failed or absent; links,
// and files of unwatched folders, are absent; nothing else is indexed.
func (w *world) difference() string {
	if q := w.srv.Get("/api/queue/status"); q.Field("total") != float64(0) {
		if items := w.srv.Get("/api/queue/items?limit=1"); items.Status == 200 {
			if list, _ := items.Field("items").([]any); len(list) > 0 {
				w.lastPath, _ = list[0].(map[string]any)["path"].(string)
			}
		}
		return fmt.Sprintf("queue not empty: %s", q.Body)
	}
	regular, pipes := map[string]bool{}, map[string]bool{}
	for root := range w.jobs {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
			case d.Type().IsRegular():
				regular[p] = true
			case d.Type()&fs.ModeNamedPipe != 0:
				pipes[p] = true
			}
			return nil
		})
	}
	indexed, err := w.indexedPaths()
	if err != nil {
		return err.Error()
	}
	for p, state := range indexed {
		w.lastPath = p
		switch {
		case pipes[p] && state == "indexed":
			return fmt.Sprintf("named pipe %s is indexed", p)
		case !regular[p] && !pipes[p]:
			return fmt.Sprintf("%s is in the index (%s) but not a file of a watched folder", p, state)
		}
	}
	for p := range regular {
		w.lastPath = p
		r := w.srv.Get("/api/files/lookup?path=" + url.QueryEscape(p))
		if isBoom(p) {
			// Its write panics: it is failed, or indexed when a record
			// was renamed to its name (a rename writes no content).
			if st := r.Field("status"); st != "failed" && st != "indexed" {
				return fmt.Sprintf("%s (its write panics): want failed, got %d %s", p, r.Status, r.Body)
			}
			continue
		}
		if hash := fileHash(p); r.Field("status") != "indexed" || r.Field("content_hash") != hash {
			return fmt.Sprintf("%s: want indexed with hash %s, got %d %s", p, hash, r.Status, r.Body)
		}
	}
	return ""
}

// indexedPaths reads every file record, with its state, from the index
// database (read-only, beside the running server).
func (w *world) indexedPaths() (map[string]string, error) {
	db, err := driver.Open("file:" + filepath.Join(w.srv.DataDir, "index.db") + "?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT path, state FROM files`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, state string
		if err := rows.Scan(&p, &state); err != nil {
			return nil, err
		}
		out[p] = state
	}
	return out, rows.Err()
}

func fileHash(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
