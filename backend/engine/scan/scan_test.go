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
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(r), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func walk(t *testing.T, f Folder, m Matcher) (files, dirs []string) {
	t.Helper()
	root := f.Root
	opt := Options{Dir: func(p string) error { dirs = append(dirs, Rel(root, p)); return nil }}
	err := Walk(context.Background(), f, root, m, opt, func(e Entry) { files = append(files, Rel(root, e.Path)) })
	if err != nil {
		t.Fatal(err)
	}
	return
}

func TestWalkAppliesFiltersAndSkipsExcludedFolders(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "sub/b.md", "node_modules/x/y.js", ".git/HEAD", "sub/c.swp")
	d := filters.Defaults()
	files, dirs := walk(t, Folder{Root: root, Recursive: true}, filters.NewMatcher(d.Mode, d.Include, d.Exclude))
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
	files, _ := walk(t, Folder{Root: root}, all)
	if !slices.Equal(files, []string{"a.txt", "b.md"}) {
		t.Fatalf("non-recursive: %v", files)
	}
	files, _ = walk(t, Folder{Root: root, Recursive: true, Pattern: "*.md"}, all)
	if !slices.Equal(files, []string{"b.md", "sub/c.md"}) {
		t.Fatalf("pattern: %v", files)
	}
}

// The folder's rule is one, whoever asks: a walk of the whole folder, a
// walk of a folder new below it (whose pattern and filters still read
// paths from the watched root), and a single path.
func TestAdmitsIsTheRuleOfEveryWalk(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.md", "docs/b.md", "docs/deep/c.md", "docs/d.txt", "other/e.md")
	all := filters.NewMatcher("blacklist", nil, nil)
	f := Folder{Root: root, Recursive: true, Pattern: "docs/*.md"}
	whole, _ := walk(t, f, all)
	if !slices.Equal(whole, []string{"docs/b.md"}) {
		t.Fatalf("whole folder: %v", whole)
	}
	var sub []string
	if err := Walk(context.Background(), f, filepath.Join(root, "docs"), all, Options{}, func(e Entry) { sub = append(sub, Rel(root, e.Path)) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sub, whole) {
		t.Errorf("a walk from docs/ admits %v, the whole folder's %v", sub, whole)
	}
	for _, rel := range []string{"a.md", "docs/b.md", "docs/deep/c.md", "docs/d.txt", "other/e.md"} {
		if got, want := f.Admits(all, filepath.Join(root, rel)), slices.Contains(whole, rel); got != want {
			t.Errorf("Admits(%s) = %v, the walk says %v", rel, got, want)
		}
	}
	if f.Admits(all, root) || f.Admits(all, filepath.Dir(root)+"/elsewhere.md") {
		t.Error("the root itself, or a path outside it, is admitted")
	}
	if (Folder{Root: root}).Admits(all, filepath.Join(root, "docs/b.md")) {
		t.Error("a folder watched at its top level admits a file below it")
	}
}

func TestWalkSkipsSymlinksAndReportsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, "real.txt")
	if err := os.Symlink(filepath.Join(root, "real.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	Walk(context.Background(), Folder{Root: root, Recursive: true}, root, filters.NewMatcher("blacklist", nil, nil), Options{}, func(e Entry) { entries = append(entries, e) })
	if len(entries) != 2 || entries[0].Regular || Rel(root, entries[0].Path) != "pipe" || !entries[1].Regular {
		t.Fatalf("entries %+v", entries)
	}
}

func TestWalkMissingRootIsAnError(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	err := Walk(context.Background(), Folder{Root: gone}, gone, filters.NewMatcher("blacklist", nil, nil), Options{}, func(Entry) {})
	if err == nil {
		t.Fatal("want an error")
	}
}
