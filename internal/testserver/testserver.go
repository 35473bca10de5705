// Package testserver runs a real Trove backend for tests: a temporary data
// and config directory, a random loopback port, real HTTP.
package testserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"trove/internal/poll"

	"go.uber.org/goleak"

	"trove/backend/daemon"
	"trove/backend/engine/extract"
	"trove/backend/engine/pipeline"
	"trove/backend/service"
	"trove/backend/shell/api"
)

// Server is a running backend and an HTTP client for it.
type Server struct {
	t         testing.TB
	URL       string
	DataDir   string
	ConfigDir string
	Token     string
	// LogPath is the server's log file.
	LogPath string
	Client  *http.Client
	// Service is the backend's facade, for tests of the desktop bindings.
	Service *service.Service
	// API is the HTTP server, for tests that walk its routes.
	API *api.Server

	cancel        context.CancelFunc
	done          chan error
	extract       pipeline.ExtractFunc
	ocr           *extract.OCRProbe
	maxWatches    int
	mountCheck    time.Duration
	networkRescan time.Duration
	providerRetry time.Duration
	searchTimeout time.Duration
	searchHook    func(context.Context, service.SearchRequest)
	writeHook     func(path string)
	leaksSeen     bool // leaks are expected (reads stuck on a hung mount)
	ui            fs.FS
	sessionBus    string
}

// Option adjusts a server before it starts.
type Option func(*Server)

// WithDirs reuses data and config directories (to test restarts).
func WithDirs(data, config string) Option {
	return func(s *Server) { s.DataDir, s.ConfigDir = data, config }
}

// WithExtract replaces file extraction, to inject faults.
func WithExtract(fn pipeline.ExtractFunc) Option { return func(s *Server) { s.extract = fn } }

// WithoutTesseract makes the backend find no tesseract, as on a machine
// without tesseract-ocr.
func WithoutTesseract() Option {
	return withOCR(&extract.OCRProbe{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }})
}

func withOCR(p *extract.OCRProbe) Option { return func(s *Server) { s.ocr = p } }

// WithMaxWatches caps the live watches, to reach the watch limit cheaply.
func WithMaxWatches(n int) Option { return func(s *Server) { s.maxWatches = n } }

// WithMountCheck checks folders on drives and shares for being there this
// often, so that a test sees an unmount soon.
func WithMountCheck(d time.Duration) Option { return func(s *Server) { s.mountCheck = d } }

// WithNetworkRescan rescans folders on shares and FUSE mounts this often.
func WithNetworkRescan(d time.Duration) Option { return func(s *Server) { s.networkRescan = d } }

// WithProviderRetry sets how often an embedding provider that stopped
// answering is tried again.
func WithProviderRetry(d time.Duration) Option { return func(s *Server) { s.providerRetry = d } }

// WithSearchTimeout sets the time limit of each search.
func WithSearchTimeout(d time.Duration) Option { return func(s *Server) { s.searchTimeout = d } }

// WithSearchHook calls hook as each search starts, with its context.
func WithSearchHook(hook func(context.Context, service.SearchRequest)) Option {
	return func(s *Server) { s.searchHook = hook }
}

// WithWriteHook calls hook inside the index's transaction as each file is
// written, to inject faults (a panic, say) where SQLite would raise them.
func WithWriteHook(hook func(path string)) Option { return func(s *Server) { s.writeHook = hook } }

// WithStuckReads says the test leaves reads stuck in the kernel (a hung
// mount): their goroutines outlive the backend by design (fileread), so
// Stop does not look for leaks.
func WithStuckReads() Option { return func(s *Server) { s.leaksSeen = true } }

// WithUI serves ui as the built web interface at /.
func WithUI(ui fs.FS) Option { return func(s *Server) { s.ui = ui } }

// WithSessionBus offers desktop search on the D-Bus at addr (a private
// bus: see internal/desktoptest).
func WithSessionBus(addr string) Option { return func(s *Server) { s.sessionBus = addr } }

// WithToken requires a bearer token.
func WithToken(tok string) Option { return func(s *Server) { s.Token = tok } }

// Start runs a backend until the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	root := t.TempDir()
	s := &Server{t: t, DataDir: filepath.Join(root, "data"), ConfigDir: filepath.Join(root, "config"),
		Client: &http.Client{Timeout: 30 * time.Second}}
	for _, o := range opts {
		o(s)
	}
	s.LogPath = filepath.Join(root, "trove.log")
	logFile, err := os.Create(s.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	backends.started(s.leaksSeen)
	d, err := daemon.New(daemon.Config{
		Addr: "127.0.0.1:0", DataDir: s.DataDir, ConfigDir: s.ConfigDir, Token: s.Token, Version: "test",
		Log:     slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Extract: s.extract, OCR: s.ocr, MaxWatches: s.maxWatches, MountCheck: s.mountCheck, NetworkRescan: s.networkRescan, ProviderRetry: s.providerRetry,
		SearchTimeout: s.searchTimeout, SearchHook: s.searchHook, WriteHook: s.writeHook, UI: s.ui,
		SessionBus: s.sessionBus,
	})
	if err != nil {
		backends.stopped(t, s.Client) // what a failed start leaves must be gone too
		t.Fatal(err)
	}
	s.URL = "http://" + d.Addr()
	s.Service = d.Service()
	s.API = d.API()
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan error, 1)
	go func() { s.done <- d.Run(ctx) }()
	t.Cleanup(func() {
		s.Stop()
		logFile.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logFile.Name()); err == nil {
				t.Logf("server log:\n%s", b)
			}
		}
	})
	return s
}

