package daemon_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"trove/internal/testserver"
)

// process is a trove binary running in its own process, so it can be killed.
type process struct {
	cmd  *exec.Cmd
	addr string
}

func buildTrove(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "trove")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

var addrRE = regexp.MustCompile(`msg="trove started" addr=(\S+)`)

func startProcess(t *testing.T, bin, data, conf string) *serveProcess {
	t.Helper()
	return startServe(t, bin, data, conf, nil)
}

// client wraps the process's address in the test server's HTTP helpers.
func (p *process) client(t *testing.T) *testserver.Server {
	return &testserver.Server{URL: "http://" + p.addr, Client: testserver.NewClient()}
}

func TestKillDuringScanLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildTrove(t)
	root, data, conf := t.TempDir(), t.TempDir(), t.TempDir()
	const n = 5000
	for i := range n {
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("file-%04d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("document %d about topic %d with some words to index", i, i%97)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := startProcess(t, bin, data, conf)
	c := p.client(t)
	c.Bind(t)
	c.Do("PUT", "/api/settings/", map[string]any{"queue.max_concurrency": 1})
	if r := c.Do("POST", "/api/watch/directory", map[string]any{"path": root}); r.Status != 200 || r.Field("data.files_found") != float64(n) {
		t.Fatalf("watch: %d %s", r.Status, r.Body)
	}
	var atKill float64
	testserver.Eventually(t, 60*time.Second, "indexing to be under way", func() bool {
		f := c.Folder(root)
		atKill, _ = f["indexed_count"].(float64)
		return atKill >= 200
	})
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	if atKill >= n {
		t.Fatalf("indexing finished before the kill (%v files): the test proves nothing", atKill)
	}
	// While it is down: one file changes, one goes, one arrives.
	if err := os.WriteFile(filepath.Join(root, "d00", "file-0000.txt"), []byte("rewritten while trove was down"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "d01", "file-0001.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d02", "newcomer.txt"), []byte("arrived while trove was down"), 0o644); err != nil {
		t.Fatal(err)
	}

	p2 := startProcess(t, bin, data, conf)
	c2 := p2.client(t)
	c2.Bind(t)
	c2.Do("PUT", "/api/settings/", map[string]any{"queue.max_concurrency": 2})
	c2.WaitIdle(root, n)
	verify(t, c2, root, n)
}

// verify checks the index holds exactly the files on disk, each with the
// content hash of its bytes.
func verify(t *testing.T, c *testserver.Server, root string, want int) {
	t.Helper()
	onDisk := 0
	if err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		onDisk++
		f, _ := os.Open(path)
		h := sha256.New()
		io.Copy(h, f)
		f.Close()
		r := c.Get("/api/files/lookup?path=" + url.QueryEscape(path))
		if r.Status != 200 || r.Field("content_hash") != hex.EncodeToString(h.Sum(nil)) || r.Field("status") != "indexed" {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st := c.Get("/api/files/stats")
	if onDisk != want || st.Field("total_files") != float64(want) {
		t.Fatalf("on disk %d, indexed %v, want %d", onDisk, st.Field("total_files"), want)
	}
}
