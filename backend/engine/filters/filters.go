// Package filters decides which files are indexed: the filter configuration
// file (per-mode pattern lists, a version bumped on every change) and the
// compiled glob matcher built from it.
package filters

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"trove/backend/core"
	"trove/backend/platform/atomicfile"
)

// FileName is the filter configuration file inside the config directory.
const FileName = "filters.json"

const (
	modeBlacklist = core.ModeBlacklist
	modeWhitelist = core.ModeWhitelist

	maxPatterns   = 1000
	maxPatternLen = 1024
)

// stored is the file format: the patterns of both modes and the version.
type stored struct {
	Version          int      `json:"version"`
	Mode             string   `json:"mode"`
	BlacklistExclude []string `json:"blacklist_exclude"`
	BlacklistInclude []string `json:"blacklist_include"`
	WhitelistInclude []string `json:"whitelist_include"`
	WhitelistExclude []string `json:"whitelist_exclude"`
}

// Manager owns the filter configuration. It is safe for concurrent use.
type Manager struct {
	path string
	log  *slog.Logger

	mu      sync.RWMutex
	cur     stored
	matcher *Matcher
}

// Open loads the configuration from configDir, writing the defaults there on
// first start so that config_path always names a real file. Invalid patterns
// in a hand-edited file are dropped (and logged); a file that is not JSON is
// moved aside and replaced by the defaults.
func Open(configDir string, log *slog.Logger) (*Manager, error) {
	m := &Manager{path: filepath.Join(configDir, FileName), log: log}
	abs, err := filepath.Abs(m.path)
	if err != nil {
		return nil, fmt.Errorf("filters path: %w", err)
	}
	m.path = abs
	data, err := os.ReadFile(m.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, m.replace(fromPatterns(Defaults(), 1))
	case err != nil:
		return nil, fmt.Errorf("read filters: %w", err)
	}
	var st stored
	if err := json.Unmarshal(data, &st); err != nil {
		aside := m.path + ".corrupt"
		log.Warn("filter file is not valid JSON; using defaults", "path", m.path, "moved_to", aside, "err", err)
		if err := os.Rename(m.path, aside); err != nil {
			return nil, fmt.Errorf("move aside corrupt filters: %w", err)
		}
		return m, m.replace(fromPatterns(Defaults(), 1))
	}
	m.cur = m.sanitize(st)
	m.matcher = m.cur.matcher()
	return m, nil
}

// sanitize repairs a stored configuration read from disk.
func (m *Manager) sanitize(st stored) stored {
	if st.Mode != modeBlacklist && st.Mode != modeWhitelist {
		m.log.Warn("unknown filter mode in file; using blacklist", "mode", st.Mode)
		st.Mode = modeBlacklist
	}
	keep := func(list []string) []string {
		out := []string{}
		for _, p := range list {
			if clean, err := CheckPattern(p); err == nil {
				out = appendUnique(out, clean)
			} else {
				m.log.Warn("dropping invalid filter pattern from file", "pattern", p, "err", err)
			}
		}
		return out
	}
	st.BlacklistExclude = keep(st.BlacklistExclude)
	st.BlacklistInclude = keep(st.BlacklistInclude)
	st.WhitelistInclude = keep(st.WhitelistInclude)
	st.WhitelistExclude = keep(st.WhitelistExclude)
	if st.Version < 1 {
		st.Version = 1
	}
	return st
}

// Config returns the current configuration in the API's shape.
func (m *Manager) Config() core.FilterConfig {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cur.config(m.path)
}

// Matcher returns the compiled matcher of the current configuration.
func (m *Manager) Matcher() *Matcher {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.matcher
}

