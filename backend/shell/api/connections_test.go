package api_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/shell/api"
	"trove/internal/testserver"
)

// Event streams are capped: one more than MaxUpdateClients is refused with
// a 503 in the endpoint's shape, and a client that leaves frees its slot at
// once (its hang-up is noticed without waiting for a heartbeat).
func TestUpdateStreamsAreCappedAndSlotsFreed(t *testing.T) {
	s := testserver.Start(t)
	var streams []*testserver.Stream
	for range api.MaxUpdateClients {
		st := s.Subscribe("heartbeat=60")
		streams = append(streams, st)
	}
	r := s.Get("/api/updates")
	if r.Status != 503 || r.Field("error.code") != "TOO_MANY_CLIENTS" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("stream %d: %d %s", api.MaxUpdateClients+1, r.Status, r.Body)
	}
	streams[0].Close()
	testserver.Eventually(t, 10*time.Second, "a slot to be freed", func() bool { return s.API.StreamsOpen() < api.MaxUpdateClients })
	extra := s.Subscribe("heartbeat=60")
	extra.WaitFor(t, "queue.status", 5*time.Second, nil)
	for _, st := range append(streams[1:], extra) {
		st.Close()
	}
	testserver.Eventually(t, 10*time.Second, "every slot to be freed", func() bool { return s.API.StreamsOpen() == 0 })
}

// lockedBuffer collects a child process's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serverProcess runs a Trove server in a child process (this test binary,
// see TestMain) with env added; it returns its address, its log, and a
// channel closed when it exits.
func serverProcess(t *testing.T, env ...string) (string, *lockedBuffer, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+t.TempDir()), env...)
	log := &lockedBuffer{}
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server log:\n%s", log.String())
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() {
		io.Copy(io.Discard, out)
		err := cmd.Wait()
		fmt.Fprintf(log, "process ended: %v\n", err)
		close(exited)
	}()
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	if err != nil || !ok {
		t.Fatalf("the server did not start: %q %v\n%s", line, err, log.String())
	}
	return addr, log, exited
}

// A server whose process runs out of file descriptors (here: it may open
// 256, and other work holds all but 16) keeps running: accepts that fail
// with "too many open files" are retried with a pause, and once the
// connections close it answers again.
func TestServerOutlivesRunningOutOfDescriptors(t *testing.T) {
	addr, log, exited := serverProcess(t, "TROVE_TEST_NOFILE=256", "TROVE_TEST_SPARE_FDS=16")
	var conns []net.Conn
	for range 300 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	testserver.Eventually(t, 30*time.Second, "an accept to fail for want of descriptors", func() bool {
		return strings.Contains(log.String(), "too many open files")
	})
	for _, c := range conns {
		c.Close()
	}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	testserver.Eventually(t, 30*time.Second, "the server to answer again", func() bool {
		select {
		case <-exited:
			t.Fatal("the server ended")
		default:
		}
		r, err := client.Get("http://" + addr + "/api/status/")
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == 200
	})
}
