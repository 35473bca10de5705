package service

import (
	"fmt"
	"path/filepath"

	"trove/backend/core"
	"trove/backend/engine/scan"
)

// systemFolders hold the system's own state, not a person's documents:
// watching one would index kernel interfaces, devices that block a reader,
// or secrets (/etc, /var/lib), and / would take in all of them. They are
// refused unless a watch request says force. A folder is refused when it
// is one of these or inside one, after resolving symbolic links. Installed
// documentation and source trees (/usr/share/doc, /usr/local/go) and logs
// stay allowed: people search them.
//
// A names-only watch reads no file, so folders refused for what their
// files hold (names: true) are allowed to it: finding /etc/fstab by name
// tells nothing of its content. Folders whose very names are the
// kernel's or running programs' passing state stay refused.
var systemFolders = []struct {
	root, what string
	names      bool // allowed to a names-only watch
}{
	{"/proc", "the kernel's view of processes", false},
	{"/sys", "the kernel's view of devices and drivers", false},
	{"/dev", "device files", false},
	{"/run", "the state of running programs", false},
	{"/var/run", "the state of running programs", false},
	{"/var/lock", "the state of running programs", false},
	{"/boot", "the boot loader and kernels", true},
	{"/etc", "the system's configuration, which holds keys and passwords", true},
	{"/var/lib", "programs' own data", true},
	{"/var/cache", "programs' caches", true},
}

// systemParents are folders refused themselves (not what is inside them),
// because they hold system folders: / holds everything (/proc, /sys and
// Trove's own index among them, so not even by name). /var holds no
// folder refused by name.
var systemParents = map[string]struct {
	what  string
	names bool
}{
	"/":    {"the whole file system", false},
	"/var": {"programs' data, caches and logs", true},
}

// ownDir is one of Trove's own folders.
type ownDir struct{ path, what string }

func ownDirsOf(data, config string) []ownDir {
	var out []ownDir
	for _, d := range []ownDir{{data, "Trove's own data folder (its index)"}, {config, "Trove's own settings folder"}} {
		if d.path == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d.path); err == nil {
			d.path = real
		}
		out = append(out, ownDir{filepath.Clean(d.path), d.what})
	}
	return out
}

// refuseSystemFolder refuses to watch a system folder or Trove's own, in
// whatever form the path names it (.., //, a trailing slash, a symbolic
// link). Paths that do not resolve are left to the indexer, which says
// what is wrong with them.
func (s *Service) refuseSystemFolder(path string, namesOnly bool) error {
	if !filepath.IsAbs(path) {
		return nil
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return nil
	}
	what, names := s.systemFolder(real)
	if what == "" || namesOnly && names {
		return nil
	}
	hint := ""
	if names {
		hint = ` (or "names_only": true, which reads no file)`
	}
	name := real
	if clean := filepath.Clean(path); clean != real {
		name = fmt.Sprintf("%s (%s)", path, real)
	}
	return core.Fail(core.BadPath, `%s is %s, not a folder of documents: Trove does not watch it unless the request says "force": true, `+
		`which indexes all it holds (keys, passwords, device files a read can block on) and makes it searchable by every client of the API`+hint, name, what)
}

// systemFolder says what kind of system folder real is, or "", and
// whether a names-only watch may take it.
func (s *Service) systemFolder(real string) (what string, names bool) {
	if p, ok := systemParents[real]; ok {
		return p.what, p.names
	}
	for _, d := range s.ownDirs {
		if scan.Within(d.path, real) {
			return d.what, false
		}
	}
	for _, f := range systemFolders {
		if scan.Within(f.root, real) {
			return f.what, f.names
		}
	}
	if fs := virtualFS(real); fs != "" {
		return "on a virtual file system (" + fs + ")", false
	}
	return "", false
}
