package service_test

import (
	"net"
	"testing"
	"time"

	"trove/internal/testserver"
)

const settle = 30 * time.Second

func put(s *testserver.Server, patch map[string]any) testserver.Response {
	return s.Do("PUT", "/api/settings/", patch)
}

// fast makes watcher events ready at once, so tests wait on work, not time.
func fast(t *testing.T, s *testserver.Server) {
	t.Helper()
	if r := put(s, map[string]any{"queue.cooldown_seconds": 0}); r.Status != 200 {
		t.Fatalf("settings: %d %s", r.Status, r.Body)
	}
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}
