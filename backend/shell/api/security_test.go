package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"trove/internal/testserver"
)

func TestUnknownRouteIsJSON404(t *testing.T) {
	s := testserver.Start(t)
	for _, p := range []string{"/api/nope", "/api/files/1/more"} {
		r := s.Get(p)
		if r.Status != 404 || (r.Field("error.code") != "NOT_FOUND" && r.Field("error") == nil) {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
	// Paths outside /api belong to the web UI, which routes itself.
	if r := s.Get("/nothing/here"); r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("/nothing/here: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	// Inside a route family the family's error shape holds.
	if r := s.Get("/api/files"); r.Status != 404 || r.Field("error") == nil {
		t.Errorf("/api/files: %d %s", r.Status, r.Body)
	}
}

func TestTrailingSlashVariantsWork(t *testing.T) {
	s := testserver.Start(t)
	for _, p := range []string{"/api/settings/", "/api/settings", "/api/status/", "/api/status"} {
		if r := s.Get(p); r.Status != 200 {
			t.Errorf("%s: %d", p, r.Status)
		}
	}
}

func TestHostHeaderMustBeLoopback(t *testing.T) {
	s := testserver.Start(t)
	for host, want := range map[string]int{"evil.example": 403, "127.0.0.1.nip.io": 403, "localhost:1234": 200, "127.0.0.1": 200, "[::1]:80": 200} {
		if r := s.Do("GET", "/api/status/", nil, "Host", host); r.Status != want {
			t.Errorf("Host %q: %d, want %d", host, r.Status, want)
		}
	}
}

func TestCORS(t *testing.T) {
	s := testserver.Start(t)
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	own := "http://127.0.0.1:" + port
	r := s.Do("GET", "/api/status/", nil, "Origin", own)
	if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != own {
		t.Fatalf("own origin: %d %v", r.Status, r.Header)
	}
	r = s.Do("OPTIONS", "/api/settings/", nil, "Origin", own, "Access-Control-Request-Method", "PUT")
	if r.Status != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Methods"), "PUT") {
		t.Fatalf("preflight: %d %v", r.Status, r.Header)
	}
	for _, o := range []string{"http://evil.example", "null", "http://127.0.0.1:1"} {
		r := s.Do("POST", "/api/filters/apply", nil, "Origin", o)
		if r.Status != 403 || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("origin %q: %d", o, r.Status)
		}
	}
}

// The desktop window's pages have origins of their own, which every Wails
// app's pages share: over the network they are refused like any other
// site's (the window calls in process, see window_test.go).
func TestWindowOriginsAreRefusedOverTheNetwork(t *testing.T) {
	s := testserver.Start(t)
	for _, o := range []string{"wails://wails", "http://wails.localhost", "wails://wails.localhost"} {
		for _, r := range []testserver.Response{s.Do("GET", "/api/status/", nil, "Origin", o), s.Do("POST", "/api/queue/pause", nil, "Origin", o)} {
			if r.Status != 403 || r.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("origin %s: %d %s", o, r.Status, r.Body)
			}
		}
	}
	if r := s.Get("/api/queue/status"); r.Field("paused") != false {
		t.Errorf("a refused origin paused the queue: %s", r.Body)
	}
}

func TestMutationsWithBodyMustBeJSON(t *testing.T) {
	s := testserver.Start(t)
	r := s.Do("PUT", "/api/settings/", `{"queue.max_retries": 1}`, "Content-Type", "text/plain")
	if r.Status != 415 {
		t.Fatalf("text/plain body: %d", r.Status)
	}
	if r := s.Do("PUT", "/api/settings/", `{"queue.max_retries": 1}`, "Content-Type", "application/json; charset=utf-8"); r.Status != 200 {
		t.Fatalf("json with charset: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/api/filters/apply", nil); r.Status != 200 {
		t.Fatalf("bodiless POST: %d", r.Status)
	}
}

// An oversized body is refused from its announced length, before it is
// read; the test speaks HTTP by hand so the client never races the reply.
func TestBodyLimit(t *testing.T) {
	s := testserver.Start(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "PUT /api/settings/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !strings.Contains(string(body), "BODY_TOO_LARGE") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if r := s.Get("/api/status/"); r.Status != 200 {
		t.Fatal("server unhealthy after an oversized body")
	}
}

func TestToken(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("s3cret"))
	s.Token = ""
	if r := s.Get("/api/status/"); r.Status != 401 || r.Field("error.code") != "UNAUTHORIZED" {
		t.Fatalf("no token: %d %s", r.Status, r.Body)
	}
	if r := s.Do("GET", "/api/status/", nil, "Authorization", "Bearer wrong"); r.Status != 401 {
		t.Fatalf("wrong token: %d", r.Status)
	}
	if r := s.Do("GET", "/api/status/", nil, "Authorization", "Bearer s3cret"); r.Status != 200 {
		t.Fatalf("right token: %d", r.Status)
	}
	if r := s.Get("/api/status/?token=s3cret"); r.Status != 200 {
		t.Fatalf("query token: %d", r.Status)
	}
}
