package filters

import (
	"strings"

	"trove/backend/engine/text/pathglob"
)

// A pattern is matched in one of three ways, chosen by its shape:
//
//   - it starts with "/": against the file's absolute path;
//   - it has no "/" at all ("node_modules", "*.log"): against every component
//     of the path below the watched folder, as .gitignore does, so a folder
//     name excludes everything inside it;
//   - otherwise: against the path relative to the watched folder, with
//     doublestar's "**" for any depth ("**/.git/**", "notes/*.md").
//
// The common shapes get fast paths; TestFastPathsAgreeWithDoublestar keeps
// them equal to doublestar's own answers.
type pattern struct {
	raw  string
	kind patternKind
	lit  string // the literal of the fast kinds
}

type patternKind int

const (
	kindAbsolute  patternKind = iota
	kindComponent             // no slash: glob against each component
	kindAnyDir                // "**/LIT/**": some component equals LIT
	kindBase                  // "**/GLOB" (no braces): the last component matches GLOB
	kindRelative              // anything else: doublestar on the relative path
)

func compile(raw string) pattern {
	p := pattern{raw: raw, kind: kindRelative}
	switch {
	case strings.HasPrefix(raw, "/"):
		p.kind = kindAbsolute
	case !strings.Contains(raw, "/"):
		p.kind = kindComponent
	case strings.HasPrefix(raw, "**/") && strings.HasSuffix(raw, "/**") && len(raw) > 6 && pathglob.IsLiteral(raw[3:len(raw)-3]):
		p.kind, p.lit = kindAnyDir, raw[3:len(raw)-3]
	case strings.HasPrefix(raw, "**/") && len(raw) > 3 && !strings.ContainsAny(raw[3:], "/{}") && !strings.Contains(raw[3:], "**"):
		// Braces stay with doublestar: it reads an empty alternative after
		// a star ("0*{}") one way in a name and another after "**/".
		p.kind, p.lit = kindBase, raw[3:]
	}
	return p
}

// matches reports whether the pattern matches a file or folder at rel (the
// slash-separated path below the watched folder) and abs (its absolute path).
func (p pattern) matches(abs, rel string) bool {
	switch p.kind {
	case kindComponent:
		for c := range strings.SplitSeq(rel, "/") {
			if pathglob.Name(p.raw, c) {
				return true
			}
		}
		return false
	case kindAnyDir:
		for c := range strings.SplitSeq(rel, "/") {
			if c == p.lit {
				return true
			}
		}
		return false
	case kindBase:
		return rel != "" && pathglob.Name(p.lit, rel[strings.LastIndexByte(rel, '/')+1:])
	default: // kindAbsolute, kindRelative
		return pathglob.Match(p.raw, abs, rel)
	}
}

// coversSubtree reports whether, when the pattern matches a folder, it also
// matches everything inside it, so a scan may skip the folder entirely.
func (p pattern) coversSubtree() bool {
	switch p.kind {
	case kindComponent, kindAnyDir:
		return true
	case kindAbsolute, kindRelative:
		return strings.HasSuffix(p.raw, "/**")
	}
	return false
}

// Matcher decides which files the filters let into the index. It is an
// immutable snapshot of one configuration, safe for concurrent use.
type Matcher struct {
	whitelist bool
	include   []pattern
	exclude   []pattern
}

// NewMatcher compiles the active mode's patterns of cfg.
func NewMatcher(mode string, include, exclude []string) *Matcher {
	m := &Matcher{whitelist: mode == modeWhitelist}
	for _, p := range include {
		m.include = append(m.include, compile(p))
	}
	for _, p := range exclude {
		m.exclude = append(m.exclude, compile(p))
	}
	return m
}

// Allow reports whether a file belongs in the index. In blacklist mode a file
// is kept unless an exclude pattern matches it and no include pattern (an
// exception) does; in whitelist mode it is kept when an include pattern
// matches it and no exclude pattern does.
func (m *Matcher) Allow(abs, rel string) bool {
	if m.whitelist {
		return anyMatch(m.include, abs, rel) && !anyMatch(m.exclude, abs, rel)
	}
	return !anyMatch(m.exclude, abs, rel) || anyMatch(m.include, abs, rel)
}

// SkipDir reports whether a scan can skip a whole folder: an exclude pattern
// covers all of it and no include exception could bring a file back.
func (m *Matcher) SkipDir(abs, rel string) bool {
	if !m.whitelist && len(m.include) > 0 {
		return false
	}
	for _, p := range m.exclude {
		if p.coversSubtree() && p.matches(abs, rel) {
			return true
		}
	}
	return false
}

func anyMatch(ps []pattern, abs, rel string) bool {
	for _, p := range ps {
		if p.matches(abs, rel) {
			return true
		}
	}
	return false
}
