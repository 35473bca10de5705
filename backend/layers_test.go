// Package backend holds no code; its test keeps the layering of DESIGN.md
// true: app and api call only the service (through views, the JSON shapes
// they share), the service never reaches up, engine packages never reach
// the service or the shells and import each other only downwards (see
// engineRank), store and core stay at the bottom.
package backend

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "trove"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T, env []string, patterns ...string) []pkg {
	t.Helper()
	args := append([]string{"list", "-deps=false", "-json=ImportPath,Imports,Deps"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func ours(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			out = append(out, strings.TrimPrefix(p, module+"/"))
		}
	}
	return out
}

// layer names the tier of one of our packages. The folders show the tiers:
// backend/shell (the HTTP API, its JSON shapes and OpenAPI document),
// backend/service, backend/engine, backend/platform (the operating system's
// parts), backend/store, backend/core; internal/ holds test helpers.
func layer(p string) string {
	switch {
	case p == module:
		return "main"
	case p == "app":
		return "shell"
	case p == "client":
		return "client"
	case strings.HasPrefix(p, "client/"):
		return "tool" // the client's own generator
	case p == "examples", strings.HasPrefix(p, "examples/"):
		return "example"
	case p == "backend/shell/api":
		return "api"
	case p == "backend/shell/views":
		return "views"
	case p == "backend/shell/desktopsearch":
		return "desktopsearch"
	case p == "backend/shell/mcp":
		return "mcp"
	case p == "backend/shell/apidoc", strings.HasPrefix(p, "backend/shell/apidoc/"):
		return "apidoc"
	case p == "backend/service":
		return "service"
	case p == "backend/daemon", p == "internal/testserver":
		return "root"
	case p == "backend/store", strings.HasPrefix(p, "backend/store/"):
		return "store"
	case strings.HasPrefix(p, "backend/platform/"):
		return "platform"
	case p == "backend/core":
		return "base"
	case p == "internal/hangfs", p == "internal/poll", p == "internal/desktoptest", p == "internal/pdftest":
		return "testing"
	case strings.HasPrefix(p, "bench/"), strings.HasPrefix(p, "build/"), p == "app/smoke", p == "backend/engine/embedding/internal/gen":
		return "tool"
	}
	return "engine"
}

// engineRank orders the engine tier. An engine package may import only
// engine packages of a lower rank: text rules and leaf helpers at the
// bottom; the parts that read, analyse, find and queue files above them;
// the pipeline (one file through extraction, enrichment, embedding and
// the store) above the parts; the indexer (folders, scans, events, the
// queue's worker) above the pipeline; search beside it, on the text rules
// and the store. Packages of one rank do not import each other, so the
// ranks cannot hide a cycle of intent. A new engine package needs a rank
// here before the test passes.
var engineRank = map[string]int{
	"backend/engine/text/query":               0,
	"backend/engine/text/chunk":               0,
	"backend/engine/text/pathglob":            0,
	"backend/engine/text/markdown":            0,
	"backend/engine/vecquant":                 0,
	"backend/engine/provider":                 0,
	"backend/engine/events":                   0,
	"backend/engine/scheduler":                0,
	"backend/engine/thumbs":                   0,
	"backend/engine/embedding/internal/model": 0,

	"backend/engine/extract":   1,
	"backend/engine/embedding": 1,
	"backend/engine/enrich":    1,
	"backend/engine/watch":     1,
	"backend/engine/scan":      1,
	"backend/engine/queue":     1,
	"backend/engine/filters":   1,
	"backend/engine/settings":  1,

	"backend/engine/pipeline": 2,

	"backend/engine/indexer": 3,
	"backend/engine/search":  3,
}

// allowed lists, per tier, the tiers its packages may import directly.
var allowed = map[string][]string{
	"main":    {"shell", "root", "client", "platform", "base"},
	"client":  {}, // the Go client stands alone: scripts import it without the server
	"example": {"client"},
	"shell":   {"views", "service", "base"},
	// The other ways in, each a shell of its own over the service: the
	// desktop's launchers on D-Bus, and agents over MCP.
	"desktopsearch": {"views", "service", "base"},
	"mcp":           {"views", "service", "base"},
	"api":           {"apidoc", "views", "service", "base"},
	"apidoc":        {"apidoc", "views", "service", "base"},
	"views":         {"service", "base"},
	"service":       {"engine", "store", "platform", "base"},
	"engine":        {"engine", "store", "platform", "base"},
	"store":         {"store", "platform", "base"},
	"platform":      {"platform", "base"},
	"base":          {"base"},
	"testing":       {"base", "testing"}, // a helper waits with poll's
	"root":          {"api", "apidoc", "views", "desktopsearch", "mcp", "service", "engine", "store", "platform", "base", "root", "testing"},
	"tool":          {"root", "apidoc", "client", "service", "engine", "store", "platform", "base", "tool", "testing"},
}

// violations lists the imports of pkgs that go against the tiers and, inside
// the engine tier, against engineRank.
func violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		from := strings.TrimPrefix(p.ImportPath, module+"/")
		if from == "backend" {
			continue
		}
		if layer(from) == "engine" {
			if _, ok := engineRank[from]; !ok {
				out = append(out, fmt.Sprintf("%s is an engine package without a rank in engineRank", from))
			}
		}
		for _, to := range ours(p.Imports) {
			if !contains(allowed[layer(from)], layer(to)) {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s): not allowed", from, layer(from), to, layer(to)))
				continue
			}
			if layer(from) == "engine" && layer(to) == "engine" && engineRank[to] >= engineRank[from] {
				out = append(out, fmt.Sprintf("%s (engine rank %d) imports %s (engine rank %d): engine imports point to a lower rank",
					from, engineRank[from], to, engineRank[to]))
			}
		}
		if l := layer(from); l == "engine" || l == "store" || l == "platform" || l == "base" {
			for _, dep := range ours(p.Deps) {
				if l := layer(dep); l == "service" || l == "views" || l == "api" || l == "shell" || l == "desktopsearch" || l == "mcp" || l == "root" {
					out = append(out, fmt.Sprintf("%s depends on %s through its imports", from, dep))
				}
			}
		}
	}
	return out
}

