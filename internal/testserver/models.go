package testserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// ModelServer stands in for an Ollama or an OpenAI-compatible server, which
// cannot run here: it speaks their embedding and chat protocols as
// langchaingo calls them, for the models it is given, and answers 404 in
// each protocol's own words for any other model. It can go away (every
// connection refused) and come back on the same address.
//
// Ollama clients use URL; OpenAI clients use URL + "/v1".
type ModelServer struct {
	URL string

	t      testing.TB
	addr   string
	models map[string]bool

	mu     sync.Mutex
	srv    *http.Server
	embeds int // embedding requests answered with vectors
}

// ModelDim is the length of the stub's vectors.
const ModelDim = 64

// StartModelServer serves the named models on a random loopback port until
// the test ends.
func StartModelServer(t testing.TB, models ...string) *ModelServer {
	t.Helper()
	m := &ModelServer{t: t, models: map[string]bool{}}
	for _, name := range models {
		m.models[name] = true
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = ln.Addr().String()
	m.URL = "http://" + m.addr
	m.serve(ln)
	t.Cleanup(m.Stop)
	return m
}

func (m *ModelServer) serve(ln net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/embed", m.ollamaEmbed)
	mux.HandleFunc("POST /api/chat", m.ollamaChat)
	mux.HandleFunc("POST /v1/embeddings", m.openaiEmbed)
	mux.HandleFunc("POST /v1/chat/completions", m.openaiChat)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	m.mu.Lock()
	m.srv = srv
	m.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.t.Errorf("model server: %v", err)
		}
	}()
}

// Stop closes the server: connections to its address are refused until
// Start. Stopping twice is fine.
func (m *ModelServer) Stop() {
	m.mu.Lock()
	srv := m.srv
	m.srv = nil
	m.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// Start serves again on the same address.
func (m *ModelServer) Start() {
	m.t.Helper()
	ln, err := net.Listen("tcp", m.addr)
	if err != nil {
		m.t.Fatalf("model server back on %s: %v", m.addr, err)
	}
	m.serve(ln)
}

// Embeds is how many embedding requests were answered with vectors.
func (m *ModelServer) Embeds() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.embeds
}

type modelRequest struct {
	Model string          `json:"model"`
	Input json.RawMessage `json:"input"`
}

// read decodes a request and reports whether its model is served; for
// others it has answered 404 already, in the protocol's words.
func (m *ModelServer) read(w http.ResponseWriter, r *http.Request, openai bool) (modelRequest, bool) {
	var req modelRequest
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":"bad request body"}`, http.StatusBadRequest)
		return req, false
	}
	if m.models[req.Model] {
		return req, true
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	if openai {
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model),
			"type":    "invalid_request_error", "param": nil, "code": "model_not_found"}})
	} else {
		json.NewEncoder(w).Encode(map[string]any{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
	}
	return req, false
}

func inputs(raw json.RawMessage) []string {
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	var one string
	json.Unmarshal(raw, &one)
	return []string{one}
}

// vectorOf is a bag of the text's words hashed into ModelDim dimensions,
// plus a constant, so texts sharing words are close and none is zero.
func vectorOf(text string) []float32 {
	v := make([]float32, ModelDim)
	v[0] = 0.1
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(strings.Trim(w, ".,;:!?\"'()")))
		v[1+h.Sum32()%(ModelDim-1)]++
	}
	return v
}

func (m *ModelServer) vectors(texts []string) [][]float32 {
	m.mu.Lock()
	m.embeds++
	m.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = vectorOf(t)
	}
	return out
}

func (m *ModelServer) ollamaEmbed(w http.ResponseWriter, r *http.Request) {
	req, ok := m.read(w, r, false)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": m.vectors(inputs(req.Input))})
}

func (m *ModelServer) openaiEmbed(w http.ResponseWriter, r *http.Request) {
	req, ok := m.read(w, r, true)
	if !ok {
		return
	}
	vecs := m.vectors(inputs(req.Input))
	data := make([]map[string]any, len(vecs))
	for i, v := range vecs {
		data[i] = map[string]any{"object": "embedding", "embedding": v, "index": i}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

// modelCard is what the chat endpoints answer: a card as Trove asks for.
const modelCard = `{"title": "Card by the model", "summary": "A summary written by the model.", "keywords": ["model", "card", "summary", "written", "stub"]}`

// ollamaChat streams the answer as newline-delimited JSON, as Ollama does.
func (m *ModelServer) ollamaChat(w http.ResponseWriter, r *http.Request) {
	req, ok := m.read(w, r, false)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	enc.Encode(map[string]any{"model": req.Model, "created_at": "2026-11-22T10:00:00Z",
		"message": map[string]any{"role": "assistant", "content": modelCard}, "done": false})
	enc.Encode(map[string]any{"model": req.Model, "created_at": "2026-11-22T10:00:01Z",
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"})
}

func (m *ModelServer) openaiChat(w http.ResponseWriter, r *http.Request) {
	req, ok := m.read(w, r, true)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1763805600, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": modelCard}}},
		"usage": map[string]any{"prompt_tokens": 9, "completion_tokens": 9, "total_tokens": 18},
	})
}
