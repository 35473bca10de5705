package provider

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLocal(t *testing.T) {
	for url, want := range map[string]bool{
		"http://127.0.0.1:11434":       true,
		"http://127.8.9.10/v1":         true,
		"http://localhost:8080/v1":     true,
		"http://LOCALHOST:8080":        true,
		"http://[::1]:11434":           true,
		"https://api.openai.com/v1":    false,
		"http://192.168.1.20:11434":    false,
		"http://localtest.me:11434":    false, // resolves to 127.0.0.1 today, not tomorrow
		"http://127.0.0.1.nip.io:8080": false,
		"http://0.0.0.0:11434":         false,
		"http://[::ffff:8.8.8.8]:80":   false,
		"not a url\x7f":                false,
	} {
		if got := Local(url); got != want {
			t.Errorf("Local(%q) = %v, want %v", url, got, want)
		}
	}
}

func TestRoutes(t *testing.T) {
	cases := []struct {
		name, url, key string
		want           Route
		private        bool
	}{
		{"builtin", "http://evil.example", "OPENAI_API_KEY", Route{Provider: "builtin"}, true},
		{"", "", "", Route{Provider: "builtin"}, true},
		{"ollama", "", "", Route{Provider: "ollama", URL: OllamaURL}, true},
		{"Ollama ", "http://[::1]:1", "", Route{Provider: "ollama", URL: "http://[::1]:1"}, true},
		{"ollama", "", "OLLAMA_API_KEY", Route{Provider: "ollama", URL: OllamaURL, KeyEnv: "OLLAMA_API_KEY"}, false},
		{"openai", "", "", Route{Provider: "openai", URL: OpenAIURL}, false},
		{"openai", "http://localhost:8080/v1", "", Route{Provider: "openai", URL: "http://localhost:8080/v1"}, true},
	}
	for _, c := range cases {
		got := RouteOf(c.name, c.url, c.key)
		if got != c.want || got.Private() != c.private {
			t.Errorf("RouteOf(%q, %q, %q) = %+v private %v, want %+v private %v", c.name, c.url, c.key, got, got.Private(), c.want, c.private)
		}
	}
	if h := RouteOf("openai", "", "").Host(); h != "api.openai.com" {
		t.Errorf("Host %q", h)
	}
}

func TestGetenvReadsOnlyKeyVariables(t *testing.T) {
	t.Setenv("MY_CLOUD_SECRET", "hunter2")
	t.Setenv("OPENAI_API_KEY", "sk-1")
	if Getenv("MY_CLOUD_SECRET") != "" || Getenv("HOME") != "" {
		t.Fatal("read a variable that is not for keys")
	}
	if Getenv("OPENAI_API_KEY") != "sk-1" {
		t.Fatal("an allowed variable was not read")
	}
	for _, name := range KeyVariables {
		if !strings.HasSuffix(name, "_API_KEY") {
			t.Errorf("%s does not look like a key variable", name)
		}
	}
}

// A provider is down when it cannot be reached, does not answer in time,
// or refuses the model, the key or every request; a request it refuses on
// its own (a text too long) leaves it up.
func TestExplainSaysWhetherTheProviderIsDown(t *testing.T) {
	status := make(chan int, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := <-status
		if code == 0 {
			<-r.Context().Done() // no answer until the caller gives up
			return
		}
		w.WriteHeader(code)
		io.WriteString(w, `{"error": {"message": "said the server"}}`)
	}))
	defer srv.Close()
	client := Recording(nil)
	call := func(ctx context.Context) error {
		ctx, rec := Record(ctx)
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 400 {
				return nil
			}
			err = errors.New("the library's own words")
		}
		return Explain(ctx, "stub at "+srv.URL, rec, err)
	}
	for code, down := range map[int]bool{400: false, 413: false, 422: false, 401: true, 403: true, 404: true, 429: true, 500: true, 503: true} {
		status <- code
		err := call(context.Background())
		if err == nil || Down(err) != down || !strings.Contains(err.Error(), "said the server") || !strings.Contains(err.Error(), srv.URL) {
			t.Errorf("HTTP %d: %v (down %v)", code, err, Down(err))
		}
	}
	status <- 0
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := call(ctx); !Down(err) || !strings.Contains(err.Error(), "no answer in time") {
		t.Errorf("slow: %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	ctx, rec := Record(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr, nil)
	_, err := client.Do(req)
	if err = Explain(ctx, "stub at "+addr, rec, err); !Down(err) || !strings.Contains(err.Error(), "not reachable") {
		t.Errorf("refused: %v", err)
	}
	if Down(errors.New("plain")) {
		t.Error("a plain error is not a provider's")
	}
}
