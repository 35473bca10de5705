package main

import (
	"context"
	"io"
	"net/http"
	"testing"

	"trove/backend/daemon"
	"trove/internal/testserver"
)

// The origins of the desktop window's pages.
var windowOrigins = []string{"wails://wails", "http://wails.localhost", "wails://wails.localhost"}

// The server admits no page of the desktop window's origins, in either
// build: every Wails app's pages have them, and the window itself calls
// the API in process.
func TestServeAdmitsNoWindowOrigin(t *testing.T) {
	cfg := testConfig(t)
	for _, o := range windowOrigins {
		if status := originStatus(t, cfg, o); status != http.StatusForbidden {
			t.Errorf("serve, origin %s: %d, want 403", o, status)
		}
	}
}

// testConfig is serve's configuration on a free port and directories of
// the test's own.
func testConfig(t *testing.T) daemon.Config {
	t.Helper()
	cfg, err := serverConfig("serve", []string{"--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--config-dir", t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// originStatus starts a backend with cfg, asks it for its status from a
// page of origin and returns the HTTP status of the answer.
func originStatus(t *testing.T, cfg daemon.Config, origin string) int {
	t.Helper()
	d, err := daemon.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("backend stopped with %v", err)
		}
	}()
	s := &testserver.Server{URL: "http://" + d.Addr(), Client: testserver.NewClient()}
	s.Bind(t)
	return s.Do("GET", "/api/status/", nil, "Origin", origin).Status
}
