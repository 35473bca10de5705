package api_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"trove/internal/testserver"
)

// No page of another site may show Trove inside a frame: the web UI and
// every API answer, refusals and errors raised before any route included,
// say so in both the old header and the CSP directive.
func TestNoPageCanFrameTrove(t *testing.T) {
	ui := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><div id="app"></div>`)}}
	s := testserver.Start(t, testserver.WithUI(ui))
	answers := map[string]testserver.Response{
		"the UI":                  s.Get("/?q=password"),
		"a UI route":              s.Get("/folders"),
		"an API answer":           s.Get("/api/status/"),
		"an unknown route":        s.Get("/api/nope"),
		"a foreign host":          s.Do("GET", "/api/status/", nil, "Host", "evil.example"),
		"a foreign origin":        s.Do("GET", "/api/status/", nil, "Origin", "http://evil.example"),
		"another site's page":     s.Do("GET", "/api/status/", nil, "Sec-Fetch-Site", "cross-site"),
		"a body that is not JSON": s.Do("PUT", "/api/settings/", "x", "Content-Type", "text/plain"),
		"an unknown method":       s.Raw("BREW", "/api/status/"),
		"a body too large": s.RawBytes([]byte(fmt.Sprintf("PUT /api/settings/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"+
			"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2<<20))),
	}
	tok := testserver.Start(t, testserver.WithToken("s3cret"))
	tok.Token = ""
	answers["a missing token"] = tok.Get("/api/status/")
	for what, r := range answers {
		if got := r.Header.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s (%d): X-Frame-Options %q", what, r.Status, got)
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s (%d): Content-Security-Policy %q", what, r.Status, csp)
		}
	}
	// The UI's own policy still holds beside it.
	if csp := answers["the UI"].Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") ||
		!strings.Contains(string(answers["the UI"].Body), `id="app"`) {
		t.Errorf("the UI: %q %s", csp, answers["the UI"].Body)
	}
}
