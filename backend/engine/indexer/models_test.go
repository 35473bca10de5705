package indexer_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// ollamaChat is a local server speaking Ollama's chat API: it answers every
// request with one card, streamed as Ollama streams.
func ollamaChat(t *testing.T, card map[string]any) *httptest.Server {
	content, _ := json.Marshal(card)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		enc.Encode(map[string]any{"model": "llama3.2", "created_at": "2026-11-22T10:00:00Z",
			"message": map[string]any{"role": "assistant", "content": string(content)}, "done": false})
		enc.Encode(map[string]any{"model": "llama3.2", "created_at": "2026-11-22T10:00:01Z",
			"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestChangingTheSummarizerReEnrichesInTheBackground(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "trip.md", "# Trip notes\n\nWe drove to the coast and saw whales near the harbour.",
		"other.txt", "A second file, also re-enriched.")
	s.IndexDir(root, 2)
	p := filepath.Join(root, "trip.md")
	if r := lookup(s, p); r.Field("title") != "Trip notes" {
		t.Fatalf("builtin card: %s", r.Body)
	}
	stub := ollamaChat(t, map[string]any{"title": "Whale Watching Trip", "summary": "A drive to the coast to watch whales.",
		"keywords": []string{"whales", "coast", "harbour", "trip", "drive"}})
	r := s.Do("PUT", "/api/settings/", map[string]any{"summarizer.provider": "ollama", "summarizer.base_url": stub.URL})
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, settle, "the files to be re-enriched by the model", func() bool {
		a, b := lookup(s, p), lookup(s, filepath.Join(root, "other.txt"))
		return a.Field("title") == "Whale Watching Trip" && b.Field("title") == "Whale Watching Trip" &&
			strings.Contains(a.Field("summary").(string), "watch whales")
	})
	// Search sees the new card.
	hit := s.Do("POST", "/api/search/", map[string]any{"query": "whale watching", "limit": 1})
	if !strings.Contains(string(hit.Body), "Whale Watching Trip") {
		t.Fatalf("search: %s", hit.Body)
	}
}

func TestChangingTheEmbeddingModelReEmbeds(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "Baking bread at home with sourdough.", "b.txt", "Storm damage to the roof.")
	s.IndexDir(root, 2)
	before := s.Do("POST", "/api/search/", map[string]any{"query": "bread", "mode": "semantic", "limit": 1})
	if r := s.Do("PUT", "/api/settings/", map[string]any{"embedding.model": "glove6b-sif"}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, settle, "semantic search to work with the new model", func() bool {
		r := s.Do("POST", "/api/search/", map[string]any{"query": "bread", "mode": "semantic", "limit": 1})
		got := paths(r)
		return len(got) == 1 && got[0] == filepath.Join(root, "a.txt") && string(r.Body) != string(before.Body)
	})
}