// Update applies a partial update: the mode first, then the legacy
// include/exclude arrays (which address the resulting active mode), then the
// explicit per-mode arrays. Nothing changes unless everything is valid. It
// reports whether the configuration changed.
func (m *Manager) Update(u core.FilterUpdate) (core.FilterConfig, bool, error) {
	return m.edit(func(st *stored) error {
		if u.Mode != nil {
			if *u.Mode != modeBlacklist && *u.Mode != modeWhitelist {
				return core.FailField(core.BadMode, "mode", "%q is not a mode (use blacklist or whitelist)", *u.Mode)
			}
			st.Mode = *u.Mode
		}
		lists := []struct {
			field string
			value *[]string
			dst   *[]string
		}{
			{"exclude", u.Exclude, st.active(false)},
			{"include", u.Include, st.active(true)},
			{"blacklist_exclude", u.BlacklistExclude, &st.BlacklistExclude},
			{"blacklist_include", u.BlacklistInclude, &st.BlacklistInclude},
			{"whitelist_include", u.WhitelistInclude, &st.WhitelistInclude},
			{"whitelist_exclude", u.WhitelistExclude, &st.WhitelistExclude},
		}
		for _, l := range lists {
			if l.value == nil {
				continue
			}
			clean, err := checkList(l.field, *l.value)
			if err != nil {
				return err
			}
			*l.dst = clean
		}
		return nil
	})
}

// PatternTypes are the accepted pattern_type values: the active mode's
// exclude or include list, or one list of a named mode.
var PatternTypes = []string{"exclude", "include", "blacklist_exclude", "blacklist_include", "whitelist_include", "whitelist_exclude"}

// AddPattern adds one pattern to a list. Adding a pattern already present is
// not an error; it reports changed=false.
func (m *Manager) AddPattern(pattern, patternType string) (core.FilterConfig, bool, error) {
	clean, err := CheckPattern(pattern)
	if err != nil {
		return core.FilterConfig{}, false, core.FailField(core.BadPattern, "pattern", "%v", err)
	}
	return m.edit(func(st *stored) error {
		list, err := st.list(patternType)
		if err != nil {
			return err
		}
		*list = appendUnique(*list, clean)
		return nil
	})
}

// RemovePattern removes one pattern from a list; a pattern not in the list
// is a not-found error.
func (m *Manager) RemovePattern(pattern, patternType string) (core.FilterConfig, error) {
	pattern = strings.TrimSpace(pattern)
	cfg, _, err := m.edit(func(st *stored) error {
		list, err := st.list(patternType)
		if err != nil {
			return err
		}
		i := slices.Index(*list, pattern)
		if i < 0 {
			return core.Fail(core.UnknownPattern, "pattern %q is not among the %s patterns", pattern, patternType)
		}
		*list = slices.Delete(slices.Clone(*list), i, i+1)
		return nil
	})
	return cfg, err
}

// Reset restores the default patterns and mode; the version still moves
// forward, so clients notice the change.
func (m *Manager) Reset() (core.FilterConfig, error) {
	cfg, _, err := m.edit(func(st *stored) error {
		d := fromPatterns(Defaults(), st.Version)
		*st = d
		return nil
	})
	return cfg, err
}

// edit runs fn on a copy of the configuration and, when it changed
// something, bumps the version, saves the file and swaps the matcher.
func (m *Manager) edit(fn func(*stored) error) (core.FilterConfig, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	next := m.cur.clone()
	if err := fn(&next); err != nil {
		return m.cur.config(m.path), false, err
	}
	if next.equal(m.cur) {
		return m.cur.config(m.path), false, nil
	}
	next.Version = m.cur.Version + 1
	if err := m.replace(next); err != nil {
		return m.cur.config(m.path), false, err
	}
	return m.cur.config(m.path), true, nil
}

// replace saves st and makes it current. Callers hold mu (or own m alone).
func (m *Manager) replace(st stored) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode filters: %w", err)
	}
	if err := atomicfile.Write(m.path, append(data, '\n'), 0o600); err != nil {
		return err
	}
	m.cur = st
	m.matcher = st.matcher()
	return nil
}

