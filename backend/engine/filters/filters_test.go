package filters

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trove/backend/core"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func open(t *testing.T, dir string) *Manager {
	t.Helper()
	m, err := Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

func TestOpenWritesDefaults(t *testing.T) {
	dir := t.TempDir()
	cfg := open(t, dir).Config()
	if cfg.Version != 1 || cfg.Mode != core.ModeBlacklist || cfg.ConfigPath != filepath.Join(dir, FileName) {
		t.Fatalf("cfg = %+v", cfg)
	}
	if _, err := os.Stat(cfg.ConfigPath); err != nil {
		t.Fatalf("config file not written: %v", err)
	}
	if !slices.Equal(cfg.Exclude, cfg.BlacklistExclude) || len(cfg.Exclude) == 0 {
		t.Fatal("legacy exclude must mirror blacklist_exclude")
	}
}

func TestSwitchingModesKeepsPatterns(t *testing.T) {
	dir := t.TempDir()
	m := open(t, dir)
	_, _, err := m.Update(core.FilterUpdate{BlacklistExclude: &[]string{"*.log"}, WhitelistInclude: &[]string{"**/*.md"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, changed, err := m.Update(core.FilterUpdate{Mode: ptr(core.ModeWhitelist)})
	if err != nil || !changed {
		t.Fatal(err, changed)
	}
	if !slices.Equal(cfg.Include, []string{"**/*.md"}) || !slices.Equal(cfg.BlacklistExclude, []string{"*.log"}) {
		t.Fatalf("after switch: %+v", cfg)
	}
	cfg, _, _ = m.Update(core.FilterUpdate{Mode: ptr(core.ModeBlacklist)})
	if !slices.Equal(cfg.Exclude, []string{"*.log"}) || !slices.Equal(cfg.WhitelistInclude, []string{"**/*.md"}) {
		t.Fatalf("after switching back: %+v", cfg)
	}
	if cfg.Version != 4 {
		t.Fatalf("version = %d, want 4 after three changes", cfg.Version)
	}
	if again := open(t, dir).Config(); again.Version != 4 || !slices.Equal(again.WhitelistInclude, []string{"**/*.md"}) {
		t.Fatalf("not persisted: %+v", again)
	}
}

func TestLegacyArraysAddressTheResultingMode(t *testing.T) {
	m := open(t, t.TempDir())
	cfg, _, err := m.Update(core.FilterUpdate{Mode: ptr(core.ModeWhitelist), Include: &[]string{"**/*.pdf"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.WhitelistInclude, []string{"**/*.pdf"}) {
		t.Fatalf("legacy include did not land in whitelist_include: %+v", cfg)
	}
}

func TestInvalidUpdateChangesNothing(t *testing.T) {
	dir := t.TempDir()
	m := open(t, dir)
	before := m.Config()
	for _, u := range []core.FilterUpdate{
		{Mode: ptr("greylist")},
		{BlacklistExclude: &[]string{"ok/**", "[unclosed"}},
		{WhitelistInclude: &[]string{""}},
		{Mode: ptr(core.ModeWhitelist), Exclude: &[]string{"a{b"}},
	} {
		_, _, err := m.Update(u)
		if !errors.Is(err, core.ErrInvalid) {
			t.Fatalf("update %+v: err = %v", u, err)
		}
		if got := m.Config(); got.Version != before.Version || got.Mode != before.Mode {
			t.Fatalf("rejected update changed config: %+v", got)
		}
	}
	if f := core.FieldOf(func() error { _, _, e := m.Update(core.FilterUpdate{BlacklistExclude: &[]string{"x", "[y"}}); return e }()); f != "blacklist_exclude[1]" {
		t.Fatalf("field = %q", f)
	}
}

func TestNoOpUpdateKeepsVersion(t *testing.T) {
	m := open(t, t.TempDir())
	cfg := m.Config()
	got, changed, err := m.Update(core.FilterUpdate{Mode: ptr(cfg.Mode), BlacklistExclude: &cfg.BlacklistExclude})
	if err != nil || changed || got.Version != cfg.Version {
		t.Fatalf("no-op update: changed=%v version=%d err=%v", changed, got.Version, err)
	}
}

func TestAddRemovePattern(t *testing.T) {
	m := open(t, t.TempDir())
	cfg, changed, err := m.AddPattern(" *.bak ", "exclude")
	if err != nil || !changed || !slices.Contains(cfg.BlacklistExclude, "*.bak") {
		t.Fatalf("add: %v %v %+v", err, changed, cfg.BlacklistExclude)
	}
	if _, changed, _ := m.AddPattern("*.bak", "exclude"); changed {
		t.Fatal("adding a present pattern reported a change")
	}
	if _, _, err := m.AddPattern("[", "exclude"); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("bad glob: %v", err)
	}
	if _, _, err := m.AddPattern("*.x", "sideways"); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("bad type: %v", err)
	}
	if _, err := m.RemovePattern("*.bak", "exclude"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.RemovePattern("*.bak", "exclude"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("removing an absent pattern: %v", err)
	}
}

func TestResetRestoresDefaultsAndBumpsVersion(t *testing.T) {
	m := open(t, t.TempDir())
	m.Update(core.FilterUpdate{Mode: ptr(core.ModeWhitelist), WhitelistInclude: &[]string{"x"}})
	cfg, err := m.Reset()
	if err != nil {
		t.Fatal(err)
	}
	d := Defaults()
	if cfg.Mode != d.Mode || !slices.Equal(cfg.WhitelistInclude, d.WhitelistInclude) || cfg.Version != 3 {
		t.Fatalf("reset: %+v", cfg)
	}
}

func TestOpenRepairsHandEditedFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"version": 7, "mode": "whitelist",
		"whitelist_include": ["**/*.md", "[bad", "**/*.md"], "blacklist_exclude": ["*.log"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := open(t, dir).Config()
	if cfg.Version != 7 || !slices.Equal(cfg.Include, []string{"**/*.md"}) || !slices.Equal(cfg.BlacklistExclude, []string{"*.log"}) {
		t.Fatalf("cfg = %+v", cfg)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg := open(t, dir).Config(); cfg.Mode != core.ModeBlacklist || cfg.Version != 1 {
		t.Fatalf("corrupt file: %+v", cfg)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName+".corrupt")); err != nil {
		t.Fatal("corrupt file not kept aside")
	}
}

func TestMatcherFollowsConfig(t *testing.T) {
	m := open(t, t.TempDir())
	if !m.Matcher().Allow("/r/a.log", "a.log") {
		t.Fatal("a.log excluded by default")
	}
	m.AddPattern("*.log", "exclude")
	if m.Matcher().Allow("/r/a.log", "a.log") {
		t.Fatal("matcher did not follow the new pattern")
	}
}
