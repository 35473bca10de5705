package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"trove/backend/service"
	"trove/internal/testserver"
)

// sendSearch writes a search request on a new connection and returns the
// connection, unread.
func sendSearch(t *testing.T, s *testserver.Server, query string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": query})
	fmt.Fprintf(c, "POST /api/search/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return c
}

// A search whose client hangs up is cancelled at once, not left to run to
// its time limit; meanwhile other searches are answered. The hook holds
// every storm (a query with a "*") until its context ends, as a storm too
// long to finish would run: only the hang-up can end it before its limit.
func TestHungUpStormsAreCancelledAndSearchesGoOn(t *testing.T) {
	held := make(chan struct{}, 32)
	s := testserver.Start(t, testserver.WithSearchHook(func(ctx context.Context, req service.SearchRequest) {
		if strings.Contains(req.Query, "*") {
			held <- struct{}{}
			<-ctx.Done()
		}
	}))
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.txt", "The roof leaks above the bedroom.")
	s.IndexDir(root, 1)
	const storms = 20
	var conns []net.Conn
	for range storms {
		conns = append(conns, sendSearch(t, s, "ab* ac* ad* ae* af* ag* ah* ai*"))
		select {
		case <-held:
		case <-time.After(10 * time.Second):
			t.Fatal("the storm did not start")
		}
	}
	for _, c := range conns {
		c.Close()
	}
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "roof leak"}); r.Status != 200 || r.Field("total") != float64(1) {
		t.Fatalf("an ordinary search beside the storms: %d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, 10*time.Second, "the storms of the clients that left to be cancelled", func() bool {
		running, timedOut, cancelled := s.Service.SearchCounts()
		if timedOut > 0 {
			t.Fatalf("%d storms ran to their time limit", timedOut)
		}
		return running == 0 && cancelled == storms
	})
}

// A storm that outlasts the search time limit ends with a 503
// SEARCH_TIMEOUT in the endpoint's shape (the limit here is a microsecond,
// so every search reaches it).
func TestSearchEndsAtItsTimeLimit(t *testing.T) {
	s := testserver.Start(t, testserver.WithSearchTimeout(time.Microsecond))
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "abacus abbey abbot acorn adder", "b.txt", "aether affix agate ahead aisle")
	s.IndexDir(root, 2)
	for _, r := range []testserver.Response{
		s.Do("POST", "/api/search/", map[string]any{"query": "ab* ac* ad* ae* af* ag* ah* ai*"}),
		s.Get("/api/search/stream?query=ab*+ac*+ad*"),
	} {
		if r.Status != 503 || r.Field("error.code") != "SEARCH_TIMEOUT" || !strings.Contains(fmt.Sprint(r.Field("error.message")), "longer than") {
			t.Errorf("%d %s", r.Status, r.Body)
		}
	}
	if running, timedOut, _ := s.Service.SearchCounts(); running != 0 || timedOut != 2 {
		t.Fatalf("%d running, %d timed out", running, timedOut)
	}
}

// The hang-up watcher only peeks: a connection that carries several
// searches, one after another or pipelined in one write, answers them all.
func TestWatchedConnectionsStayUsable(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.txt", "The roof leaks above the bedroom.")
	s.IndexDir(root, 1)
	c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	request := func(q string) string {
		body, _ := json.Marshal(map[string]any{"query": q})
		return fmt.Sprintf("POST /api/search/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	read := func(what string) {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), "roof.txt") {
			t.Fatalf("%s: %d %s", what, resp.StatusCode, b)
		}
	}
	for i := range 3 {
		fmt.Fprint(c, request("roof"))
		read(fmt.Sprintf("search %d in a row", i+1))
	}
	fmt.Fprint(c, request("roof")+request("leak")+request("bedroom"))
	for i := range 3 {
		read(fmt.Sprintf("pipelined search %d", i+1))
	}
	// And a stream endpoint search after them, on the same connection.
	fmt.Fprint(c, "GET /api/search/stream?query=roof HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	read("stream search")
}
