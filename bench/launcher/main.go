// Command launcher measures desktop search as GNOME Shell and KRunner see
// it: the real `trove serve` on a private session bus, answering
// org.gnome.Shell.SearchProvider2 and org.kde.krunner1 over D-Bus, on a
// corpus of real files:
//
//	go run ./bench/launcher [-files 20000] [-corpus DIR] [-reps 10] [-work DIR]
//
// A launcher calls on every keystroke and waits, so what counts is one
// keystroke's round trip: GNOME's GetInitialResultSet and then
// GetResultMetas of the ids it shows (5), and KRunner's Match. The
// baseline, timed alternately with them in the same run (this machine's
// speed drifts from minute to minute), is the window's search: POST
// /api/search/ (hybrid, limit 50, snippets). Queries are what people
// type there: names of files of the corpus, whole, without extension, or
// their first letters, and the natural-language queries of
// shared/bench/queries.txt. It reports p50, p95 and max, their ratios to
// the baseline, and how often the file a name query was taken from is
// among the provider's results (hit@8).
//
// The corpus is built once: regular files of at most 512 KB copied from
// /usr/local/go and /usr/share/doc, in name order, until -files.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"

	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

const (
	busName     = "dev.trove.Trove.Search"
	gnomePath   = "/dev/trove/Trove/SearchProvider"
	krunnerPath = "/dev/trove/Trove/KRunner"
)

func main() {
	files := flag.Int("files", 20000, "corpus size")
	corpusDir := flag.String("corpus", "", "the corpus folder (default /var/tmp/trove-launcher-corpus-FILES, built if missing)")
	reps := flag.Int("reps", 10, "timed repetitions of each query")
	keep := flag.String("work", "", "folder for Trove's index, kept and used again (default: a temporary one)")
	flag.Parse()
	corpus := *corpusDir
	if corpus == "" {
		corpus = fmt.Sprintf("/var/tmp/trove-launcher-corpus-%d", *files)
	}
	names := buildCorpus(corpus, *files, "/usr/local/go", "/usr/share/doc")
	log.Printf("corpus: %d files in %s", len(names), corpus)

	bus, stopBus := startBus()
	defer stopBus()
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", bus) // the server offers desktop search there
	tmp, err := os.MkdirTemp("", "trove-launcher-")
	harness.Check(err)
	defer os.RemoveAll(tmp)
	work := *keep
	if work == "" {
		work = tmp
	}
	bin, err := troveproc.Build(tmp)
	harness.Check(err)
	srv, err := troveproc.Start(bin, work)
	harness.Check(err)
	defer srv.Stop()
	start := time.Now()
	harness.Check(srv.Indexed(corpus, 3*time.Hour))
	harness.Check(srv.Checked(10 * time.Minute))
	log.Printf("indexed in %s", time.Since(start).Round(time.Second))

	conn, err := dbus.Connect(bus)
	harness.Check(err)
	defer conn.Close()
	queries := nameQueries(names, 30)
	for _, q := range readLines(filepath.Join(ir.SharedDir(), "bench", "queries.txt")) {
		queries = append(queries, query{text: q})
	}
	log.Printf("timing %d queries x %d reps", len(queries), *reps)
	measure(conn, srv.Base, queries, *reps)
}

// query is one thing typed, and the file it names, if it was taken from
// one.
type query struct {
	text, want string
}

// nameQueries takes n files spread over the corpus and types their names
// three ways: whole, without the extension, and the first five letters.
func nameQueries(names []string, n int) []query {
	var out []query
	for i := 0; i < n && len(names) > 0; i++ {
		path := names[(i*len(names))/n]
		base := filepath.Base(path)
		stem := strings.TrimSuffix(base, filepath.Ext(base))
		out = append(out, query{base, path}, query{stem, path})
		if len([]rune(stem)) > 5 {
			out = append(out, query{string([]rune(stem)[:5]), ""})
		}
	}
	return out
}

type timings struct{ gnome, krunner, window, gnomeNamed, gnomeWords []time.Duration }

