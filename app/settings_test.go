package app

import (
	"io"
	"log/slog"
	"testing"

	"trove/internal/testserver"
)

// The window is the person using Trove: it may point a provider anywhere
// and send it a key, which the API allows only with the token.
func TestWindowMayChangeWhereFileTextGoes(t *testing.T) {
	t.Setenv("TROVE_EMBEDDING_API_KEY", "sk-test")
	model := testserver.StartModelServer(t, "stub-embed")
	change := `{"embedding.provider": "openai", "embedding.base_url": "` + model.URL + `/v1", "embedding.model": "stub-embed", "embedding.api_key_env": "TROVE_EMBEDDING_API_KEY"}`
	for _, token := range []string{"", "tok-window"} {
		s := testserver.Start(t, testserver.WithToken(token))
		if r := testserver.Anonymous(s).Do("PUT", "/api/settings/", raw(change)); r.Status == 200 {
			t.Fatalf("token %q: the API without the token accepted it: %s", token, r.Body)
		}
		a := New(s.Service, slog.New(slog.NewTextHandler(io.Discard, nil)), &fakeWindow{})
		got, err := a.UpdateSettings(raw(change))
		if err != nil || got.Embedding.Provider != "openai" || got.Embedding.APIKeyEnv != "TROVE_EMBEDDING_API_KEY" {
			t.Fatalf("token %q: the window's change: %+v %v", token, got.Embedding, err)
		}
	}
}
