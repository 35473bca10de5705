package scan

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"trove/backend/engine/filters"
)

func write(t *testing.T, root string, rels ...string) {
	t.Helper()
	for _, r := range rels {
		p := filepath.Join(root, r)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(r), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func walk(t *testing.T, root string, m Matcher, opt Options) (files, dirs []string) {
	t.Helper()
	opt.Dir = func(p string) error { dirs = append(dirs, Rel(root, p)); return nil }
	err := Walk(context.Background(), root, m, opt, func(e Entry) { files = append(files, Rel(root, e.Path)) })
	if err != nil {
		t.Fatal(err)
	}
	return
}

func TestWalkAppliesFiltersAndSkipsExcludedFolders(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "sub/b.md", "node_modules/x/y.js", ".git/HEAD", "sub/c.swp")
	d := filters.Defaults()
	files, dirs := walk(t, root, filters.NewMatcher(d.Mode, d.Include, d.Exclude), Options{Recursive: true})
	if !slices.Equal(files, []string{"a.txt", "sub/b.md"}) {
		t.Fatalf("files %v", files)
	}
	if slices.Contains(dirs, "node_modules") || slices.Contains(dirs, ".git") || !slices.Contains(dirs, "sub") {
		t.Fatalf("dirs %v: excluded folders must not be entered", dirs)
	}
}

func TestWalkNonRecursiveAndPattern(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "b.md", "sub/c.md")
	all := filters.NewMatcher("blacklist", nil, nil)
	files, _ := walk(t, root, all, Options{Recursive: false})
	if !slices.Equal(files, []string{"a.txt", "b.md"}) {
		t.Fatalf("non-recursive: %v", files)
	}
	files, _ = walk(t, root, all, Options{Recursive: true, FilePattern: "*.md"})
	if !slices.Equal(files, []string{"b.md", "sub/c.md"}) {
		t.Fatalf("pattern: %v", files)
	}
}

func TestWalkSkipsSymlinksAndReportsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, "real.txt")
	os.Symlink(filepath.Join(root, "real.txt"), filepath.Join(root, "link.txt"))
	os.Symlink(root, filepath.Join(root, "loop"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	Walk(context.Background(), root, filters.NewMatcher("blacklist", nil, nil), Options{Recursive: true}, func(e Entry) { entries = append(entries, e) })
	if len(entries) != 2 || entries[0].Regular || Rel(root, entries[0].Path) != "pipe" || !entries[1].Regular {
		t.Fatalf("entries %+v", entries)
	}
}

func TestWalkMissingRootIsAnError(t *testing.T) {
	err := Walk(context.Background(), filepath.Join(t.TempDir(), "gone"), filters.NewMatcher("blacklist", nil, nil), Options{}, func(Entry) {})
	if err == nil {
		t.Fatal("want an error")
	}
}
