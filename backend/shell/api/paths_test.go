package api_test

import (
	"strings"
	"testing"

	"trove/internal/testserver"
)

// spellings returns odd ways of writing an API path p (which starts with
// /api/): other letter cases, percent-encodings, doubled slashes, dot
// segments, encoded slashes and trailing dots. Some reach no route, some
// may; none may answer without the token.
func spellings(p string) []string {
	rest := strings.TrimPrefix(p, "/api")
	return []string{
		"/API" + rest,
		"/Api" + rest,
		"/aPI" + strings.ToUpper(rest),
		"/api" + strings.ToUpper(rest),
		"/%61pi" + rest,
		"/%41PI" + rest,
		"/a%70i" + rest,
		"/%2561pi" + rest,
		"//api" + rest,
		"///api" + rest,
		"/api/" + rest,
		"/./api" + rest,
		"/api/." + rest,
		"/api/./" + strings.TrimPrefix(rest, "/"),
		"/api/../api" + rest,
		"/x/../api" + rest,
		"/%2e%2e/api" + rest,
		"/api%2F" + strings.TrimPrefix(rest, "/"),
		"/api%2f" + strings.TrimPrefix(rest, "/"),
		"%2Fapi" + rest,
		"/api" + strings.TrimSuffix(rest, "/") + ".",
		"/api" + strings.TrimSuffix(rest, "/") + "/.",
		"/api" + strings.TrimSuffix(rest, "/") + "%2e",
		"/api" + strings.TrimSuffix(rest, "/") + "//",
		"/api" + strings.TrimSuffix(rest, "/") + "/./",
		"/api\\" + strings.TrimPrefix(rest, "/"),
		"http://127.0.0.1/API" + rest,
		"/API" + rest + "?token=wrong",
	}
}

// apiRoutes lists every route of the API as method and path, with
// parameters filled in, read from the router itself so that a new
// endpoint is covered without editing this test.
func apiRoutes(t *testing.T, s *testserver.Server) [][2]string {
	t.Helper()
	var out [][2]string
	for _, r := range s.API.Handler().GetRoutes(true) {
		if r.Method == "HEAD" || r.Method == "CONNECT" || r.Method == "TRACE" {
			continue
		}
		if !strings.HasPrefix(r.Path, "/api/") && r.Path != "/mcp" {
			continue
		}
		parts := strings.Split(r.Path, "/")
		for i, part := range parts {
			if strings.HasPrefix(part, ":") {
				parts[i] = "1"
			}
		}
		out = append(out, [2]string{r.Method, strings.Join(parts, "/")})
	}
	if len(out) < 25 {
		t.Fatalf("only %d API routes found: %v", len(out), out)
	}
	return out
}

func TestEveryRouteIsUnderTheGuardedPrefix(t *testing.T) {
	s := testserver.Start(t)
	for _, r := range s.API.Handler().GetRoutes(true) {
		// Routes outside /api are the catch-all middlewares (the guard, the UI
		// and the JSON 404) and the MCP endpoint, which the guard treats as
		// the API: nothing else may be registered there.
		if !strings.HasPrefix(r.Path, "/api") && r.Path != "/" && r.Path != "/mcp" {
			t.Errorf("route %s %s is outside /api", r.Method, r.Path)
		}
	}
}

// With a token set, no spelling of any API path answers without it: the
// guard's idea of "an API path" covers everything the router may route to
// an API handler.
func TestTokenHoldsForEverySpellingOfEveryRoute(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("s3cret"))
	routes := apiRoutes(t, s)
	s.Token = ""
	for _, rt := range routes {
		method, p := rt[0], rt[1]
		for _, target := range append([]string{p}, spellings(p)...) {
			r := s.Raw(method, target, "Content-Type", "application/json")
			if r.Status != 401 {
				t.Errorf("%s %s without the token: %d %.120s", method, target, r.Status, r.Body)
			}
		}
	}
}

// With the token, the spec's spellings work (with or without the trailing
// slash) and odd spellings reach no handler: routing is case-sensitive
// and does not decode or clean paths, so they are JSON 404s, never the
// endpoint and never the web UI's page.
func TestOddSpellingsReachNoHandler(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("s3cret"))
	for _, p := range []string{"/api/settings/", "/api/settings", "/api/settings//", "/api/status/", "/api/queue/status"} {
		if r := s.Raw("GET", p); r.Status != 200 {
			t.Errorf("GET %s: %d %s", p, r.Status, r.Body)
		}
	}
	for _, p := range []string{"/api/settings/", "/api/status/", "/api/files/stats", "/api/watch/jobs"} {
		for _, target := range spellings(p) {
			if strings.HasPrefix(target, "http://") || strings.HasSuffix(target, "?token=wrong") || strings.HasSuffix(target, "//") {
				continue
			}
			r := s.Raw("GET", target)
			if r.Status == 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
				t.Errorf("GET %s: %d %s %.80s", target, r.Status, r.Header.Get("Content-Type"), r.Body)
			}
		}
	}
}
