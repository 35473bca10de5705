package filters

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

var samplePaths = []string{
	"a.txt", "node_modules", "node_modules/x.js", "src/node_modules/lib/x.js", "src/node_modules_old/x.js",
	".git", ".git/config", "repo/.git/objects/ab", "x.swp", "dir/x.swp", "dir.swp/x.txt", "notes/4913",
	"a/b/c/d.tmp", "target/debug/app", "target/x.go", "Thumbs.db", "docs/~$report.docx", "deep/a/b/c/d/e.md",
}

// The fast kinds must give doublestar's own answer on the relative path.
func TestFastPathsAgreeWithDoublestar(t *testing.T) {
	for _, raw := range append(junk, documents...) {
		p := compile(raw)
		if p.kind != kindAnyDir && p.kind != kindBase {
			continue
		}
		for _, rel := range samplePaths {
			want, _ := doublestar.Match(raw, rel)
			if got := p.matches("/root/"+rel, rel); got != want {
				t.Errorf("pattern %q on %q: fast path %v, doublestar %v", raw, rel, got, want)
			}
		}
	}
}

func FuzzPatternAgreesWithDoublestar(f *testing.F) {
	for _, p := range []string{"**/node_modules/**", "**/*.swp", "**/4913", "**/a[b", "**/{x,y}/**", "**/.#*"} {
		f.Add(p, "a/node_modules/b.js")
	}
	f.Fuzz(func(t *testing.T, raw, rel string) {
		// On invalid UTF-8 doublestar compares decoded runes, so any two bad
		// bytes are equal to it; the fast paths compare bytes, as paths are.
		if !doublestar.ValidatePattern(raw) || !utf8.ValidString(raw) || !utf8.ValidString(rel) {
			return
		}
		// Scans pass clean relative paths: no empty, leading or trailing components.
		if rel == "" || strings.HasPrefix(rel, "/") || strings.HasSuffix(rel, "/") || strings.Contains(rel, "//") {
			return
		}
		p := compile(raw)
		if p.kind != kindAnyDir && p.kind != kindBase {
			return
		}
		want, _ := doublestar.Match(raw, rel)
		if got := p.matches("/"+rel, rel); got != want {
			t.Fatalf("pattern %q on %q: fast path %v, doublestar %v", raw, rel, got, want)
		}
	})
}

func TestPatternShapes(t *testing.T) {
	cases := []struct {
		pattern, rel string
		want         bool
	}{
		{"node_modules", "web/node_modules/react/index.js", true}, // bare name: any component
		{"node_modules", "web/node_modules_old/index.js", false},
		{"*.log", "logs/today.log", true},
		{"*.log", "logs/today.log.gz", false},
		{"notes/*.md", "notes/a.md", true}, // with a slash: relative path
		{"notes/*.md", "x/notes/a.md", false},
		{"/srv/data/private/**", "private/x", true}, // absolute
		{"/srv/data/other/**", "private/x", false},
	}
	for _, c := range cases {
		if got := compile(c.pattern).matches("/srv/data/"+c.rel, c.rel); got != c.want {
			t.Errorf("%q on %q = %v, want %v", c.pattern, c.rel, got, c.want)
		}
	}
}

func TestBlacklistWithExceptions(t *testing.T) {
	m := NewMatcher(modeBlacklist, []string{"**/.git/config"}, []string{"**/.git/**", "*.tmp"})
	for rel, want := range map[string]bool{
		"a.txt": true, ".git/HEAD": false, ".git/config": true, "x/y.tmp": false,
	} {
		if got := m.Allow("/r/"+rel, rel); got != want {
			t.Errorf("Allow(%q) = %v, want %v", rel, got, want)
		}
	}
	if m.SkipDir("/r/.git", ".git") {
		t.Error("must not skip a folder while an include exception might match inside")
	}
}

func TestWhitelist(t *testing.T) {
	m := NewMatcher(modeWhitelist, []string{"**/*.md", "**/*.pdf"}, []string{"**/node_modules/**"})
	for rel, want := range map[string]bool{
		"a.md": true, "deep/b.pdf": true, "c.txt": false, "node_modules/readme.md": false,
	} {
		if got := m.Allow("/r/"+rel, rel); got != want {
			t.Errorf("Allow(%q) = %v, want %v", rel, got, want)
		}
	}
	if !m.SkipDir("/r/x/node_modules", "x/node_modules") {
		t.Error("want excluded folder skipped")
	}
	if m.SkipDir("/r/docs", "docs") {
		t.Error("skipped a folder no exclude covers")
	}
}

func TestSkipDirOnlyWhenPatternCoversTheSubtree(t *testing.T) {
	m := NewMatcher(modeBlacklist, nil, []string{"**/*.tmp", "**/.cache/**", "cache"})
	if m.SkipDir("/r/x.tmp", "x.tmp") {
		t.Error("**/*.tmp matches the folder name but not the files inside; must not skip")
	}
	if !m.SkipDir("/r/a/.cache", "a/.cache") || !m.SkipDir("/r/cache", "cache") {
		t.Error("want covered folders skipped")
	}
}

func TestDefaultsExcludeJunkKeepWork(t *testing.T) {
	d := Defaults()
	m := NewMatcher(d.Mode, d.Include, d.Exclude)
	for _, rel := range []string{".git/HEAD", "app/node_modules/x/index.js", "p/__pycache__/m.pyc", ".DS_Store",
		"doc.txt.swp", "notes/4913", "Downloads/big.iso.part", "~$budget.xlsx", ".~lock.notes.odt#", "rust/target/debug/app"} {
		if m.Allow("/home/u/"+rel, rel) {
			t.Errorf("default filters index junk %q", rel)
		}
	}
	for _, rel := range []string{"notes/roof leak.md", "src/go/build/build.go", "target/plan.docx", "budget 2024.xlsx"} {
		if !m.Allow("/home/u/"+rel, rel) {
			t.Errorf("default filters drop real work %q", rel)
		}
	}
}