// Stop shuts the backend down and waits for it; calling it twice is fine.
func (s *Server) Stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Errorf("server stopped with error: %v", err)
		}
		backends.stopped(s.t, s.Client)
	case <-time.After(30 * time.Second):
		s.t.Errorf("server did not stop within 30s%s", s.goroutines())
	}
}

// Restart stops the backend and starts a new one on the same directories.
func (s *Server) Restart() *Server {
	s.Stop()
	return Start(s.t, WithDirs(s.DataDir, s.ConfigDir), WithToken(s.Token), WithExtract(s.extract), withOCR(s.ocr), WithProviderRetry(s.providerRetry))
}

// Anonymous is s without its token: requests go out without credentials.
func Anonymous(s *Server) *Server {
	cp := *s
	cp.Token = ""
	return &cp
}

// NewClient is the HTTP client tests use.
func NewClient() *http.Client { return &http.Client{Timeout: 30 * time.Second} }

// Bind attaches a Server made by hand (for a backend in another process) to
// a test, so its helpers can report failures.
func (s *Server) Bind(t testing.TB) { s.t = t }

// Response is a decoded reply.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Do sends a request. A string body is sent as-is; any other non-nil body is
// encoded as JSON. Content-Type is application/json whenever there is a body
// unless headers say otherwise. headers are pairs: name, value, ...
func (s *Server) Do(method, path string, body any, headers ...string) Response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Host") {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v%s", method, path, err, s.goroutines())
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	s.checkAnswer(method, req.URL.RequestURI(), resp, raw)
	return responseOf(resp, raw)
}

// responseOf is an answer with its JSON object decoded, if it is one.
func responseOf(resp *http.Response, raw []byte) Response {
	r := Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.JSON); err != nil {
			// Arrays and scalars are fine; callers use Body then.
			r.JSON = nil
		}
	}
	return r
}

// Get is Do("GET", path, nil).
func (s *Server) Get(path string) Response { s.t.Helper(); return s.Do(http.MethodGet, path, nil) }

// Eventually fails the test when cond does not hold within within (see
// poll.Eventually, the one polling helper).
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	poll.Eventually(t, within, what, cond)
}

// Field digs a dotted path ("error.code", "config.version") out of the
// decoded JSON; it returns nil when any step is missing.
func (r Response) Field(path string) any {
	var cur any = r.JSON
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// Strings converts a decoded JSON array of strings.
func Strings(v any) []string {
	arr, _ := v.([]any)
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// goroutines dumps every goroutine's stack when the backend runs in this
// process, to show what a request or a stop that never ends waits for.
func (s *Server) goroutines() string {
	if s.done == nil {
		return ""
	}
	buf := make([]byte, 4<<20)
	return "; goroutines:\n" + string(buf[:runtime.Stack(buf, true)])
}

// backends counts the test servers running in this process. When the
// last one stops, no goroutine of theirs may still run: every goroutine is
// owned by something that waits for it. Goroutines that ran before the
// first of them started are not theirs; nor are connections of the
// tests' own HTTP clients; fasthttp's worker-pool cleaner notices its
// server stopped only when a sleep of up to 10 s ends, and then returns;
// its clock for the Date header runs once per process.
var backends liveBackends

type liveBackends struct {
	mu      sync.Mutex
	live    int
	before  goleak.Option // the goroutines before the first started
	unowned bool          // one of them left reads stuck in the kernel
}

// started counts a server in; stuckReads: its test leaves reads stuck in
// the kernel on purpose, whose goroutines outlive it (fileread).
func (b *liveBackends) started(stuckReads bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live == 0 {
		b.before, b.unowned = goleak.IgnoreCurrent(), false
	}
	b.live++
	b.unowned = b.unowned || stuckReads
}

// stopped counts a server out and, when it was the last, fails t if
// goroutines of the servers still run.
func (b *liveBackends) stopped(t testing.TB, client *http.Client) {
	b.mu.Lock()
	b.live--
	last, unowned, before := b.live == 0, b.unowned, b.before
	b.mu.Unlock()
	if !last || unowned {
		return
	}
	client.CloseIdleConnections()
	extract.SettleOCR() // the process's probe, not the server's
	err := goleak.Find(before,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("trove/internal/testserver.(*Stream).read"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.updateServerDate.func1"))
	if err != nil {
		t.Errorf("goroutines of the backend still run after it stopped: %v", err)
	}
}
