package views

import (
	"path/filepath"
	"strings"

	"trove/backend/core"
)

// blank reports whether a path or pattern a request names is empty or only
// blanks: what a script sends for an unset variable ("$DIR"). Such a value
// must not quietly mean the current folder, or every folder, so each
// request that takes a path refuses it, naming the field.
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// LookupPath checks the path of GET /api/files/lookup: given, and absolute
// (a relative one would be read against Trove's working folder).
func LookupPath(p string) (string, error) {
	switch {
	case blank(p):
		return "", core.FailField(core.MissingField, "path", "required, and not blank: /api/files/lookup?path=/absolute/path")
	case !filepath.IsAbs(p):
		return "", core.FailField(core.BadPath, "path", "must be an absolute path, got %q", p)
	}
	return p, nil
}

// folderPath checks the folder a watch request names in field and expands
// a leading ~.
func folderPath(field string, p *string) (string, error) {
	switch {
	case p == nil:
		return "", core.FailField(core.BadPath, field, "required: the absolute path of a folder")
	case blank(*p):
		return "", core.FailField(core.BadPath, field, "is empty: give the absolute path of a folder")
	}
	abs := expandHome(*p)
	if !filepath.IsAbs(abs) {
		return "", core.FailField(core.BadPath, field, "must be an absolute path, got %q", *p)
	}
	return abs, nil
}
