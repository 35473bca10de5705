package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"trove/backend/shell/views"
	"trove/internal/testserver"
)

// Errors raised before any handler runs (by fasthttp, by Fiber's router,
// by the guard) still take their endpoint's shape and carry a real code.
func TestEveryErrorHasItsEndpointsShapeAndACode(t *testing.T) {
	s := testserver.Start(t)
	for _, tc := range []struct {
		name   string
		r      testserver.Response
		status int
		code   string
	}{
		{"headers too large", s.Raw("GET", "/api/status/", "X-Big", strings.Repeat("a", 20000)), 431, "HEADERS_TOO_LARGE"},
		{"request line too long", s.Raw("GET", "/api/files/lookup?path=/"+strings.Repeat("a", 20000)), 431, "HEADERS_TOO_LARGE"},
		{"unknown method", s.Raw("BREW", "/api/status/"), 501, "NOT_IMPLEMENTED"},
		{"malformed request", s.RawBytes([]byte("GET\r\n\r\n")), 400, "BAD_REQUEST"},
		{"malformed length", s.RawBytes([]byte("POST /api/search/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n")), 400, "BAD_REQUEST"},
		{"method without route", s.Raw("PATCH", "/api/settings/"), 404, "NOT_FOUND"},
	} {
		if tc.r.Status != tc.status || tc.r.Field("error.code") != tc.code || tc.r.Field("status") != "error" {
			t.Errorf("%s: %d %s", tc.name, tc.r.Status, tc.r.Body)
		}
		if strings.Contains(string(tc.r.Body), "aaaa") {
			t.Errorf("%s: the request's bytes were echoed back: %.200s", tc.name, tc.r.Body)
		}
	}
	// The guard and fasthttp answer in the family of the path they refuse.
	bare := s.Raw("GET", "/api/files/stats", "Host", "evil.example")
	if bare.Status != 403 || bare.Field("error") == nil || bare.Field("code") != "FORBIDDEN" {
		t.Errorf("403 on a bare-family path: %d %s", bare.Status, bare.Body)
	}
	success := s.Do("PUT", "/api/filters/config", `{"mode":"whitelist"}`, "Content-Type", "text/plain")
	if success.Status != 415 || success.Field("success") != false || success.Field("code") != "UNSUPPORTED_MEDIA_TYPE" {
		t.Errorf("415 on a success-family path: %d %s", success.Status, success.Body)
	}
	big := s.RawBytes([]byte(fmt.Sprintf("PUT /api/filters/config HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2<<20)))
	if big.Status != 413 || big.Field("success") != false || big.Field("code") != "BODY_TOO_LARGE" {
		t.Errorf("413 on a success-family path: %d %s", big.Status, big.Body)
	}
	deleted := s.Do("DELETE", "/api/queue/items/nope", nil)
	if deleted.Status != 404 || deleted.Field("success") != false || deleted.Field("id") != "nope" {
		t.Errorf("404 deleting a queue item: %d %s", deleted.Status, deleted.Body)
	}

	tok := testserver.Start(t, testserver.WithToken("s3cret"))
	tok.Token = ""
	for path, want := range map[string]string{"/api/files/1": "code", "/api/watch/jobs": "code", "/api/queue/status": "error.code"} {
		if r := tok.Get(path); r.Status != 401 || r.Field(want) != "UNAUTHORIZED" {
			t.Errorf("401 on %s: %s", path, r.Body)
		}
	}
}

func TestEveryStatusHasACode(t *testing.T) {
	for st := 400; st < 600; st++ {
		if c := views.CodeOfStatus(st); c == "" || strings.ContainsAny(c, " '-") {
			t.Errorf("status %d: code %q", st, c)
		}
	}
}

// The query limit counts characters, not bytes: 10,000 two-byte
// characters pass, one more does not.
func TestQueryLimitCountsCharacters(t *testing.T) {
	s := testserver.Start(t)
	if views.MaxQueryLength < 10000 {
		t.Fatalf("MaxQueryLength %d, want at least 10,000 characters", views.MaxQueryLength)
	}
	long := strings.Repeat("é", views.MaxQueryLength)
	if r := s.Do("POST", "/api/search/", map[string]any{"query": long}); r.Status != 200 {
		t.Fatalf("%d characters (%d bytes): %d %.200s", views.MaxQueryLength, len(long), r.Status, r.Body)
	}
	r := s.Do("POST", "/api/search/", map[string]any{"query": long + "é"})
	if r.Status != 400 || r.Field("error.code") != "INVALID_QUERY" {
		t.Fatalf("%d characters: %d %.200s", views.MaxQueryLength+1, r.Status, r.Body)
	}
	if r := s.Get("/api/search/stream?query=" + url.QueryEscape(strings.Repeat("é", 600))); r.Status != 200 {
		t.Fatalf("600 characters on the stream: %d %.200s", r.Status, r.Body)
	}
}

// Numbers must be finite wherever they come in: NaN, infinities and
// numbers too large for their type are 400s naming the field.
func TestNonFiniteNumbersAreRefused(t *testing.T) {
	s := testserver.Start(t)
	for _, v := range []string{"-Inf", "Inf", "+Inf", "inf", "Infinity", "NaN", "nan", "1e999", "-1e999", "0x1p-2", "1_0", ""} {
		if v == "" {
			continue
		}
		r := s.Get("/api/search/stream?query=roof&min_score=" + url.QueryEscape(v))
		if r.Status != 400 || r.Field("error.code") != "INVALID_PARAMETER" || r.Field("error.field") != "min_score" {
			t.Errorf("min_score=%s: %d %s", v, r.Status, r.Body)
		}
	}
	if r := s.Get("/api/search/stream?query=roof&min_score=-0.5e1"); r.Status != 200 {
		t.Errorf("a plain negative number: %d %s", r.Status, r.Body)
	}
	for _, tc := range []struct{ body, code, field string }{
		{`{"query":"roof","min_score":1e999}`, "INVALID_NUMBER", "min_score"},
		{`{"query":"roof","min_score":-1e400}`, "INVALID_NUMBER", "min_score"},
		{`{"query":"roof","limit":1e999}`, "INVALID_NUMBER", "limit"},
		{`{"query":"roof","limit":2.5}`, "INVALID_NUMBER", "limit"},
		{`{"query":"roof","min_score":NaN}`, "INVALID_JSON", ""},
		{`{"query":"roof","filters":{"min_size":1e999}}`, "INVALID_FILTER", "filters.min_size"},
	} {
		r := s.Do("POST", "/api/search/", tc.body)
		if r.Status != 400 || r.Field("error.code") != tc.code || tc.field != "" && r.Field("error.field") != tc.field {
			t.Errorf("%s: %d %s", tc.body, r.Status, r.Body)
		}
	}
	for _, p := range []string{"/api/queue/items?limit=Inf", "/api/queue/items?offset=NaN", "/api/updates?heartbeat=1e999",
		"/api/watched-directories/1/problems?limit=-Inf", "/api/search/stream?query=roof&limit=NaN"} {
		if r := s.Get(p); r.Status != 400 || !strings.HasPrefix(fmt.Sprint(r.Field("error.code")), "INVALID_") {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
	if r := s.Do("PUT", "/api/settings/", `{"queue.cooldown_seconds": 1e999}`); r.Status != 400 || !strings.HasPrefix(fmt.Sprint(r.Field("error.code")), "INVALID_") {
		t.Errorf("a setting of 1e999: %d %s", r.Status, r.Body)
	}
}