func fromPatterns(p core.FilterPatterns, version int) stored {
	return stored{
		Version: version, Mode: p.Mode,
		BlacklistExclude: p.BlacklistExclude, BlacklistInclude: p.BlacklistInclude,
		WhitelistInclude: p.WhitelistInclude, WhitelistExclude: p.WhitelistExclude,
	}
}

// active returns the active mode's include or exclude list.
func (st *stored) active(include bool) *[]string {
	switch {
	case st.Mode == modeWhitelist && include:
		return &st.WhitelistInclude
	case st.Mode == modeWhitelist:
		return &st.WhitelistExclude
	case include:
		return &st.BlacklistInclude
	default:
		return &st.BlacklistExclude
	}
}

func (st *stored) list(patternType string) (*[]string, error) {
	switch patternType {
	case "exclude":
		return st.active(false), nil
	case "include":
		return st.active(true), nil
	case "blacklist_exclude":
		return &st.BlacklistExclude, nil
	case "blacklist_include":
		return &st.BlacklistInclude, nil
	case "whitelist_include":
		return &st.WhitelistInclude, nil
	case "whitelist_exclude":
		return &st.WhitelistExclude, nil
	}
	return nil, core.FailField(core.BadPatternType, "pattern_type",
		"%q is not a pattern type (use one of: %s)", patternType, strings.Join(PatternTypes, ", "))
}

func (st stored) matcher() *Matcher {
	c := st
	return NewMatcher(st.Mode, *c.active(true), *c.active(false))
}

func (st stored) config(path string) core.FilterConfig {
	c := st.clone()
	return core.FilterConfig{
		Version: c.Version,
		FilterPatterns: core.FilterPatterns{
			Mode:    c.Mode,
			Exclude: slices.Clone(*c.active(false)), Include: slices.Clone(*c.active(true)),
			BlacklistExclude: c.BlacklistExclude, BlacklistInclude: c.BlacklistInclude,
			WhitelistInclude: c.WhitelistInclude, WhitelistExclude: c.WhitelistExclude,
		},
		ConfigPath: path,
	}
}

func (st stored) clone() stored {
	cl := func(s []string) []string { return append([]string{}, s...) }
	st.BlacklistExclude, st.BlacklistInclude = cl(st.BlacklistExclude), cl(st.BlacklistInclude)
	st.WhitelistInclude, st.WhitelistExclude = cl(st.WhitelistInclude), cl(st.WhitelistExclude)
	return st
}

func (st stored) equal(o stored) bool {
	return st.Mode == o.Mode &&
		slices.Equal(st.BlacklistExclude, o.BlacklistExclude) && slices.Equal(st.BlacklistInclude, o.BlacklistInclude) &&
		slices.Equal(st.WhitelistInclude, o.WhitelistInclude) && slices.Equal(st.WhitelistExclude, o.WhitelistExclude)
}

// checkList validates every pattern of a list and drops duplicates.
func checkList(field string, list []string) ([]string, error) {
	if len(list) > maxPatterns {
		return nil, core.FailField(core.BadPattern, field, "at most %d patterns", maxPatterns)
	}
	out := []string{}
	for i, p := range list {
		clean, err := CheckPattern(p)
		if err != nil {
			return nil, core.FailField(core.BadPattern, fmt.Sprintf("%s[%d]", field, i), "%v", err)
		}
		out = appendUnique(out, clean)
	}
	return out, nil
}

// CheckPattern trims a pattern and checks it is a valid doublestar glob.
func CheckPattern(p string) (string, error) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", errors.New("empty pattern")
	case len(p) > maxPatternLen:
		return "", fmt.Errorf("pattern longer than %d characters", maxPatternLen)
	case strings.ContainsRune(p, 0):
		return "", errors.New("pattern contains a NUL byte")
	case !doublestar.ValidatePattern(p):
		return "", fmt.Errorf("%q is not a valid glob pattern (check brackets [ ] and braces { })", p)
	}
	return p, nil
}

func appendUnique(list []string, p string) []string {
	if slices.Contains(list, p) {
		return list
	}
	return append(list, p)
}
