package search

import (
	"path/filepath"
	"testing"

	"trove/backend/engine/filters"
	"trove/backend/engine/scan"
)

// The filters, a watch job's file_pattern and the search path filter read
// a glob the same way (package pathglob): for a file in a watched folder, a
// whitelist of one include pattern keeps the files that the same
// file_pattern lets a scan list and that the same search path filter
// keeps. Two differences are documented and pinned here: a filter glob
// without "/" also names folders (everything inside a matching folder,
// as in .gitignore), and a search, which does not know the watched
// folder, lets a relative glob start at any folder of the path.
func TestFiltersScanAndSearchReadGlobsAlike(t *testing.T) {
	root := "/home/me/docs"
	files := []string{"a.md", "notes/b.md", "notes/x/c.md", "x/notes/d.md", "2024/q1/report.pdf", "notes.md/e.txt", ".git/config"}
	globs := []string{
		"*.md", "report*", "**/2024/**", "notes/*.md", "notes/**", "/home/me/docs/notes/*.md", "/home/me/**/*.pdf",
		"**/*.{md,pdf}", "**/.git/**", "x/**", "*/q1/*", "[an]*.md",
	}
	// Where the readings differ on purpose: glob and file -> who matches.
	const filterOnly, searchOnly = "filters (a folder's name)", "search (no watched folder)"
	differ := map[[2]string]string{
		{"*.md", "notes.md/e.txt"}:     filterOnly,
		{"[an]*.md", "notes.md/e.txt"}: filterOnly,
		{"notes/*.md", "x/notes/d.md"}: searchOnly,
		{"notes/**", "x/notes/d.md"}:   searchOnly,
		{"x/**", "notes/x/c.md"}:       searchOnly,
	}
	agreed := 0
	for _, glob := range globs {
		m := filters.NewMatcher("whitelist", []string{glob}, nil)
		for _, rel := range files {
			abs := filepath.Join(root, rel)
			byFilter := m.Allow(abs, rel)
			byScan := scan.MatchesPattern(glob, abs, scan.Rel(root, abs))
			bySearch := globMatch(glob, abs)
			switch differ[[2]string{glob, rel}] {
			case filterOnly:
				if !byFilter || byScan || bySearch {
					t.Errorf("%q on %s: filters %v, scan %v, search %v; want the filters only", glob, rel, byFilter, byScan, bySearch)
				}
			case searchOnly:
				if byFilter || byScan || !bySearch {
					t.Errorf("%q on %s: filters %v, scan %v, search %v; want the search only", glob, rel, byFilter, byScan, bySearch)
				}
			default:
				if byFilter != byScan || byScan != bySearch {
					t.Errorf("%q on %s: filters %v, scan %v, search %v; want one answer", glob, rel, byFilter, byScan, bySearch)
				}
				if byFilter {
					agreed++
				}
			}
		}
	}
	if agreed < 20 {
		t.Errorf("only %d matches agreed: the table tests too little", agreed)
	}
}
