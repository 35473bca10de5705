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

// Folder is a watched folder, as far as which of its files it admits.
type Folder struct {
	Root      string
	Recursive bool   // below its top level too
	Pattern   string // optional glob on the file's name, or its path below Root
}

// Admits is the one rule of which files a watched folder indexes: a path
// below its root (at its top level only, unless it is recursive) that the
// filters allow and its pattern matches. Scans, events and the pipeline
// all ask it, each with the filters of the moment.
func (f Folder) Admits(m Matcher, path string) bool {
	if path == f.Root || !Within(f.Root, path) {
		return false
	}
	rel := Rel(f.Root, path)
	return (f.Recursive || !strings.Contains(rel, "/")) && m.Allow(path, rel) && MatchesPattern(f.Pattern, path, rel)
}

// Enters tells whether a walk of the folder goes into the folder at dir
// below its root.
func (f Folder) Enters(m Matcher, dir string) bool {
	return f.Recursive && !m.SkipDir(dir, Rel(f.Root, dir))
}

// Options shape one scan.
type Options struct {
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
	// Info is the file's Lstat, as the walk saw it (its times and inode
	// make the names pass's record).
	Info fs.FileInfo
}

// Walk lists the files folder f admits below start (its root, or a folder
// below it), in lexical order, calling fn for each. Symbolic links are not
// followed (they would index content twice, or outside the folder). A
// folder that cannot be read is reported and skipped; only a start that
// cannot be read is an error.
func Walk(ctx context.Context, f Folder, start string, m Matcher, opt Options, fn func(Entry)) error {
	root := start
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
		if d.IsDir() {
			return enterDir(f, root, path, m, opt)
		}
		if d.Type()&fs.ModeSymlink != 0 || !f.Admits(m, path) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // vanished since the directory was read
		}
		if err != nil {
			return nil
		}
		fn(Entry{Path: path, Size: info.Size(), ModNs: info.ModTime().UnixNano(), Regular: info.Mode().IsRegular(), Info: info})
		return nil
	})
}

func enterDir(f Folder, start, path string, m Matcher, opt Options) error {
	if path != start && !f.Enters(m, path) {
		return fs.SkipDir
	}
	if opt.Dir != nil {
		if err := opt.Dir(path); err != nil {
			if path == start {
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
