package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"trove/backend/daemon"
)

// helperEnv makes the test binary, started again by a test, serve instead
// of testing: a server in a process of its own, whose limits the test may
// lower without touching its own.
const helperEnv = "TROVE_API_TEST_SERVE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		os.Exit(serveForTest(dir))
	}
	os.Exit(checkCoverage(m.Run()))
}

// serveForTest runs a Trove server with data below dir and at most
// TROVE_TEST_NOFILE open files, prints "ADDR host:port" and, once the
// server runs, holds all but TROVE_TEST_SPARE_FDS of the remaining
// descriptors, as a process busy with other work would. It serves until
// SIGTERM.
func serveForTest(dir string) int {
	var nofile, spare uint64
	fmt.Sscan(os.Getenv("TROVE_TEST_NOFILE"), &nofile)
	fmt.Sscan(os.Getenv("TROVE_TEST_SPARE_FDS"), &spare)
	if nofile > 0 {
		var lim unix.Rlimit
		unix.Getrlimit(unix.RLIMIT_NOFILE, &lim)
		lim.Cur = nofile
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			fmt.Fprintln(os.Stderr, "setrlimit:", err)
			return 1
		}
	}
	d, err := daemon.New(daemon.Config{Addr: "127.0.0.1:0", DataDir: filepath.Join(dir, "data"), ConfigDir: filepath.Join(dir, "config"),
		Version: "test", Log: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	if !answers(d.Addr()) {
		fmt.Fprintln(os.Stderr, "the server does not answer")
		return 1
	}
	if spare > 0 {
		n := holdDescriptors(int(spare))
		fmt.Fprintf(os.Stderr, "holding %d descriptors\n", n)
	}
	fmt.Printf("ADDR %s\n", d.Addr())
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "server ended:", err)
		return 1
	}
	return 0
}

// answers polls the server until it answers (or a while has passed).
func answers(addr string) bool {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	for range 200 {
		if r, err := c.Get("http://" + addr + "/api/status/"); err == nil {
			r.Body.Close()
			return r.StatusCode == 200
		}
		time.Sleep(25 * time.Millisecond) // polling, not synchronisation
	}
	return false
}

// holdDescriptors opens /dev/null until the process can open no more, then
// closes spare of them; it returns how many it keeps (for good).
func holdDescriptors(spare int) int {
	var held []*os.File
	for {
		f, err := os.Open(os.DevNull)
		if err != nil {
			break
		}
		held = append(held, f)
	}
	for _, f := range held[:min(spare, len(held))] {
		f.Close()
	}
	return len(held) - min(spare, len(held))
}
