package enrich

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/core"
)

// syncBuffer collects log output from concurrent goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// stub is a local model server. reply decides each answer; by default the
// content below. It records what it saw.
type stub struct {
	mu       sync.Mutex
	requests []map[string]any
	auth     []string
	inFlight int
	maxIn    int
	release  chan struct{} // blocking handlers wait on it (or the client)
	arrived  chan struct{} // one send per request, if set
	mode     string        // "good", "malformed", "block", "500", "partial", "reject-json"
	content  string
}

const goodAnswer = "```json\n{\"title\": \"Harbour Street site meeting\", \"summary\": \"Notes from a site meeting about a roof leak, kitchen cabinets and the budget. The roofer will replace the flashing.\", \"keywords\": [\"roof leak\", \"Flashing\", \"insurance claim\", \"kitchen\", \"budget\", \"roofs\"]}\n```"

func newStub(t *testing.T, mode string) *stub {
	s := &stub{mode: mode, release: make(chan struct{}), content: goodAnswer}
	t.Cleanup(func() { close(s.release) })
	return s
}

// seen returns copies of the recorded requests and Authorization headers,
// and the most requests that were in flight at once.
func (s *stub) seen() ([]map[string]any, []string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests), slices.Clone(s.auth), s.maxIn
}

// enter records a request and returns the content to send, or "" after
// the handler has written an error itself.
func (s *stub) enter(w http.ResponseWriter, r *http.Request) (string, bool) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.inFlight++
	s.maxIn = max(s.maxIn, s.inFlight)
	mode := s.mode
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if s.arrived != nil {
		s.arrived <- struct{}{}
	}
	switch mode {
	case "block":
		select {
		case <-r.Context().Done():
		case <-s.release:
		}
		return "", false
	case "500":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":"llama runner process has terminated"}`)
		return "", false
	case "malformed":
		return `Sure! Here is the card: {"title": "Roof", "summary": "unterminated`, true
	case "partial":
		return `{"title": 42, "summary": ["Site meeting about the roof leak.", "The kitchen is on budget."], "keywords": "roof leak, kitchen"}`, true
	case "reject-json":
		if _, ok := req["response_format"]; ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"'response_format.type' must be 'json_schema' or 'text'","type":"invalid_request_error"}}`)
			return "", false
		}
	}
	return s.content, true
}

// ollamaServer speaks Ollama's chat API as langchaingo calls it: POST
// /api/chat without "stream" (so Ollama streams), answered with
// newline-delimited JSON chunks and a final done message.
func (s *stub) ollamaServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
			http.NotFound(w, r)
			return
		}
		content, ok := s.enter(w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		// Stream the content in three pieces, as Ollama does token by token.
		third := len(content) / 3
		for _, part := range []string{content[:third], content[third : 2*third], content[2*third:]} {
			enc.Encode(map[string]any{"model": "llama3.2", "created_at": "2024-03-01T10:00:00Z",
				"message": map[string]any{"role": "assistant", "content": part}, "done": false})
		}
		enc.Encode(map[string]any{"model": "llama3.2", "created_at": "2024-03-01T10:00:01Z",
			"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
			"total_duration": 1200000000, "prompt_eval_count": 900, "eval_count": 80})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// openaiServer speaks the OpenAI chat completions API.
func (s *stub) openaiServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		content, ok := s.enter(w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1709287200, "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 900, "completion_tokens": 80, "total_tokens": 980},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

type protocol struct {
	name   string
	server func(*stub, *testing.T) *httptest.Server
	base   func(*httptest.Server) string
}

var providers = []protocol{
	{core.ProviderOllama, (*stub).ollamaServer, func(s *httptest.Server) string { return s.URL }},
	{core.ProviderOpenAI, (*stub).openaiServer, func(s *httptest.Server) string { return s.URL + "/v1" }},
}

func meetingInput(t testing.TB) Input {
	return Input{Path: "/home/p/docs/meeting_notes_2024-03-01.md", Filename: "meeting_notes_2024-03-01.md",
		Text: readTestdata(t, "meeting_notes_2024-03-01.md"), Mime: "text/markdown"}
}

func newTestLLM(t *testing.T, p protocol, srv *httptest.Server, stats Stats, log *syncBuffer, mod func(*core.SummarizerSettings)) *LLM {
	cfg := core.SummarizerSettings{Provider: p.name, BaseURL: p.base(srv), TimeoutSeconds: 5, MaxConcurrency: 1}
	if mod != nil {
		mod(&cfg)
	}
	var h slog.Handler = slog.DiscardHandler
	if log != nil {
		h = slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})
	}
	e := New(cfg, stats, func(string) string { return "" }, slog.New(h))
	l, ok := e.(*LLM)
	if !ok {
		t.Fatalf("New gave %T", e)
	}
	return l
}

func TestLLMGoodAnswer(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "good")
			e := newTestLLM(t, p, p.server(s, t), nil, nil, nil)
			c, err := e.Enrich(context.Background(), meetingInput(t))
			if err != nil {
				t.Fatal(err)
			}
			want := Card{
				Title:    "Harbour Street site meeting",
				Summary:  "Notes from a site meeting about a roof leak, kitchen cabinets and the budget. The roofer will replace the flashing.",
				Keywords: []string{"roof leak", "flashing", "insurance claim", "kitchen", "budget", "roofs"},
				By:       p.name + ":" + map[string]string{"ollama": DefaultOllamaModel, "openai": DefaultOpenAIModel}[p.name],
			}
			if c.Title != want.Title || c.Summary != want.Summary || !slices.Equal(c.Keywords, want.Keywords) || c.By != want.By {
				t.Errorf("card %+v\nwant %+v", c, want)
			}
			if e.Name() != want.By {
				t.Errorf("Name() = %q", e.Name())
			}
			// The request: JSON mode, a system and a user message with the
			// file name and the text.
			requests, auth, _ := s.seen()
			if len(requests) != 1 {
				t.Fatalf("%d requests", len(requests))
			}
			req := requests[0]
			switch p.name {
			case core.ProviderOllama:
				if req["format"] != "json" || req["model"] != DefaultOllamaModel {
					t.Errorf("request %v", req)
				}
			case core.ProviderOpenAI:
				if rf, _ := req["response_format"].(map[string]any); rf["type"] != "json_object" || req["model"] != DefaultOpenAIModel {
					t.Errorf("request %v", req)
				}
			}
			msgs, _ := req["messages"].([]any)
			if len(msgs) != 2 {
				t.Fatalf("messages %v", req["messages"])
			}
			user, _ := msgs[1].(map[string]any)
			content, _ := user["content"].(string)
			if !strings.Contains(content, "meeting_notes_2024-03-01.md") || !strings.Contains(content, "cracked slates") {
				t.Errorf("user message %q", content)
			}
			if auth[0] != "" {
				t.Errorf("Authorization %q sent without a key", auth[0])
			}
		})
	}
}

// Every failure gives the builtin card, logged with the path and reason.
func TestLLMFailuresFallBackToBuiltin(t *testing.T) {
	stats := newMemStats(readTestdata(t, "README.md"))
	builtin, err := NewBuiltin(stats).Enrich(context.Background(), meetingInput(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range providers {
		for _, mode := range []string{"malformed", "block", "500"} {
			t.Run(p.name+"/"+mode, func(t *testing.T) {
				s := newStub(t, mode)
				var log syncBuffer
				e := newTestLLM(t, p, p.server(s, t), stats, &log, func(c *core.SummarizerSettings) {
					c.TimeoutSeconds = 0.3 // the blocking stub waits for the client to give up
				})
				c, err := e.Enrich(context.Background(), meetingInput(t))
				if err != nil {
					t.Fatal(err)
				}
				if c.Title != builtin.Title || c.Summary != builtin.Summary || !slices.Equal(c.Keywords, builtin.Keywords) {
					t.Errorf("card %+v\nwant the builtin %+v", c, builtin)
				}
				if c.By != BuiltinName {
					t.Errorf("By = %q", c.By)
				}
				out := log.String()
				if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "meeting_notes_2024-03-01.md") || !strings.Contains(out, "reason=") {
					t.Errorf("log %q", out)
				}
				if mode == "block" && !strings.Contains(out, "no answer in time") {
					t.Errorf("timeout not named in the log: %q", out)
				}
			})
		}
	}
}

func TestLLMConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // nothing listens there now
	for _, p := range providers {
		var log syncBuffer
		e := New(core.SummarizerSettings{Provider: p.name, BaseURL: base, TimeoutSeconds: 5}, nil, nil,
			slog.New(slog.NewTextHandler(&log, nil)))
		c, err := e.Enrich(context.Background(), meetingInput(t))
		if err != nil || c.By != BuiltinName || c.Summary == "" {
			t.Errorf("%s: card %+v, err %v", p.name, c, err)
		}
		if !strings.Contains(log.String(), "level=WARN") {
			t.Errorf("%s: not logged", p.name)
		}
	}
}

func TestLLMPartialAnswerIsCompleted(t *testing.T) {
	builtin, _ := NewBuiltin(nil).Enrich(context.Background(), meetingInput(t))
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "partial")
			e := newTestLLM(t, p, p.server(s, t), nil, nil, nil)
			c, err := e.Enrich(context.Background(), meetingInput(t))
			if err != nil {
				t.Fatal(err)
			}
			if c.Title != builtin.Title {
				t.Errorf("title %q, want the builtin's %q", c.Title, builtin.Title)
			}
			if c.Summary != "Site meeting about the roof leak. The kitchen is on budget." {
				t.Errorf("summary %q", c.Summary)
			}
			if len(c.Keywords) != 5 || c.Keywords[0] != "roof leak" || c.Keywords[1] != "kitchen" {
				t.Errorf("keywords %q", c.Keywords)
			}
			checkCard(t, c)
			if c.By != e.Name() {
				t.Errorf("By = %q", c.By)
			}
		})
	}
}

func TestLLMAPIKeyReachesServer(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "good")
			srv := p.server(s, t)
			env := map[string]string{"TROVE_TEST_KEY": "sk-local-123"}
			e := New(core.SummarizerSettings{Provider: p.name, Model: "qwen2.5:3b", BaseURL: p.base(srv), APIKeyEnv: "TROVE_TEST_KEY"},
				nil, func(k string) string { return env[k] }, nil)
			if _, err := e.Enrich(context.Background(), meetingInput(t)); err != nil {
				t.Fatal(err)
			}
			requests, auth, _ := s.seen()
			if len(auth) != 1 || auth[0] != "Bearer sk-local-123" {
				t.Errorf("Authorization %q", auth)
			}
			if requests[0]["model"] != "qwen2.5:3b" || e.Name() != p.name+":qwen2.5:3b" {
				t.Errorf("model %v, name %q", requests[0]["model"], e.Name())
			}
		})
	}
}

// At most MaxConcurrency requests are in flight; the others wait.
func TestLLMConcurrencyLimit(t *testing.T) {
	const limit, calls = 2, 6
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "block")
			s.arrived = make(chan struct{}, calls)
			e := newTestLLM(t, p, p.server(s, t), nil, nil, func(c *core.SummarizerSettings) {
				c.MaxConcurrency = limit
				c.TimeoutSeconds = 60
			})
			waiting := make(chan struct{}, calls)
			e.onWait = func() { waiting <- struct{}{} }
			var wg sync.WaitGroup
			for range calls {
				wg.Go(func() {
					if _, err := e.Enrich(context.Background(), meetingInput(t)); err != nil {
						t.Error(err)
					}
				})
			}
			// Two requests reach the server and four calls wait for a slot.
			arrived, waited := 0, 0
			guard := time.After(30 * time.Second)
			for arrived < limit || waited < calls-limit {
				select {
				case <-s.arrived:
					arrived++
					if arrived > limit {
						t.Fatalf("%d requests in flight, limit %d", arrived, limit)
					}
				case <-waiting:
					waited++
				case <-guard:
					t.Fatalf("stuck: %d arrived, %d waiting", arrived, waited)
				}
			}
			// Let them all finish one by one (blocked handlers answer
			// nothing: each call falls back once released).
			s.mu.Lock()
			s.mode = "good"
			s.mu.Unlock()
			for range limit {
				s.release <- struct{}{}
			}
			for range calls - limit {
				<-s.arrived
			}
			wg.Wait()
			requests, _, maxIn := s.seen()
			if maxIn > limit {
				t.Errorf("%d requests were in flight at once", maxIn)
			}
			if len(requests) != calls {
				t.Errorf("%d requests", len(requests))
			}
		})
	}
}

func TestLLMCallerCancellation(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "block")
			s.arrived = make(chan struct{}, 1)
			e := newTestLLM(t, p, p.server(s, t), nil, nil, func(c *core.SummarizerSettings) { c.TimeoutSeconds = 60 })
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := e.Enrich(ctx, meetingInput(t))
				done <- err
			}()
			<-s.arrived
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			// Waiting for a slot also honours ctx.
			e.sem <- struct{}{}
			ctx2, cancel2 := context.WithCancel(context.Background())
			e.onWait = cancel2
			if _, err := e.Enrich(ctx2, meetingInput(t)); !errors.Is(err, context.Canceled) {
				t.Errorf("waiting: err = %v", err)
			}
			<-e.sem
		})
	}
}

func TestLLMEmptyTextSkipsTheModel(t *testing.T) {
	for _, p := range providers {
		s := newStub(t, "good")
		e := newTestLLM(t, p, p.server(s, t), nil, nil, nil)
		c, err := e.Enrich(context.Background(), Input{Path: "/p/IMG_2041.jpg", Filename: "IMG_2041.jpg", Mime: "image/jpeg"})
		if err != nil || c.Title != "IMG 2041" || c.Summary != "" || c.By != e.Name() {
			t.Errorf("%s: card %+v, err %v", p.name, c, err)
		}
		if requests, _, _ := s.seen(); len(requests) != 0 {
			t.Errorf("%s: %d requests for a file without text", p.name, len(requests))
		}
	}
}

// A server that refuses JSON mode (as some OpenAI-compatible ones do) is
// asked again without it, and not asked with it any more.
func TestOpenAIServerWithoutJSONMode(t *testing.T) {
	p := providers[1]
	s := newStub(t, "reject-json")
	e := newTestLLM(t, p, p.server(s, t), nil, nil, nil)
	for range 2 {
		c, err := e.Enrich(context.Background(), meetingInput(t))
		if err != nil || c.Title != "Harbour Street site meeting" {
			t.Fatalf("card %+v, err %v", c, err)
		}
	}
	requests, _, _ := s.seen()
	if len(requests) != 3 {
		t.Fatalf("%d requests, want 3 (one refused, two plain)", len(requests))
	}
	for i, req := range requests {
		if _, ok := req["response_format"]; ok != (i == 0) {
			t.Errorf("request %d response_format present = %v", i, ok)
		}
	}
}

func TestNewChoosesProvider(t *testing.T) {
	var log syncBuffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	for _, tc := range []struct {
		cfg  core.SummarizerSettings
		name string
		warn bool
	}{
		{core.SummarizerSettings{Provider: "builtin"}, BuiltinName, false},
		{core.SummarizerSettings{}, BuiltinName, false},
		{core.SummarizerSettings{Provider: "ollama"}, "ollama:llama3.2", false},
		{core.SummarizerSettings{Provider: "openai"}, "openai:gpt-4o-mini", false},
		{core.SummarizerSettings{Provider: "openai", Model: "llama-3.1-8b", BaseURL: "http://127.0.0.1:8080/v1"}, "openai:llama-3.1-8b", false},
		{core.SummarizerSettings{Provider: "claude"}, BuiltinName, true},
		{core.SummarizerSettings{Provider: "ollama", BaseURL: "localhost:11434"}, BuiltinName, true},
		{core.SummarizerSettings{Provider: "ollama", BaseURL: "http://[::1"}, BuiltinName, true},
	} {
		before := len(log.String())
		if got := New(tc.cfg, nil, nil, logger).Name(); got != tc.name {
			t.Errorf("%+v: Name() = %q, want %q", tc.cfg, got, tc.name)
		}
		if warned := strings.Contains(log.String()[before:], "level=WARN"); warned != tc.warn {
			t.Errorf("%+v: warned = %v", tc.cfg, warned)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Card
		err  bool
	}{
		{`{"title":"A Roof","summary":"About a roof.","keywords":["roof","leak"]}`, Card{Title: "A Roof", Summary: "About a roof.", Keywords: []string{"roof", "leak"}}, false},
		{"Here you go:\n```json\n{\"Title\": \"A Roof\", \"Keywords\": \"Roof, leaks; Leak\"}\n```\nHope this helps!", Card{Title: "A Roof", Keywords: []string{"roof", "leaks"}}, false},
		{`<think>The user wants {json}.</think>{"card": {"summary": "Nested."}}`, Card{Summary: "Nested."}, false},
		{`{"title": null, "summary": 3, "keywords": [1, 2]} {"title": "Second object"}`, Card{Title: "Second object"}, false},
		{`{"title": "Untitled", "summary": "  lots   of\n space  "}`, Card{Summary: "lots of space"}, false},
		{`I cannot help with that.`, Card{}, true},
		{`{"title": "Roof", "summary": "unterminated`, Card{}, true},
		{`{"answer": 42}`, Card{}, true},
		{``, Card{}, true},
	} {
		got, err := parseAnswer(tc.in)
		if (err != nil) != tc.err || got.Title != tc.want.Title || got.Summary != tc.want.Summary || !slices.Equal(got.Keywords, tc.want.Keywords) {
			t.Errorf("parseAnswer(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	// Lengths are clamped.
	long := fmt.Sprintf(`{"title": %q, "summary": %q, "keywords": [%s]}`, strings.Repeat("Word ", 60),
		strings.Repeat("This sentence is about the roof. ", 30), strings.Repeat(`"a keyword",`, 3)+`"x1","roof","roofing","leak","gutter","slate","tile","chimney","attic","beam","joist"`)
	got, err := parseAnswer(long)
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(got.Title)); n > maxTitleRunes {
		t.Errorf("title %d runes", n)
	}
	if n := len([]rune(got.Summary)); n >= 400 || !strings.HasSuffix(got.Summary, ".") {
		t.Errorf("summary %d runes: %q", n, got.Summary)
	}
	if len(got.Keywords) != 10 || slices.Contains(got.Keywords, "roofing") && slices.Contains(got.Keywords, "roof") {
		t.Errorf("keywords %q", got.Keywords)
	}
}

// After three calls in a row without an answer the model is left alone
// for a while; then it is tried again.
func TestLLMPausesAfterRepeatedFailures(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "500")
			var log syncBuffer
			e := newTestLLM(t, p, p.server(s, t), nil, &log, nil)
			var mu sync.Mutex
			now := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
			e.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			for range breakerFailures + 2 {
				c, err := e.Enrich(context.Background(), meetingInput(t))
				if err != nil || c.By != BuiltinName {
					t.Fatalf("card %+v, err %v", c, err)
				}
			}
			if requests, _, _ := s.seen(); len(requests) != breakerFailures {
				t.Fatalf("%d requests, want %d before the pause", len(requests), breakerFailures)
			}
			if !strings.Contains(log.String(), "next try at 10:00:30") {
				t.Errorf("pause not logged: %q", log.String())
			}
			mu.Lock()
			now = now.Add(breakerPause + time.Second)
			mu.Unlock()
			s.mu.Lock()
			s.mode = "good"
			s.mu.Unlock()
			c, err := e.Enrich(context.Background(), meetingInput(t))
			if err != nil || c.By != e.Name() {
				t.Fatalf("after the pause: card %+v, err %v", c, err)
			}
			if requests, _, _ := s.seen(); len(requests) != breakerFailures+1 {
				t.Errorf("%d requests", len(requests))
			}
		})
	}
}
