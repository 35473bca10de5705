package views

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every code a client can receive has a row in docs/api.md's table of
// codes: one that reached clients without one was a code nobody could look
// up.
func TestEveryCodeIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(doc), "| Status | When | Codes |")
	if start < 0 {
		t.Fatal("docs/api.md has no table of codes (| Status | When | Codes |)")
	}
	table := string(doc[start:])
	if end := strings.Index(table, "\n\n"); end > 0 {
		table = table[:end]
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z_]+)`").FindAllStringSubmatch(table, -1) {
		documented[m[1]] = true
	}
	for _, c := range AllCodes() {
		if !documented[c] {
			t.Errorf("code %s reaches clients but has no row in docs/api.md's table of codes", c)
		}
	}
}

// Every fault has a code, and only one.
func TestEveryFaultHasACode(t *testing.T) {
	src, err := os.ReadFile("../../core/faults.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := regexp.MustCompile(`(?m)^\t\w+ += &Fault\{`).FindAll(src, -1)
	if len(declared) != len(codes) {
		t.Errorf("core/faults.go declares %d faults, codes gives %d codes", len(declared), len(codes))
	}
	seen := map[string]bool{}
	for f, c := range codes {
		if f == nil || c == "" || seen[c] {
			t.Errorf("fault %v: code %q (empty or given twice)", f, c)
		}
		seen[c] = true
	}
}
