package embedding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/core"
)

// stub is a local server that speaks one provider's embedding protocol.
type stub struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	requests int
	inputs   [][]string // per request
	models   []string
	auth     []string

	// answer makes the response to one request; nil means good vectors.
	answer func(w http.ResponseWriter, r *http.Request, inputs []string) bool
	dim    int
}

// vectorFor is a deterministic, not normalised vector for a text.
func vectorFor(text string, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(len(text)%7+1) + float32(i)
	}
	return v
}

func unitOf(v []float32) []float32 {
	out := append([]float32(nil), v...)
	unitize(out)
	return out
}

func newStub(t *testing.T, path string, respond func(inputs []string, vecs [][]float32) any) *stub {
	s := &stub{t: t, dim: 4}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string          `json:"model"`
			Input json.RawMessage `json:"input"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":"bad request body"}`, http.StatusBadRequest)
			return
		}
		var inputs []string
		if json.Unmarshal(req.Input, &inputs) != nil {
			var one string
			if json.Unmarshal(req.Input, &one) != nil {
				http.Error(w, `{"error":"input must be a string or a list"}`, http.StatusBadRequest)
				return
			}
			inputs = []string{one}
		}
		s.mu.Lock()
		s.requests++
		s.inputs = append(s.inputs, inputs)
		s.models = append(s.models, req.Model)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		answer, dim := s.answer, s.dim
		s.mu.Unlock()
		if answer != nil && answer(w, r, inputs) {
			return
		}
		vecs := make([][]float32, len(inputs))
		for i, in := range inputs {
			vecs[i] = vectorFor(in, dim)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(respond(inputs, vecs))
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *stub) setAnswer(f func(w http.ResponseWriter, r *http.Request, inputs []string) bool) {
	s.mu.Lock()
	s.answer = f
	s.mu.Unlock()
}

func (s *stub) setDim(d int) {
	s.mu.Lock()
	s.dim = d
	s.mu.Unlock()
}

func (s *stub) snapshot() (int, [][]string, []string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, append([][]string(nil), s.inputs...), append([]string(nil), s.models...), append([]string(nil), s.auth...)
}

// Ollama's POST /api/embed answers {"embeddings": [[...], ...]}.
func ollamaStub(t *testing.T) *stub {
	return newStub(t, "/api/embed", func(_ []string, vecs [][]float32) any {
		return map[string]any{"model": "m", "embeddings": vecs}
	})
}

// OpenAI's POST /v1/embeddings answers {"data": [{"embedding", "index"}]}.
func openAIStub(t *testing.T) *stub {
	return newStub(t, "/v1/embeddings", func(_ []string, vecs [][]float32) any {
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "embedding": v, "index": i}
		}
		return map[string]any{"object": "list", "data": data, "model": "m", "usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
	})
}

type protocol struct {
	name string
	stub func(*testing.T) *stub
	make func(s *stub) (*Remote, error)
}

var providers = []protocol{
	{"ollama", ollamaStub, func(s *stub) (*Remote, error) { return NewOllama("nomic-embed-text", s.srv.URL, nil) }},
	{"openai", openAIStub, func(s *stub) (*Remote, error) {
		return NewOpenAI("text-embedding-3-small", s.srv.URL+"/v1", "sk-test", nil)
	}},
}

func TestRemoteGoodAnswer(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, err := p.make(s)
			if err != nil {
				t.Fatal(err)
			}
			texts := []string{"first text", "", "the second, longer text", "  "}
			got, err := r.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(texts) {
				t.Fatalf("%d vectors for %d texts", len(got), len(texts))
			}
			for i, text := range texts {
				if strings.TrimSpace(text) == "" {
					if len(got[i]) != 4 || norm(got[i]) != 0 {
						t.Errorf("blank text %d: %v, want 4 zeros", i, got[i])
					}
					continue
				}
				want := unitOf(vectorFor(text, 4))
				for j := range want {
					if math.Abs(float64(got[i][j]-want[j])) > 1e-6 {
						t.Fatalf("text %d: %v, want %v (normalised)", i, got[i], want)
					}
				}
			}
			if r.Dim() != 4 {
				t.Errorf("Dim after a call = %d, want the server's 4", r.Dim())
			}
			_, inputs, models, _ := s.snapshot()
			var sent []string
			for _, in := range inputs {
				sent = append(sent, in...)
			}
			slices.Sort(sent) // Ollama's requests may arrive in any order
			if strings.Join(sent, "|") != "first text|the second, longer text" {
				t.Errorf("server received %q; blank texts must not be sent", sent)
			}
			for _, m := range models {
				if m != r.model {
					t.Errorf("server received model %q, want %q", m, r.model)
				}
			}
		})
	}
}

