package api_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"trove/backend/shell/apidoc"
	"trove/internal/testserver"
)

// The document is served as kept.
func TestOpenAPIServed(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/openapi.json")
	if r.Status != 200 || !bytes.Equal(r.Body, apidoc.Kept) || r.Field("openapi") != "3.1.0" {
		t.Fatalf("%d %q %.100s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
}

var param = regexp.MustCompile(`:([a-z_]+)`)

// Every route of the API is in the document, and every operation of the
// document is a route.
func TestEveryRouteIsDocumented(t *testing.T) {
	s := testserver.Start(t)
	var routes []string
	for _, r := range s.API.Handler().GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/") || r.Method == "HEAD" || r.Method == "USE" {
			continue
		}
		routes = append(routes, r.Method+" "+strings.TrimSuffix(param.ReplaceAllString(r.Path, "{$1}"), "/"))
	}
	var ops []string
	for _, o := range apidoc.Operations() {
		ops = append(ops, o[0]+" "+strings.TrimSuffix(o[1], "/"))
	}
	for _, r := range routes {
		if !slices.Contains(ops, r) {
			t.Errorf("route %s is not in the OpenAPI document (backend/shell/apidoc/operations.go)", r)
		}
	}
	for _, o := range ops {
		if !slices.Contains(routes, o) {
			t.Errorf("the document has %s, which is no route", o)
		}
	}
}

// checkCoverage runs after the package's tests: every answer they saw was
// checked against the document (testserver does it); here, that they saw
// every operation. A run of some tests only (-run) is not held to it.
func checkCoverage(code int) int {
	c := testserver.Checker()
	lines, ops, responses := c.Report()
	if testing.Verbose() || os.Getenv("TROVE_OPENAPI_REPORT") != "" {
		fmt.Printf("OpenAPI response validation: %d operations, %d responses checked\n%s\n", ops, responses, strings.Join(lines, "\n"))
	}
	if code != 0 || flag.Lookup("test.run").Value.String() != "" {
		return code
	}
	for _, o := range apidoc.Operations() {
		if !c.Seen(o[0] + " " + o[1]) {
			fmt.Printf("FAIL: no API test called %s %s, so none of its answers was checked against the OpenAPI document\n", o[0], o[1])
			code = 1
		}
	}
	return code
}
