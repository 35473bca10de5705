package indexer

import (
	"path/filepath"

	"trove/backend/core"
	"trove/backend/engine/scan"
)

// ownDirs are Trove's own data and config folders. They are never watched,
// scanned, queued or indexed, whatever the filters say: the index changes
// with every write Trove makes, so indexing it would never end (the default
// layout puts both inside a watched home folder).
type ownDirs []string

// newOwnDirs lists each folder as given (made absolute) and as the disk
// resolves it, since watched folders are stored resolved.
func newOwnDirs(dirs []string) ownDirs {
	var out ownDirs
	add := func(d string) {
		for _, x := range out {
			if x == d {
				return
			}
		}
		out = append(out, d)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		add(abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			add(real)
		}
	}
	return out
}

// covers reports whether path is one of the folders or lies below one.
func (o ownDirs) covers(path string) bool {
	for _, d := range o {
		if scan.Within(d, path) {
			return true
		}
	}
	return false
}

// refuse rejects a folder to watch that lies inside one of Trove's own.
func (o ownDirs) refuse(root string) error {
	for _, d := range o {
		if scan.Within(d, root) {
			return core.Fail(core.BadPath, "%s is inside Trove's own data or settings folder %s, which is never indexed", root, d)
		}
	}
	return nil
}

// ownMatcher applies the filters, and always leaves Trove's own folders out.
type ownMatcher struct {
	m interface {
		Allow(abs, rel string) bool
		SkipDir(abs, rel string) bool
	}
	own ownDirs
}

func (o ownMatcher) Allow(abs, rel string) bool   { return !o.own.covers(abs) && o.m.Allow(abs, rel) }
func (o ownMatcher) SkipDir(abs, rel string) bool { return o.own.covers(abs) || o.m.SkipDir(abs, rel) }
