package service_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"trove/internal/testserver"
)

// A provider's API key may come only from the allowed variables: any other
// name (a cloud secret, HOME) is refused in the settings endpoint's shape
// and nothing changes.
func TestKeyVariableMustBeAllowed(t *testing.T) {
	t.Setenv("MY_CLOUD_SECRET", "hunter2")
	s := testserver.Start(t)
	before := s.Get("/api/settings/").Body
	for _, patch := range []map[string]any{
		{"embedding.api_key_env": "MY_CLOUD_SECRET"},
		{"summarizer.api_key_env": "MY_CLOUD_SECRET"},
		{"embedding": map[string]any{"api_key_env": "HOME"}},
		{"summarizer.api_key_env": "openai_api_key"},
	} {
		r := put(s, patch)
		msg, _ := r.Field("error.message").(string)
		if r.Status != 400 || r.Field("status") != "error" || r.Field("error.code") != "INVALID_VALUE" ||
			!strings.HasSuffix(r.Field("error.field").(string), ".api_key_env") {
			t.Errorf("%v: %d %s", patch, r.Status, r.Body)
			continue
		}
		if !strings.Contains(msg, "OPENAI_API_KEY") || !strings.Contains(msg, "TROVE_EMBEDDING_API_KEY") {
			t.Errorf("%v: the message does not list the allowed names: %q", patch, msg)
		}
	}
	if after := s.Get("/api/settings/").Body; string(after) != string(before) {
		t.Fatalf("a refused key variable changed the settings:\n%s\n%s", before, after)
	}
}

// keyCatcher is a listener of a hostile client's choosing: it records every
// Authorization header it is sent.
func keyCatcher(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// Without TROVE_TOKEN any local process may call the API, so it may not
// point a provider at another machine, nor make Trove send an API key
// anywhere: that takes the token (or the desktop window).
func TestUnauthenticatedClientCannotRedirectProviders(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-do-not-leak")
	s := testserver.Start(t)
	catcher, seen := keyCatcher(t)
	before := s.Get("/api/settings/").Body
	for _, patch := range []map[string]any{
		// The reported attack: an allowed key sent to a listener of the
		// client's choosing (here on this machine).
		{"embedding.provider": "openai", "embedding.base_url": catcher.URL + "/v1", "embedding.api_key_env": "OPENAI_API_KEY"},
		{"summarizer.provider": "openai", "summarizer.base_url": catcher.URL + "/v1", "summarizer.api_key_env": "OPENAI_API_KEY"},
		// File text to another machine.
		{"embedding.provider": "ollama", "embedding.base_url": "http://203.0.113.7:11434"},
		{"summarizer.provider": "openai"}, // api.openai.com by default
		{"embedding.provider": "ollama", "embedding.base_url": "http://localtest.me:11434"},
	} {
		r := put(s, patch)
		msg, _ := r.Field("error.message").(string)
		if r.Status != 403 || r.Field("status") != "error" || r.Field("error.code") != "AUTHENTICATION_REQUIRED" {
			t.Errorf("%v: %d %s", patch, r.Status, r.Body)
			continue
		}
		if !strings.Contains(msg, "TROVE_TOKEN") {
			t.Errorf("%v: the message does not say what would allow it: %q", patch, msg)
		}
	}
	if after := s.Get("/api/settings/").Body; string(after) != string(before) {
		t.Fatalf("a refused change was saved:\n%s\n%s", before, after)
	}
	for _, auth := range seen() {
		if strings.Contains(auth, "sk-do-not-leak") {
			t.Fatal("the API key reached the client's listener")
		}
	}
	// A server on this machine without a key is the person's own setup
	// (Ollama, llama.cpp) and needs no token.
	model := testserver.StartModelServer(t, "stub-embed")
	if r := put(s, map[string]any{"embedding.provider": "ollama", "embedding.base_url": model.URL, "embedding.model": "stub-embed"}); r.Status != 200 {
		t.Fatalf("a local server without a key: %d %s", r.Status, r.Body)
	}
}

// With TROVE_TOKEN set, only a caller holding it changes where file text
// goes. The guard refuses /api requests without it; the service refuses too,
// so a request that reached it some other way (a path the guard did not
// recognise) cannot change a provider.
func TestProviderChangeNeedsTheToken(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("tok-3c9a"))
	model := testserver.StartModelServer(t, "stub-embed")
	patch := map[string]any{"embedding.provider": "ollama", "embedding.base_url": model.URL, "embedding.model": "stub-embed"}
	anon := testserver.Anonymous(s)
	before := s.Get("/api/settings/").Body
	if r := anon.Do("PUT", "/api/settings/", patch); r.Status != 401 {
		t.Fatalf("without the token: %d %s", r.Status, r.Body)
	}
	for _, path := range []string{"/API/settings/", "/Api/Settings/", "/api/../API/settings/"} {
		if r := anon.Do("PUT", path, patch); r.Status == 200 {
			t.Errorf("%s without the token changed a provider: %s", path, r.Body)
		}
	}
	if after := s.Get("/api/settings/").Body; string(after) != string(before) {
		t.Fatalf("a provider changed without the token:\n%s\n%s", before, after)
	}
	if r := s.Do("PUT", "/api/settings/", patch); r.Status != 200 || r.Field("embedding.base_url") != model.URL {
		t.Fatalf("with the token: %d %s", r.Status, r.Body)
	}
	// Other settings need nothing more than the guard asks.
	if r := s.Do("PUT", "/api/settings/", map[string]any{"queue.max_retries": 5}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}

// A provider change is tried before it is saved: one short text embedded,
// or one tiny completion. A server that answers is saved; one that refuses
// connections, or does not have the model, is reported in words and
// nothing changes.
func TestProviderChangeIsCheckedFirst(t *testing.T) {
	for _, section := range []string{"embedding", "summarizer"} {
		for _, protocol := range []string{"ollama", "openai"} {
			t.Run(section+"/"+protocol, func(t *testing.T) {
				s := testserver.Start(t)
				model := testserver.StartModelServer(t, "stub-model")
				suffix := map[string]string{"ollama": "", "openai": "/v1"}[protocol]
				key := func(k string) string { return section + "." + k }

				r := put(s, map[string]any{key("provider"): protocol, key("base_url"): model.URL + suffix, key("model"): "stub-model"})
				if r.Status != 200 || r.Field(key("provider")) != protocol || r.Field(key("model")) != "stub-model" {
					t.Fatalf("a working server: %d %s", r.Status, r.Body)
				}
				saved := s.Get("/api/settings/").Body

				r = put(s, map[string]any{key("model"): "no-such-model"})
				msg, _ := r.Field("error.message").(string)
				if r.Status != 400 || r.Field("status") != "error" || r.Field("error.code") != "PROVIDER_UNAVAILABLE" ||
					!strings.Contains(msg, "no-such-model") || !strings.Contains(msg, "404") {
					t.Errorf("a missing model: %d %s", r.Status, r.Body)
				}

				gone := closedPort(t)
				r = put(s, map[string]any{key("base_url"): gone + suffix})
				msg, _ = r.Field("error.message").(string)
				if r.Status != 400 || r.Field("error.code") != "PROVIDER_UNAVAILABLE" ||
					!strings.Contains(msg, "not reachable") || !strings.Contains(msg, strings.TrimPrefix(gone, "http://")) {
					t.Errorf("a server that refuses connections: %d %s", r.Status, r.Body)
				}

				if now := s.Get("/api/settings/").Body; string(now) != string(saved) {
					t.Fatalf("a failed check changed the settings:\n%s\n%s", saved, now)
				}
			})
		}
	}
}
