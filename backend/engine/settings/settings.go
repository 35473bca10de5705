// Package settings holds Trove's user settings: defaults, dotted-path partial
// updates with strict validation, and atomic persistence to settings.json.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"trove/backend/core"
	"trove/backend/platform/atomicfile"
)

// FileName is the settings file inside the config directory.
const FileName = "settings.json"

// Manager owns the current settings. It is safe for concurrent use.
type Manager struct {
	path string
	log  *slog.Logger

	mu       sync.RWMutex
	cur      core.Settings
	watchers []func(old, cur core.Settings)
}

// Open loads settings from configDir, falling back to defaults for a missing
// file and for any key that is unknown or invalid (each is logged). A file
// that is not JSON at all is moved aside, so a hand edit gone wrong never
// stops Trove from starting and is never silently destroyed.
func Open(configDir string, log *slog.Logger) (*Manager, error) {
	m := &Manager{path: filepath.Join(configDir, FileName), log: log, cur: Defaults()}
	data, err := os.ReadFile(m.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return nil, fmt.Errorf("read settings: %w", err)
	}
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(data, &sections); err != nil {
		aside := m.path + ".corrupt"
		log.Warn("settings file is not valid JSON; using defaults", "path", m.path, "moved_to", aside, "err", err)
		if err := os.Rename(m.path, aside); err != nil {
			return nil, fmt.Errorf("move aside corrupt settings: %w", err)
		}
		return m, nil
	}
	m.cur = m.loadLeniently(sections)
	return m, nil
}

// loadLeniently applies each stored key on its own, keeping the default for
// any key that fails, so one bad value costs only that value.
func (m *Manager) loadLeniently(sections map[string]json.RawMessage) core.Settings {
	cur := Defaults()
	for sec, raw := range sections {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(raw, &inner); err != nil {
			m.log.Warn("ignoring stored settings section", "section", sec, "err", err)
			continue
		}
		for _, k := range sortedKeys(inner) {
			key := sec + "." + k
			f, ok := fieldTable()[key]
			if !ok {
				m.log.Warn("ignoring unknown stored setting", "key", key)
				continue
			}
			next := clone(cur)
			err := f.set(&next, inner[k])
			if err == nil {
				err = Validate(next)
			}
			if err != nil {
				m.log.Warn("ignoring stored setting", "key", key, "err", err)
				continue
			}
			cur = next
		}
	}
	return cur
}

// Get returns a copy of the current settings.
func (m *Manager) Get() core.Settings {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return clone(m.cur)
}

// OnChange registers fn to run after every successful update, with the old
// and new settings. Watchers run synchronously and must not call Update.
func (m *Manager) OnChange(fn func(old, cur core.Settings)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watchers = append(m.watchers, fn)
}

// Update applies a partial update. Keys are dotted paths or section names
// (see flatten). Either every key applies and the result is saved, or
// nothing changes and the error names the first offending key.
func (m *Manager) Update(patch map[string]json.RawMessage) (core.Settings, error) {
	if len(patch) == 0 {
		return m.Get(), core.Fail(core.EmptyUpdate, "no settings given: send an object like {\"queue.max_retries\": 3}")
	}
	m.mu.Lock()
	old := m.cur
	next, err := Apply(old, patch)
	if err != nil {
		m.mu.Unlock()
		return clone(old), err
	}
	if err := m.save(next); err != nil {
		m.mu.Unlock()
		return clone(old), err
	}
	m.cur = next
	watchers := append([]func(old, cur core.Settings){}, m.watchers...)
	m.mu.Unlock()
	for _, fn := range watchers {
		fn(clone(old), clone(next))
	}
	return clone(next), nil
}

// Apply returns cur with a partial update applied and validated, without
// touching cur or any file.
func Apply(cur core.Settings, patch map[string]json.RawMessage) (core.Settings, error) {
	flat, err := flatten(patch)
	if err != nil {
		return cur, err
	}
	next := clone(cur)
	for _, key := range sortedKeys(flat) {
		if err := fieldTable()[key].set(&next, flat[key]); err != nil {
			return cur, err
		}
	}
	if err := Validate(next); err != nil {
		return cur, err
	}
	return next, nil
}

func (m *Manager) save(s core.Settings) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	return atomicfile.Write(m.path, append(data, '\n'), 0o600)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// clone deep-copies s so callers never share the rules slice.
func clone(s core.Settings) core.Settings {
	rules := make([]core.SchedulerRule, len(s.Scheduler.Rules))
	for i, r := range s.Scheduler.Rules {
		if r.Percent != nil {
			p := *r.Percent
			r.Percent = &p
		}
		r.Days = append([]string(nil), r.Days...)
		rules[i] = r
	}
	s.Scheduler.Rules = rules
	return s
}
