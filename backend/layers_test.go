// Package backend holds no code; its test keeps the layering of DESIGN.md
// true: app and api call only the service (through views, the JSON shapes
// they share), the service never reaches up, engine packages never reach
// the service or the shells, store and core stay at the bottom.
package backend

import (
	"encoding/json"
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

// layer names the tier of one of our packages.
func layer(p string) string {
	switch {
	case p == module:
		return "main"
	case p == "app":
		return "shell"
	case p == "client":
		return "client"
	case p == "examples", strings.HasPrefix(p, "examples/"):
		return "example"
	case p == "backend/api":
		return "api"
	case p == "backend/views":
		return "views"
	case p == "backend/apidoc", strings.HasPrefix(p, "backend/apidoc/"):
		return "apidoc"
	case p == "backend/service":
		return "service"
	case p == "backend/daemon", p == "backend/testserver":
		return "root"
	case p == "backend/store":
		return "store"
	case p == "backend/core", p == "backend/atomicfile":
		return "base"
	}
	return "engine"
}

// allowed lists, per tier, the tiers its packages may import directly.
var allowed = map[string][]string{
	"main":    {"shell", "root", "client", "base"},
	"client":  {}, // the Go client stands alone: scripts import it without the server
	"example": {"client"},
	"shell":   {"views", "service", "base"},
	"api":     {"apidoc", "views", "service", "base"},
	"apidoc":  {"apidoc", "views", "service", "base"},
	"views":   {"service", "base"},
	"service": {"engine", "store", "base"},
	"engine":  {"engine", "store", "base"},
	"store":   {"base"},
	"base":    {"base"},
	"root":    {"api", "apidoc", "views", "service", "engine", "store", "base", "root"},
}

func TestImportDirection(t *testing.T) {
	for _, tags := range []string{"", "desktop"} {
		env := []string{}
		if tags != "" {
			env = append(env, "GOFLAGS=-tags="+tags)
		}
		for _, p := range listPackages(t, env, "./...") {
			from := strings.TrimPrefix(p.ImportPath, module+"/")
			if from == "backend" {
				continue
			}
			for _, to := range ours(p.Imports) {
				if !contains(allowed[layer(from)], layer(to)) {
					t.Errorf("%s (%s) imports %s (%s): not allowed", from, layer(from), to, layer(to))
				}
			}
			if layer(from) == "engine" || layer(from) == "store" || layer(from) == "base" {
				for _, dep := range ours(p.Deps) {
					if l := layer(dep); l == "service" || l == "views" || l == "api" || l == "shell" || l == "root" {
						t.Errorf("%s depends on %s through its imports", from, dep)
					}
				}
			}
		}
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
