package service_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// When the embedding provider goes away after it was chosen, files are
// still indexed (without vectors), the status and the folders say so, the
// log says it once rather than per file, search falls back to keywords with
// a notice, and when the provider is back the files get their vectors.
func TestEmbeddingOutageIsShownAndHealed(t *testing.T) {
	s := testserver.Start(t, testserver.WithProviderRetry(50*time.Millisecond))
	fast(t, s)
	model := testserver.StartModelServer(t, "stub-embed")
	if r := put(s, map[string]any{"embedding.provider": "ollama", "embedding.base_url": model.URL, "embedding.model": "stub-embed"}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	root := t.TempDir()
	testserver.WriteFiles(t, root, "bread.txt", "Baking sourdough bread at home.", "roof.txt", "Storm damage to the roof tiles.")
	s.IndexDir(root, 2)
	if st := s.Get("/api/status/"); st.Field("embedding.state") != "ok" {
		t.Fatalf("status before the outage: %s", st.Body)
	}

	model.Stop()
	const extra = 40
	for i := range extra {
		testserver.WriteFiles(t, root, fmt.Sprintf("garden-%02d.txt", i), fmt.Sprintf("Planting tomatoes in the garden, bed %d.", i))
	}
	s.WaitIdle(root, 2+extra)

	st := s.Get("/api/status/")
	msg, _ := st.Field("embedding.message").(string)
	since, _ := st.Field("embedding.since").(string)
	if st.Field("embedding.state") != "failing" || !strings.Contains(msg, "not reachable") || since == "" {
		t.Fatalf("status during the outage: %s", st.Body)
	}
	folder := s.Folder(root)
	notice, _ := folder["embedding"].(map[string]any)
	if notice["state"] != "failing" || notice["message"] != msg || folder["status"] != "watching" {
		t.Fatalf("folder during the outage: %v", folder)
	}
	if folder["indexed_count"] != float64(2+extra) {
		t.Fatalf("files must still be indexed (by keyword): %v", folder)
	}

	for _, mode := range []string{"hybrid", "semantic"} {
		r := s.Do("POST", "/api/search/", map[string]any{"query": "tomatoes garden", "mode": mode, "limit": 5})
		results, _ := r.Field("results").([]any)
		notice, _ := r.Field("notice").(string)
		if r.Status != 200 || len(results) == 0 || !strings.HasPrefix(notice, "Semantic search is unavailable") {
			t.Fatalf("%s search during the outage: %d %s", mode, r.Status, r.Body)
		}
	}
	stream := s.Get("/api/search/stream?query=" + url.QueryEscape("tomatoes garden"))
	if n, _ := stream.Field("data.notice").(string); !strings.HasPrefix(n, "Semantic search is unavailable") || stream.Field("data.total_results") == float64(0) {
		t.Fatalf("stream search during the outage: %s", stream.Body)
	}
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "tomatoes garden", "mode": "keyword"}); r.Field("notice") != nil {
		t.Fatalf("a keyword search lost nothing: %s", r.Body)
	}
	// One line when the provider failed, not one per file or per search.
	if n := warnings(t, s, "embed"); n > 2 {
		t.Fatalf("%d warnings about embedding for %d files", n, extra)
	}

	model.Start()
	testserver.Eventually(t, settle, "the provider to be seen again", func() bool {
		return s.Get("/api/status/").Field("embedding.state") == "ok"
	})
	garden := filepath.Join(root, "garden-07.txt")
	testserver.Eventually(t, settle, "the files of the outage to get vectors", func() bool {
		r := s.Do("POST", "/api/search/", map[string]any{"query": "tomatoes garden bed 7", "mode": "semantic", "limit": 100})
		results, _ := r.Field("results").([]any)
		for _, res := range results {
			m, _ := res.(map[string]any)
			if f, _ := m["file"].(map[string]any); f["file_path"] == garden {
				score, _ := m["semantic_score"].(float64)
				return score > 0 && r.Field("notice") == nil
			}
		}
		return false
	})
	if f := s.Folder(root); f["embedding"].(map[string]any)["state"] != "ok" {
		t.Fatalf("folder after the outage: %v", f)
	}
}

// warnings counts the log's warnings and errors that mention word.
func warnings(t *testing.T, s *testserver.Server, word string) int {
	t.Helper()
	b, err := os.ReadFile(s.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if (strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR")) && strings.Contains(line, word) {
			n++
		}
	}
	return n
}

// A new address for the same model is used from then on.
func TestANewEmbeddingAddressIsUsed(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	first, second := testserver.StartModelServer(t, "stub-embed"), testserver.StartModelServer(t, "stub-embed")
	if r := put(s, map[string]any{"embedding.provider": "ollama", "embedding.base_url": first.URL, "embedding.model": "stub-embed"}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r := put(s, map[string]any{"embedding.base_url": second.URL}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	first.Stop()
	before := second.Embeds()
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "Planting tomatoes in the garden.")
	s.IndexDir(root, 1)
	if second.Embeds() == before {
		t.Fatal("the file was not embedded by the server at the new address")
	}
	if st := s.Get("/api/status/"); st.Field("embedding.state") != "ok" {
		t.Fatalf("%s", st.Body)
	}
}
