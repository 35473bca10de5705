// Package scan walks a watched folder and lists the files the filters let
// into the index, without reading them.
package scan

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"trove/backend/engine/text/pathglob"
)

// Matcher is the part of the filters a scan needs.
type Matcher interface {
	Allow(abs, rel string) bool
	SkipDir(abs, rel string) bool
}

// Options shape one scan.
type Options struct {
	Recursive   bool
	FilePattern string // optional glob on the file name
	// Dir is called for every folder entered, the root included, before its
	// files are listed (the watcher adds a watch there, so that nothing
	// created during the scan is missed). An error stops the walk of that
	// folder's subtree only; it is reported through DirError.
	Dir      func(path string) error
	DirError func(path string, err error)
}

// Entry is one file found.
type Entry struct {
	Path    string
	Size    int64
	ModNs   int64
	Regular bool // false for FIFOs, sockets and devices: recorded, never read
}

// Walk lists the files under root in lexical order, calling fn for each.
// Symbolic links are not followed (they would index content twice, or
// outside the folder). A folder that cannot be read is reported and
// skipped; only a root that cannot be read is an error.
func Walk(ctx context.Context, root string, m Matcher, opt Options, fn func(Entry)) error {
	if _, err := os.Stat(root); err != nil {
		return err
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			if path == root {
				return err
			}
			if opt.DirError != nil {
				opt.DirError(path, err)
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel := Rel(root, path)
		if d.IsDir() {
			return enterDir(root, path, rel, m, opt)
		}
		if d.Type()&fs.ModeSymlink != 0 || !m.Allow(path, rel) || !MatchesPattern(opt.FilePattern, path, rel) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // vanished since the directory was read
		}
		if err != nil {
			return nil
		}
		fn(Entry{Path: path, Size: info.Size(), ModNs: info.ModTime().UnixNano(), Regular: info.Mode().IsRegular()})
		return nil
	})
}

func enterDir(root, path, rel string, m Matcher, opt Options) error {
	if path != root {
		if !opt.Recursive || m.SkipDir(path, rel) {
			return fs.SkipDir
		}
	}
	if opt.Dir != nil {
		if err := opt.Dir(path); err != nil {
			if path == root {
				return err
			}
			if opt.DirError != nil {
				opt.DirError(path, err)
			}
		}
	}
	return nil
}

// Rel is path below root, slash-separated, as filters match it; "." for
// root itself.
func Rel(root, path string) string {
	if path == root {
		return "."
	}
	if strings.HasPrefix(path, root+string(filepath.Separator)) {
		return filepath.ToSlash(path[len(root)+1:])
	}
	if root == "/" && strings.HasPrefix(path, "/") {
		return path[1:]
	}
	return filepath.ToSlash(path)
}

// MatchesPattern applies a watch job's optional file_pattern to the file at
// abs, rel below the watched folder (see pathglob for the reading).
func MatchesPattern(pattern, abs, rel string) bool { return pathglob.Match(pattern, abs, rel) }

// Within reports whether path is root or lies below it (see pathglob).
func Within(root, path string) bool { return pathglob.Within(root, path) }

// Gone reports whether err, from a stat or an open, says nothing is at the
// path any more: it does not exist, or a folder on the way to it was
// replaced by a file (ENOTDIR), which leaves the path just as empty.
func Gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
