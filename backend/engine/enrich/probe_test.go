package enrich

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/engine/provider"
)

func TestProbe(t *testing.T) {
	noKey := func(string) string { return "" }
	if err := Probe(context.Background(), core.SummarizerSettings{Provider: core.ProviderBuiltin}, noKey, time.Second); err != nil {
		t.Fatalf("builtin: %v", err)
	}
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			s := newStub(t, "good")
			srv := p.server(s, t)
			cfg := core.SummarizerSettings{Provider: p.name, BaseURL: p.base(srv), Model: "some-model"}
			if err := Probe(context.Background(), cfg, noKey, 5*time.Second); err != nil {
				t.Fatalf("a working server: %v", err)
			}
			if requests, _, _ := s.seen(); len(requests) != 1 || requests[0]["model"] != "some-model" {
				t.Fatalf("requests %v", requests)
			}

			missing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"error":"model \"some-model\" not found, try pulling it first"}`)
			}))
			defer missing.Close()
			cfg.BaseURL = p.base(missing)
			err := Probe(context.Background(), cfg, noKey, 5*time.Second)
			if !provider.Down(err) || !strings.Contains(err.Error(), "HTTP 404") || !strings.Contains(err.Error(), `"some-model" not found`) {
				t.Fatalf("a missing model: %v", err)
			}

			missing.Close()
			err = Probe(context.Background(), cfg, noKey, 5*time.Second)
			if !provider.Down(err) || !strings.Contains(err.Error(), "not reachable") || !strings.Contains(err.Error(), strings.TrimPrefix(missing.URL, "http://")) {
				t.Fatalf("a server that is gone: %v", err)
			}
		})
	}
}
