package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// windowDo sends a request as the desktop window's webview hands it to the
// asset server: its own origin and host, no token, in process.
func windowDo(t *testing.T, s *testserver.Server, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	var r *http.Request
	if rd != nil {
		r = httptest.NewRequest(method, "wails://wails"+path, rd)
		r.Header.Set("Content-Type", "application/json")
	} else {
		r = httptest.NewRequest(method, "wails://wails"+path, nil)
	}
	r.Host = "wails"
	r.Header.Set("Origin", "wails://wails")
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.API.Window().ServeHTTP(w, r)
	return w
}

// sameJSON fails unless two JSON bodies are equal.
func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var x, y any
	if json.Unmarshal(got, &x) != nil || json.Unmarshal(want, &y) != nil {
		t.Fatalf("%s: not JSON:\n window %s\n api    %s", what, got, want)
	}
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(y)
	if !bytes.Equal(a, b) {
		t.Errorf("%s differs:\n window %s\n api    %s", what, a, b)
	}
}

// The window's requests are the API's: the same routes give the same
// answers and errors, byte for byte, as a script that shows the token.
func TestTheWindowCallsTheAPIInProcess(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("tok-window"))
	dir := t.TempDir()
	cases := []struct{ method, path, body string }{
		{"GET", "/api/status/", ""},
		{"GET", "/api/settings/", ""},
		{"PUT", "/api/settings/", `{"queue.max_concurrency": 0}`},
		{"POST", "/api/watch/directory", `{"path": "notes"}`},
		{"POST", "/api/watch/directory", `{"path": "` + dir + `"}`},
		{"GET", "/api/watched-directories", ""},
		{"POST", "/api/search/", `{"query": "roof", "limit": -1}`},
		{"POST", "/api/search/", `{"query": "roof", "bogus": 1}`},
		{"GET", "/api/files/987654", ""},
		{"DELETE", "/api/watch/jobs/987654", ""},
		{"POST", "/api/filters/pattern", `{"pattern": "a[", "pattern_type": "exclude"}`},
		{"GET", "/api/nope", ""},
	}
	for _, c := range cases {
		w := windowDo(t, s, c.method, c.path, c.body)
		var body any
		if c.body != "" {
			body = c.body
		}
		api := s.Do(c.method, c.path, body)
		if c.path == "/api/watch/directory" && w.Code == http.StatusOK {
			api = s.Do("GET", "/api/watched-directories", nil) // added once; compare the list
			w = windowDo(t, s, "GET", "/api/watched-directories", "")
		}
		if w.Code != api.Status {
			t.Errorf("%s %s: window %d, api %d (%s)", c.method, c.path, w.Code, api.Status, w.Body)
			continue
		}
		if c.path != "/api/status/" { // uptime moves
			sameJSON(t, c.method+" "+c.path, w.Body.Bytes(), api.Body)
		}
		if got := w.Header().Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s %s: X-Frame-Options %q", c.method, c.path, got)
		}
	}
}

// The window is the person: with a token set or not, it may point a
// provider anywhere and send it a key, which the API allows no caller
// without the token.
func TestTheWindowIsThePerson(t *testing.T) {
	t.Setenv("TROVE_EMBEDDING_API_KEY", "sk-test")
	model := testserver.StartModelServer(t, "stub-embed")
	change := `{"embedding.provider": "openai", "embedding.base_url": "` + model.URL + `/v1", "embedding.model": "stub-embed", "embedding.api_key_env": "TROVE_EMBEDDING_API_KEY"}`
	for _, token := range []string{"", "tok-window"} {
		s := testserver.Start(t, testserver.WithToken(token))
		if r := testserver.Anonymous(s).Do("PUT", "/api/settings/", change); r.Status == http.StatusOK {
			t.Fatalf("token %q: a caller without it changed the provider: %s", token, r.Body)
		}
		w := windowDo(t, s, "PUT", "/api/settings/", change)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"api_key_env":"TROVE_EMBEDDING_API_KEY"`) {
			t.Fatalf("token %q: the window: %d %s", token, w.Code, w.Body)
		}
	}
}

// The window meets the body rules a page does: JSON, and no larger than
// the API takes.
func TestTheWindowsBodiesAreChecked(t *testing.T) {
	s := testserver.Start(t)
	if w := windowDo(t, s, "PUT", "/api/settings/", `{"queue.max_retries": 1}`, "Content-Type", "text/plain"); w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d %s", w.Code, w.Body)
	}
	huge := `{"query": "` + strings.Repeat("a", 2<<20) + `"}`
	if w := windowDo(t, s, "POST", "/api/search/", huge); w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), `"code":"BODY_TOO_LARGE"`) {
		t.Errorf("a body over the limit: %d %s, want 413 in the endpoint's shape", w.Code, w.Body)
	}
	if r := s.Get("/api/settings/"); r.Field("queue.max_retries") == float64(1) {
		t.Errorf("a refused body changed a setting: %s", r.Body)
	}
}
