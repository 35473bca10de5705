// Package pathglob is Trove's one reading of a glob on a file's path. The
// filters, a watch job's file_pattern and the search path filter all match
// through it, so a pattern means the same wherever it is written:
//
//   - no "/" at all ("*.md", "report*"): the file's name;
//   - starting with "/": the absolute path;
//   - anything else ("notes/*.md", "**/2024/**"): the path below the
//     watched folder. Where that folder is not known (a search across
//     folders), the path below any of its folders: the glob may start at
//     any component.
//
// Globs are doublestar's (`*`, `?`, `[abc]`, `{a,b}`, `**` for any number
// of folders), case-sensitive, on slash-separated paths.
//
// Within is the one test of whether a path lies in a folder, for the same
// reason: the queue, the watcher, the scans and the indexer agree on it.
package pathglob

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Valid reports whether glob is well-formed.
func Valid(glob string) bool { return doublestar.ValidatePattern(glob) }

// Match reports whether glob matches the file at abs, whose path below its
// watched folder is rel ("" when the folder is not known). The empty glob
// matches everything.
func Match(glob, abs, rel string) bool {
	switch {
	case glob == "":
		return true
	case !strings.Contains(glob, "/"):
		return Name(glob, abs[strings.LastIndexByte(abs, '/')+1:])
	case strings.HasPrefix(glob, "/"):
		ok, _ := doublestar.Match(glob, abs)
		return ok
	case rel != "":
		ok, _ := doublestar.Match(glob, rel)
		return ok
	}
	if !strings.HasPrefix(glob, "**") {
		glob = "**/" + glob
	}
	ok, _ := doublestar.Match(glob, abs)
	return ok
}

// Name matches a glob without "/" against one name. Literal globs and
// "*.ext" take fast paths: a scan asks this for every file.
func Name(glob, name string) bool {
	if IsLiteral(glob) {
		return glob == name
	}
	if strings.HasPrefix(glob, "*") && IsLiteral(glob[1:]) {
		return strings.HasSuffix(name, glob[1:])
	}
	ok, _ := doublestar.Match(glob, name)
	return ok
}

// IsLiteral reports whether s is one path component with no glob syntax.
func IsLiteral(s string) bool {
	return s != "" && !strings.ContainsAny(s, `*?[]{}\/`)
}

// Within reports whether path is root or lies below it, comparing whole
// path components ("/a/notes-old" is not within "/a/notes").
func Within(root, path string) bool {
	if path == root {
		return true
	}
	if root == "/" {
		return strings.HasPrefix(path, "/")
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}
