package daemon_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A second Trove on the same data directory would corrupt the first one's
// work (both write the index and the queue): it must refuse to start, say
// who holds the directory, and exit with an error.
func TestSecondServerOnTheSameDataDirRefusesToStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildTrove(t)
	data, conf := t.TempDir(), t.TempDir()
	first := startProcess(t, bin, data, conf)

	second := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--config-dir", t.TempDir())
	var stderr bytes.Buffer
	second.Stderr = &stderr
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("the second server exited with status 0:\n%s", stderr.String())
		}
	case <-time.After(30 * time.Second):
		second.Process.Kill()
		<-done
		t.Fatalf("the second server is running beside the first:\n%s", stderr.String())
	}
	want := fmt.Sprintf("Trove is already running (pid %d, http://%s) with this data directory", first.cmd.Process.Pid, first.addr)
	if !strings.Contains(stderr.String(), want) {
		t.Fatalf("the second server must say who holds the data directory: want %q in\n%s", want, stderr.String())
	}
	// The first one is unharmed.
	c := first.client(t)
	if r := c.Get("/api/status/"); r.Status != 200 {
		t.Fatalf("first server after the refused start: %d %s", r.Status, r.Body)
	}
	// Once the first has stopped, the directory is free again.
	first.cmd.Process.Kill()
	<-first.exited
	third := startProcess(t, bin, data, conf)
	c3 := third.client(t)
	if r := c3.Get("/api/status/"); r.Status != 200 {
		t.Fatalf("a server after the holder stopped: %d %s", r.Status, r.Body)
	}
}
