package pathglob

import "testing"

func TestMatch(t *testing.T) {
	const root = "/home/me/docs"
	for _, c := range []struct {
		glob, rel string
		anchored  bool // with the watched folder known
		loose     bool // without it (search)
	}{
		{"", "a.md", true, true},
		{"*.md", "notes/a.md", true, true},
		{"*.md", "notes.md/a.txt", false, false}, // the name only
		{"a.md", "x/a.md", true, true},
		{"report*", "2024/report-q1.pdf", true, true},
		{"/home/me/docs/notes/*.md", "notes/a.md", true, true},
		{"/home/me/docs/*.md", "notes/a.md", false, false},
		{"**/2024/**", "x/2024/a.pdf", true, true},
		{"**/2024/**", "2024/a.pdf", true, true},
		{"notes/*.md", "notes/a.md", true, true},
		{"notes/*.md", "x/notes/a.md", false, true}, // relative to the watched folder; unanchored: any folder
		{"notes/*.md", "notes/x/a.md", false, false},
		{"notes/**", "notes/x/a.md", true, true},
		{"docs/notes/*.md", "notes/a.md", false, true}, // reaches above the watched folder
		{"{a,b}/*.txt", "b/c.txt", true, true},
	} {
		abs := root + "/" + c.rel
		if got := Match(c.glob, abs, c.rel); got != c.anchored {
			t.Errorf("Match(%q, %q, %q) = %v, want %v", c.glob, abs, c.rel, got, c.anchored)
		}
		if got := Match(c.glob, abs, ""); got != c.loose {
			t.Errorf("Match(%q, %q, \"\") = %v, want %v", c.glob, abs, got, c.loose)
		}
	}
}

// The fast paths of Name give doublestar's answers.
func TestNameFastPaths(t *testing.T) {
	for _, c := range []struct {
		glob, name string
		want       bool
	}{
		{"node_modules", "node_modules", true}, {"node_modules", "node_modules2", false},
		{"*.log", "a.log", true}, {"*.log", "a.logx", false}, {"*.log", ".log", true},
		{"*~", "notes.txt~", true}, {"[ab].txt", "a.txt", true}, {"[ab].txt", "c.txt", false},
	} {
		if got := Name(c.glob, c.name); got != c.want {
			t.Errorf("Name(%q, %q) = %v, want %v", c.glob, c.name, got, c.want)
		}
	}
	if Valid("[oops") || !Valid("**/*.md") {
		t.Error("Valid")
	}
}

func TestWithinComparesComponents(t *testing.T) {
	for _, c := range []struct {
		root, path string
		want       bool
	}{
		{"/a/notes", "/a/notes", true}, {"/a/notes", "/a/notes/x", true}, {"/a/notes", "/a/notes-old", false},
		{"/a/notes", "/a/notes-old/x", false}, {"/", "/x", true}, {"/a/notes", "/a", false}, {"/a/notes", "", false},
	} {
		if got := Within(c.root, c.path); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.root, c.path, got)
		}
	}
}