func TestImportDirection(t *testing.T) {
	for _, tags := range []string{"", "desktop"} {
		env := []string{}
		if tags != "" {
			env = append(env, "GOFLAGS=-tags="+tags)
		}
		for _, v := range violations(listPackages(t, env, "./...")) {
			t.Errorf("tags %q: %s", tags, v)
		}
	}
}

// The check itself must catch each kind of wrong import; a check that
// passes everything would keep TestImportDirection green forever.
func TestImportDirectionCatchesViolations(t *testing.T) {
	for _, c := range []struct {
		name string
		p    pkg
		want string
	}{
		{"a part importing the pipeline", pkg{ImportPath: "trove/backend/engine/scan", Imports: []string{"trove/backend/engine/pipeline"}},
			"backend/engine/scan (engine rank 1) imports backend/engine/pipeline (engine rank 2)"},
		{"the pipeline importing the indexer", pkg{ImportPath: "trove/backend/engine/pipeline", Imports: []string{"trove/backend/engine/indexer"}},
			"backend/engine/pipeline (engine rank 2) imports backend/engine/indexer (engine rank 3)"},
		{"the query language importing search", pkg{ImportPath: "trove/backend/engine/text/query", Imports: []string{"trove/backend/engine/search"}},
			"backend/engine/text/query (engine rank 0) imports backend/engine/search"},
		{"the index's text rules importing search", pkg{ImportPath: "trove/backend/store/tokens", Imports: []string{"trove/backend/engine/search"}},
			"backend/store/tokens (store) imports backend/engine/search (engine): not allowed"},
		{"two parts of one rank", pkg{ImportPath: "trove/backend/engine/watch", Imports: []string{"trove/backend/engine/queue"}},
			"backend/engine/watch (engine rank 1) imports backend/engine/queue (engine rank 1)"},
		{"search importing the indexer", pkg{ImportPath: "trove/backend/engine/search", Imports: []string{"trove/backend/engine/indexer"}},
			"backend/engine/search (engine rank 3) imports backend/engine/indexer"},
		{"an engine package without a rank", pkg{ImportPath: "trove/backend/engine/newpart"},
			"backend/engine/newpart is an engine package without a rank"},
		{"the store importing the engine", pkg{ImportPath: "trove/backend/store", Imports: []string{"trove/backend/engine/text/query"}},
			"backend/store (store) imports backend/engine/text/query (engine): not allowed"},
		{"the engine reaching the service", pkg{ImportPath: "trove/backend/engine/search", Imports: []string{"trove/backend/service"}},
			"backend/engine/search (engine) imports backend/service (service): not allowed"},
		{"views reaching the engine", pkg{ImportPath: "trove/backend/shell/views", Imports: []string{"trove/backend/engine/search"}},
			"backend/shell/views (views) imports backend/engine/search (engine): not allowed"},
	} {
		got := violations([]pkg{c.p})
		if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s: violations = %q, want one containing %q", c.name, got, c.want)
		}
	}
	ok := pkg{ImportPath: "trove/backend/engine/indexer", Imports: []string{"trove/backend/engine/pipeline", "trove/backend/engine/scan", "trove/backend/store", "trove/backend/core"}}
	if got := violations([]pkg{ok}); len(got) != 0 {
		t.Errorf("an import along the direction is reported: %q", got)
	}
}

// The headless server must build without cgo.
func TestHeadlessBuildNeedsNoCgo(t *testing.T) {
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