func TestRemoteBatches(t *testing.T) {
	s := openAIStub(t)
	r, err := NewOpenAI("", s.srv.URL+"/v1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 2*BatchSize+5)
	for i := range texts {
		texts[i] = fmt.Sprintf("text number %d%s", i, strings.Repeat("x", i%5))
	}
	got, err := r.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	n, inputs, _, _ := s.snapshot()
	if n != 3 || len(inputs[0]) != BatchSize || len(inputs[2]) != 5 {
		t.Fatalf("%d requests of sizes %d..., want 3 (64, 64, 5)", n, len(inputs[0]))
	}
	for i, text := range texts {
		if want := unitOf(vectorFor(text, 4)); math.Abs(float64(got[i][0]-want[0])) > 1e-6 {
			t.Fatalf("vector %d is out of order", i)
		}
	}
}

func TestRemoteServerError(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, _ := p.make(s)
			s.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []string) bool {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				if p.name == "openai" {
					io.WriteString(w, `{"error":{"message":"the model is overloaded","type":"server_error"}}`)
				} else {
					io.WriteString(w, `{"error":"llama runner process has terminated"}`)
				}
				return true
			})
			_, err := r.Embed(context.Background(), []string{"hello"})
			if err == nil {
				t.Fatal("no error for a 500")
			}
			msg := err.Error()
			wantMsg := map[string]string{"openai": "the model is overloaded", "ollama": "llama runner process has terminated"}[p.name]
			if !strings.Contains(msg, "HTTP 500") || !strings.Contains(msg, wantMsg) || !strings.Contains(msg, p.name) {
				t.Errorf("error %q should name the provider, the status and the server's message", msg)
			}
		})
	}
}

func TestRemoteClientErrorPlainText(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, _ := p.make(s)
			s.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []string) bool {
				http.Error(w, "model not found: try pulling it first", http.StatusNotFound)
				return true
			})
			_, err := r.Embed(context.Background(), []string{"hello"})
			if err == nil || !strings.Contains(err.Error(), "HTTP 404") || !strings.Contains(err.Error(), "try pulling it first") {
				t.Errorf("error %v should carry the status and the plain-text message", err)
			}
		})
	}
}

func TestRemoteMalformedBody(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, _ := p.make(s)
			s.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []string) bool {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"embeddings": [[0.1, 0.2,`)
				return true
			})
			_, err := r.Embed(context.Background(), []string{"hello"})
			if err == nil || !strings.Contains(err.Error(), "malformed") {
				t.Errorf("error %v should say the answer is malformed", err)
			}
		})
	}
}

func TestRemoteWrongShape(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, _ := p.make(s)
			if _, err := r.Embed(context.Background(), []string{"hello"}); err != nil {
				t.Fatal(err)
			}
			s.setDim(5)
			_, err := r.Embed(context.Background(), []string{"hello again"})
			if err == nil || !strings.Contains(err.Error(), "5 dimensions, expected 4") {
				t.Errorf("a change of dimension gave %v", err)
			}
			s.setDim(4)
			s.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []string) bool {
				w.Header().Set("Content-Type", "application/json")
				if p.name == "openai" {
					io.WriteString(w, `{"data":[{"embedding":[0,0,0,0],"index":0}]}`)
				} else {
					io.WriteString(w, `{"embeddings":[[0,0,0,0]]}`)
				}
				return true
			})
			if _, err := r.Embed(context.Background(), []string{"zero"}); err == nil || !strings.Contains(err.Error(), "zero or non-finite") {
				t.Errorf("a zero vector gave %v", err)
			}
		})
	}
	// Fewer vectors than texts.
	s := openAIStub(t)
	r, _ := NewOpenAI("m", s.srv.URL+"/v1", "", nil)
	s.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []string) bool {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[{"embedding":[1,0,0,0],"index":0}]}`)
		return true
	})
	if _, err := r.Embed(context.Background(), []string{"one", "two"}); err == nil {
		t.Error("one vector for two texts was accepted")
	}
}

func TestRemoteTimeout(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := p.stub(t)
			r, _ := p.make(s)
			release := make(chan struct{})
			arrived := make(chan struct{}, 1)
			s.setAnswer(func(w http.ResponseWriter, req *http.Request, _ []string) bool {
				arrived <- struct{}{}
				select {
				case <-release:
				case <-req.Context().Done():
				}
				return true
			})
			defer close(release)

			// The caller's deadline.
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_, err := r.Embed(ctx, []string{"slow"})
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer in time") {
				t.Errorf("caller's deadline gave %v", err)
			}
			select {
			case <-arrived:
			default:
				t.Error("the request never reached the server")
			}

			// The embedder's own bound, with no deadline from the caller.
			r.Timeout = 100 * time.Millisecond
			start := time.Now()
			_, err = r.Embed(context.Background(), []string{"slow again"})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Timeout gave %v", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Embed took %v", d)
			}
		})
	}
}

func TestRemoteServerDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	for _, p := range []func() (*Remote, error){
		func() (*Remote, error) { return NewOllama("", url, nil) },
		func() (*Remote, error) { return NewOpenAI("", url+"/v1", "", nil) },
	} {
		r, err := p()
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Embed(context.Background(), []string{"hello"})
		if err == nil || !strings.Contains(err.Error(), "not reachable") || !strings.Contains(err.Error(), url) {
			t.Errorf("server down gave %v", err)
		}
	}
}

func TestNewChoosesProvider(t *testing.T) {
	env := map[string]string{"TROVE_TEST_KEY": "sk-from-env"}
	getenv := func(k string) string { return env[k] }

	e, err := New(core.EmbeddingSettings{Provider: "builtin"}, getenv)
	if err != nil || e.Model() != builtin(t).Model() {
		t.Fatalf("builtin: %v, %v", e, err)
	}
	e, err = New(core.EmbeddingSettings{}, getenv)
	if err != nil || e.Dim() != 256 {
		t.Fatalf("empty provider: %v, %v", e, err)
	}
	e, err = New(core.EmbeddingSettings{Provider: "builtin", Model: BuiltinSemantic}, getenv)
	if err != nil || e.Dim() != 100 {
		t.Fatalf("builtin semantic: %v, %v", e, err)
	}
	if _, err := New(core.EmbeddingSettings{Provider: "builtin", Model: "gpt-9"}, getenv); err == nil {
		t.Error("unknown builtin model accepted")
	}
	if _, err := New(core.EmbeddingSettings{Provider: "cohere"}, getenv); err == nil {
		t.Error("unknown provider accepted")
	}

	e, err = New(core.EmbeddingSettings{Provider: "ollama"}, getenv)
	if err != nil || e.Model() != "ollama:nomic-embed-text" || e.Dim() != 768 {
		t.Fatalf("ollama defaults: %v, %v", e, err)
	}
	if r := e.(*Remote); r.where != DefaultOllamaURL {
		t.Errorf("ollama default URL %q", r.where)
	}
	e, err = New(core.EmbeddingSettings{Provider: "openai"}, getenv)
	if err != nil || e.Model() != "openai:text-embedding-3-small@api.openai.com" || e.Dim() != 1536 {
		t.Fatalf("openai defaults: %v, %v", e, err)
	}
	if _, err := New(core.EmbeddingSettings{Provider: "openai", APIKeyEnv: "TROVE_MISSING_KEY"}, getenv); err == nil || !strings.Contains(err.Error(), "TROVE_MISSING_KEY") {
		t.Errorf("missing key variable gave %v", err)
	}
	if _, err := New(core.EmbeddingSettings{Provider: "ollama", BaseURL: "localhost:11434"}, getenv); err == nil {
		t.Error("a base URL without scheme was accepted")
	}

	// The key named by APIKeyEnv reaches the server as a bearer token.
	s := openAIStub(t)
	e, err = New(core.EmbeddingSettings{Provider: "openai", Model: "my-model", BaseURL: s.srv.URL + "/v1", APIKeyEnv: "TROVE_TEST_KEY"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if want := "openai:my-model@" + strings.TrimPrefix(s.srv.URL, "http://"); e.Model() != want {
		t.Errorf("Model %q, want %q", e.Model(), want)
	}
	if _, err := e.Embed(context.Background(), []string{"hello"}); err != nil {
		t.Fatal(err)
	}
	if _, _, models, auth := s.snapshot(); auth[0] != "Bearer sk-from-env" || models[0] != "my-model" {
		t.Errorf("server saw Authorization %q and model %q", auth[0], models[0])
	}
}

// Ollama gets one text per request from langchaingo; the requests of a
// batch are sent concurrently. The stub holds every request until four are
// in flight at once, which only concurrent requests can reach.
func TestOllamaConcurrentRequests(t *testing.T) {
	s := ollamaStub(t)
	r, err := NewOllama("", s.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	inFlight, peak := 0, 0
	all := make(chan struct{})
	s.setAnswer(func(w http.ResponseWriter, req *http.Request, _ []string) bool {
		mu.Lock()
		inFlight++
		if inFlight > peak {
			peak = inFlight
		}
		if peak == OllamaParallel {
			select {
			case <-all:
			default:
				close(all)
			}
		}
		mu.Unlock()
		select {
		case <-all:
		case <-req.Context().Done():
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return false
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = fmt.Sprintf("text %d %s", i, strings.Repeat("y", i))
	}
	got, err := r.Embed(ctx, texts)
	if err != nil {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("Embed: %v (peak concurrency %d)", err, peak)
	}
	for i, text := range texts {
		if want := unitOf(vectorFor(text, 4)); math.Abs(float64(got[i][0]-want[0])) > 1e-6 {
			t.Fatalf("vector %d is out of order", i)
		}
	}
	if n, _, _, _ := s.snapshot(); n != len(texts) {
		t.Errorf("%d requests for %d texts", n, len(texts))
	}
}