func measure(conn *dbus.Conn, base string, queries []query, reps int) {
	var t timings
	hits, named := 0, 0
	for r := range reps {
		for i, q := range queries {
			runs := []func(){
				func() {
					ids, d := gnomeKeystroke(conn, q.text)
					t.gnome = append(t.gnome, d)
					if q.want != "" {
						t.gnomeNamed = append(t.gnomeNamed, d)
					} else if !strings.ContainsAny(q.text, "._") {
						t.gnomeWords = append(t.gnomeWords, d)
					}
					if r == 0 && q.want != "" {
						named++
						if found(conn, ids, q.want) {
							hits++
						}
					}
				},
				func() { t.krunner = append(t.krunner, krunnerMatch(conn, q.text)) },
				func() { t.window = append(t.window, windowSearch(base, q.text)) },
			}
			// Alternate the order, so no side always runs on a warm cache.
			for k := range runs {
				runs[(k+i+r)%len(runs)]()
			}
		}
	}
	fmt.Printf("desktop search latency, %d queries x %d reps, through D-Bus to `trove serve`\n", len(queries), reps)
	fmt.Printf("%-44s %8s %8s %8s   %s\n", "", "p50", "p95", "max", "p50 / p95 against the window's search")
	row := func(name string, xs []time.Duration) {
		ratio := ""
		if name != "window search (HTTP, hybrid, limit 50)" {
			ratio = fmt.Sprintf("%.2f / %.2f", ratioOf(xs, t.window, 50), ratioOf(xs, t.window, 95))
		}
		fmt.Printf("%-44s %8s %8s %8s   %s\n", name, ms(harness.Percentile(xs, 50)), ms(harness.Percentile(xs, 95)), ms(harness.Percentile(xs, 100)), ratio)
	}
	row("GNOME: GetInitialResultSet + GetResultMetas", t.gnome)
	row("  of which whole names", t.gnomeNamed)
	row("  of which words and name prefixes", t.gnomeWords)
	row("KRunner: Match", t.krunner)
	row("window search (HTTP, hybrid, limit 50)", t.window)
	fmt.Printf("name queries whose file is among the provider's results: %d of %d\n", hits, named)
}

func ratioOf(a, b []time.Duration, p float64) float64 {
	return float64(harness.Percentile(a, p)) / float64(harness.Percentile(b, p))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// gnomeKeystroke is what the shell does on a keystroke: the result set,
// then the metas of the ids it will show.
func gnomeKeystroke(conn *dbus.Conn, text string) ([]string, time.Duration) {
	obj := conn.Object(busName, gnomePath)
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	start := time.Now()
	var ids []string
	harness.Check(obj.CallWithContext(ctx, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", 0, strings.Fields(text)).Store(&ids))
	var metas []map[string]dbus.Variant
	harness.Check(obj.CallWithContext(ctx, "org.gnome.Shell.SearchProvider2.GetResultMetas", 0, ids[:min(5, len(ids))]).Store(&metas))
	return ids, time.Since(start)
}

// found reports whether the file at want is among ids.
func found(conn *dbus.Conn, ids []string, want string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var metas []map[string]dbus.Variant
	harness.Check(conn.Object(busName, gnomePath).CallWithContext(ctx, "org.gnome.Shell.SearchProvider2.GetResultMetas", 0, ids).Store(&metas))
	for _, m := range metas {
		if p, _ := m["clipboardText"].Value().(string); p == want {
			return true
		}
	}
	return false
}

func krunnerMatch(conn *dbus.Conn, text string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	start := time.Now()
	call := conn.Object(busName, krunnerPath).CallWithContext(ctx, "org.kde.krunner1.Match", 0, text)
	harness.Check(call.Err)
	return time.Since(start)
}

var client = &http.Client{Timeout: time.Minute}

// callTimeout bounds one D-Bus call: a launcher gives up far sooner.
const callTimeout = 30 * time.Second

func windowSearch(base, text string) time.Duration {
	body, _ := json.Marshal(map[string]any{"query": text, "limit": 50})
	start := time.Now()
	resp, err := client.Post(base+"/api/search/", "application/json", bytes.NewReader(body))
	harness.Check(err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("search %q: %s", text, resp.Status)
	}
	return time.Since(start)
}

// buildCorpus copies up to n regular files of at most 512 KB from the
// source folders into dir, unless dir holds them already, and returns
// their paths in dir.
func buildCorpus(dir string, n int, sources ...string) []string {
	var out []string
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && d.Name() != ".complete" {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	harness.Check(os.RemoveAll(dir))
	for _, src := range sources {
		filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= n {
				return filepath.SkipDir
			}
			info, ierr := d.Info()
			if ierr != nil || !d.Type().IsRegular() || info.Size() > 512<<10 {
				return nil
			}
			rel, _ := filepath.Rel("/", p)
			dst := filepath.Join(dir, rel)
			harness.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
			b, rerr := os.ReadFile(p)
			if rerr != nil {
				return nil
			}
			harness.Check(os.WriteFile(dst, b, 0o644))
			out = append(out, dst)
			return nil
		})
	}
	harness.Check(os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644))
	return out
}

// startBus starts a private session bus that lists no services.
func startBus() (string, func()) {
	dir, err := os.MkdirTemp("", "trove-bus-")
	harness.Check(err)
	conf := filepath.Join(dir, "bus.conf")
	harness.Check(os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=`+dir+`</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
`), 0o600))
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	harness.Check(err)
	harness.Check(cmd.Start())
	addr, err := bufio.NewReader(out).ReadString('\n')
	harness.Check(err)
	return strings.TrimSpace(addr), func() { cmd.Process.Kill(); cmd.Wait(); os.RemoveAll(dir) }
}

func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Printf("no %s: name queries only", path)
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
