package daemon_test

import (
	"bufio"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"trove/internal/poll"

	"trove/internal/hangfs"
	"trove/internal/testserver"
)

// stopWithin is how long SIGTERM may take, whatever a worker is doing.
const stopWithin = 5 * time.Second

// TestSIGTERMStopsWithAWorkerStuck runs the real binary with a worker held
// by each of the reads that used to hold one for good, sends SIGTERM, and
// wants the process gone within stopWithin.
//
//   - A FIFO swapped in after the type check: the file lives on a FUSE
//     mount (hangfs) that holds the pipeline's stat of it, turns the name
//     into a FIFO, then answers the stat as the regular file it was. The
//     open that follows meets a real FIFO.
//   - A read on a dead mount: a FUSE file whose reads never answer, with
//     the per-file time limit at its maximum, so the worker is inside the
//     read when SIGTERM comes.
//   - A stat on a dead mount: the FUSE mount holds the pipeline's stat for
//     good; only the queue's grace period ends the wait for that worker.
//   - /proc/kmsg: bind-mounted into the watched folder in a private mount
//     namespace of the server's own (unshare -m), so the server reaches
//     the real procfs file through an ordinary watched folder, as it would
//     any file of a watched tree; nothing outside that process sees the
//     mount, and it goes with the process.
func TestSIGTERMStopsWithAWorkerStuck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildTrove(t)

	t.Run("FIFO swapped in after the type check", func(t *testing.T) {
		h := hangfs.Mount(t)
		file := h.Add("notes.txt", []byte("meeting notes"))
		p := startServe(t, bin, "", "", nil)
		c := p.client(t)
		c.Do("PUT", "/api/settings/", map[string]any{"extraction.timeout_seconds": 3600})
		c.Do("POST", "/api/queue/pause", nil)
		watch(t, c, h.Dir, 1)
		file.HoldNextLookup()
		c.Do("POST", "/api/queue/resume", nil)
		select {
		case <-file.Held(): // the pipeline's type check is waiting for its answer
		case <-time.After(30 * time.Second):
			t.Fatal("the pipeline never looked at the file")
		}
		file.BecomeFIFO()
		file.Unhold() // answered as the regular file it was
		path := filepath.Join(h.Dir, "notes.txt")
		// A fixed build fails the file at the open; a broken one blocks in it.
		settled := poll.Until(30*time.Second, func() bool {
			return c.Get("/api/files/lookup?path="+url.QueryEscape(path)).Field("status") == "failed"
		})
		p.stop(t)
		if !settled {
			t.Fatal("the file swapped for a FIFO was never failed")
		}
	})

	t.Run("read on a dead mount", func(t *testing.T) {
		h := hangfs.Mount(t)
		file := h.AddHanging("report.pdf", 64<<10)
		p := startServe(t, bin, "", "", nil)
		c := p.client(t)
		c.Do("PUT", "/api/settings/", map[string]any{"extraction.timeout_seconds": 3600})
		watch(t, c, h.Dir, 1)
		select {
		case <-file.Reads(): // a worker is inside the read, for up to an hour
		case <-time.After(30 * time.Second):
			t.Fatal("no worker reached the file")
		}
		p.stop(t)
	})

	// A stat that never returns cannot be cancelled from Go at all: the
	// queue gives its worker the grace period, then Trove stops anyway.
	t.Run("stat on a dead mount", func(t *testing.T) {
		h := hangfs.Mount(t)
		file := h.Add("notes.txt", []byte("meeting notes"))
		p := startServe(t, bin, "", "", nil)
		c := p.client(t)
		c.Do("POST", "/api/queue/pause", nil)
		watch(t, c, h.Dir, 1)
		file.HoldNextLookup()
		c.Do("POST", "/api/queue/resume", nil)
		select {
		case <-file.Held(): // a worker is inside stat, for good
		case <-time.After(30 * time.Second):
			t.Fatal("the pipeline never looked at the file")
		}
		p.stop(t)
	})

	t.Run("/proc/kmsg", func(t *testing.T) {
		if f, err := os.Open("/proc/kmsg"); err != nil {
			t.Skipf("/proc/kmsg is not readable here (%v): the test needs root on Linux", err)
		} else {
			f.Close()
		}
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("unshare (util-linux) is not installed")
		}
		dir := t.TempDir()
		kmsg := filepath.Join(dir, "kmsg")
		if err := os.WriteFile(kmsg, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		wrap := []string{"unshare", "-m", "--propagation", "private", "sh", "-c",
			`mount --bind /proc/kmsg "$1" && shift && exec "$@"`, "sh", kmsg}
		if out, err := exec.Command(wrap[0], append(wrap[1:], "true")...).CombinedOutput(); err != nil {
			t.Skipf("cannot bind-mount /proc/kmsg in a private mount namespace here: %v %s", err, out)
		}
		p := startServe(t, bin, "", "", wrap)
		c := p.client(t)
		c.Do("PUT", "/api/settings/", map[string]any{"extraction.timeout_seconds": 3600})
		watch(t, c, dir, 1)
		// A broken build stays in the read for good; give it time to get there.
		settled := poll.Until(10*time.Second, func() bool {
			return c.Get("/api/files/lookup?path="+url.QueryEscape(kmsg)).Field("status") == "indexed"
		})
		p.stop(t)
		if !settled {
			t.Fatal("/proc/kmsg was never indexed (a worker is still reading it)")
		}
	})
}

// serveProcess is a trove serve process the test can signal.
type serveProcess struct {
	*process
	exited chan struct{}
}

// startServe starts `trove serve` on the given directories (fresh ones
// when ""), behind wrap (a command prefix) when given.
func startServe(t *testing.T, bin, data, conf string, wrap []string) *serveProcess {
	t.Helper()
	if data == "" {
		data, conf = t.TempDir(), t.TempDir()
	}
	args := append(append([]string(nil), wrap...), bin, "serve", "--addr", "127.0.0.1:0",
		"--data-dir", data, "--config-dir", conf)
	cmd := exec.Command(args[0], args[1:]...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{process: &process{cmd: cmd}, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case p.addr = <-addr:
		return p
	case <-p.exited:
		t.Fatal("trove exited at start")
	case <-time.After(30 * time.Second):
		t.Fatal("trove did not start")
	}
	return nil
}

func (p *serveProcess) client(t *testing.T) *testserver.Server {
	c := p.process.client(t)
	c.Bind(t)
	return c
}

// stop sends SIGTERM and fails the test unless the process is gone within
// stopWithin; it reports how long it took.
func (p *serveProcess) stop(t *testing.T) {
	t.Helper()
	begin := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
		t.Logf("stopped %s after SIGTERM", time.Since(begin).Round(time.Millisecond))
		if code := p.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit code %d after SIGTERM", code)
		}
	case <-time.After(stopWithin):
		t.Fatalf("still running %s after SIGTERM", stopWithin)
	}
}

// watch adds a folder and waits until its scan found want files.
func watch(t *testing.T, c *testserver.Server, dir string, want int) {
	t.Helper()
	r := c.Do("POST", "/api/watch/directory", map[string]any{"path": dir})
	if r.Status != 200 || r.Field("data.files_found") != float64(want) {
		t.Fatalf("watch %s: %d %s", dir, r.Status, r.Body)
	}
}
