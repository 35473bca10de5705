package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"trove/backend/core"
	"trove/backend/engine/events"
)

// fileLog is a logger writing to a file, and a way to read what it wrote:
// safe for the server's goroutines.
func fileLog(t *testing.T) (*slog.Logger, func() string) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return slog.New(slog.NewTextHandler(f, nil)), func() string { b, _ := os.ReadFile(f.Name()); return string(b) }
}

// A server without a service panics (nil pointer) in every handler that
// uses it: each panic must be that request's 500 in its endpoint's shape,
// logged with its stack, and the server must go on answering.
func TestHandlerPanicIsThatRequestsError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log, logged := fileLog(t)
	s := New(nil, ln, Options{Log: log})
	go s.app.Listener(s.ln)
	defer s.app.Shutdown()
	base := "http://" + ln.Addr().String()
	for _, tc := range []struct{ path, codeField string }{
		{"/api/status/", "error.code"},  // status family
		{"/api/files/stats", "code"},    // bare family (with Trove's code)
		{"/api/filters/config", "code"}, // success family
		{"/api/watched-directories", "error.code"},
	} {
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatalf("%s: %v (the server died?)", tc.path, err)
		}
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		code := body["code"]
		if tc.codeField == "error.code" {
			e, _ := body["error"].(map[string]any)
			code = e["code"]
		}
		if resp.StatusCode != 500 || code != "INTERNAL" {
			t.Errorf("%s: %d %v", tc.path, resp.StatusCode, body)
		}
		if strings.Contains(strings.ToLower(string(must(json.Marshal(body)))), "nil pointer") {
			t.Errorf("%s: the panic's detail reached the client: %v", tc.path, body)
		}
	}
	out := logged()
	if strings.Count(out, "panic in request handler") != 4 || !strings.Contains(out, "handlers_files.go") {
		t.Fatalf("panics not logged with their stacks:\n%s", out)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// panicky is event data whose encoding panics.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("encoder bug") }
func (panicky) EventKind() string            { return core.EventFileIndexed }

// A panic while an event stream is written happens on fasthttp's stream
// goroutine, after the handler returned: it must end that stream only,
// give its slot back and end its subscription, and be logged with its
// stack.
func TestStreamWriterPanicEndsOnlyThatStream(t *testing.T) {
	log, logged := fileLog(t)
	s := &Server{log: log, closing: make(chan struct{}), streams: make(chan struct{}, 1)}
	bus := events.New(nil)
	s.streams <- struct{}{} // the handler took the slot
	st := &stream{srv: s, beat: time.Hour, sub: bus.Subscribe(8, nil)}
	body := fasthttp.NewStreamReader(s.streamBody(st)) // the writer starts on fasthttp's goroutine
	bus.Publish(panicky{})
	out, _ := io.ReadAll(body) // ends when the writer returns
	if !strings.HasPrefix(string(out), "retry: 3000") {
		t.Fatalf("stream wrote %q", out)
	}
	if len(s.streams) != 0 || bus.Subscribers() != 0 {
		t.Fatalf("slot held: %d, subscriptions left: %d", len(s.streams), bus.Subscribers())
	}
	if l := logged(); !strings.Contains(l, "panic in event stream") || !strings.Contains(l, "encoder bug") || !strings.Contains(l, "updates.go") {
		t.Fatalf("log: %s", l)
	}
}
