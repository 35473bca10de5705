package service

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"trove/backend/core"
	"trove/backend/engine/filters"
)

// Filters returns the filter configuration.
func (s *Service) Filters() core.FilterConfig { return s.filters.Config() }

// FilterDefaults returns the default patterns without touching the file.
func (s *Service) FilterDefaults() core.FilterPatterns { return filters.Defaults() }

// FilterPatternTypes lists the accepted pattern_type values.
func (s *Service) FilterPatternTypes() []string { return filters.PatternTypes }

// lockFilters serialises filter edits together with the cleanup they cause,
// so two edits cannot interleave their removals.
func (s *Service) lockFilters(ctx context.Context) (func(), error) {
	select {
	case s.filterMu <- struct{}{}:
		return func() { <-s.filterMu }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// UpdateFilters applies a partial filter update. With apply (the default)
// files the new filters exclude leave the index at once; otherwise they stay
// until ApplyFilters.
func (s *Service) UpdateFilters(ctx context.Context, u core.FilterUpdate) (core.FilterChange, error) {
	unlock, err := s.lockFilters(ctx)
	if err != nil {
		return core.FilterChange{}, err
	}
	defer unlock()
	cfg, changed, err := s.filters.Update(u)
	if err != nil {
		return core.FilterChange{Config: cfg}, err
	}
	apply := u.ApplyImmediately == nil || *u.ApplyImmediately
	return s.afterFilterEdit(ctx, cfg, changed, apply)
}

// AddFilterPattern adds one pattern and, with apply, removes the files it
// newly excludes.
func (s *Service) AddFilterPattern(ctx context.Context, pattern, patternType string, apply bool) (core.FilterChange, bool, error) {
	unlock, err := s.lockFilters(ctx)
	if err != nil {
		return core.FilterChange{}, false, err
	}
	defer unlock()
	cfg, changed, err := s.filters.AddPattern(pattern, patternType)
	if err != nil {
		return core.FilterChange{Config: cfg}, false, err
	}
	ch, err := s.afterFilterEdit(ctx, cfg, changed, apply)
	return ch, changed, err
}

// RemoveFilterPattern removes one pattern.
func (s *Service) RemoveFilterPattern(ctx context.Context, pattern, patternType string) (core.FilterChange, error) {
	unlock, err := s.lockFilters(ctx)
	if err != nil {
		return core.FilterChange{}, err
	}
	defer unlock()
	cfg, err := s.filters.RemovePattern(pattern, patternType)
	if err != nil {
		return core.FilterChange{Config: cfg}, err
	}
	return s.afterFilterEdit(ctx, cfg, true, true)
}

// ResetFilters restores the default filters and removes what they exclude.
func (s *Service) ResetFilters(ctx context.Context) (core.FilterChange, error) {
	unlock, err := s.lockFilters(ctx)
	if err != nil {
		return core.FilterChange{}, err
	}
	defer unlock()
	cfg, err := s.filters.Reset()
	if err != nil {
		return core.FilterChange{Config: cfg}, err
	}
	return s.afterFilterEdit(ctx, cfg, true, true)
}

// ApplyFilters removes from the index every file the current filters exclude.
func (s *Service) ApplyFilters(ctx context.Context) (int, error) {
	unlock, err := s.lockFilters(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	ch, err := s.afterFilterEdit(ctx, s.filters.Config(), false, true)
	return ch.RemovedCount, err
}

func (s *Service) afterFilterEdit(ctx context.Context, cfg core.FilterConfig, changed, apply bool) (core.FilterChange, error) {
	ch := core.FilterChange{Config: cfg, Pending: !apply}
	if apply {
		n, err := s.removeExcluded(ctx)
		if err != nil {
			return ch, err
		}
		ch.RemovedCount = n
	}
	if changed || ch.RemovedCount > 0 {
		s.bus.Publish(core.FiltersChanged{Version: cfg.Version, RemovedCount: ch.RemovedCount})
	}
	if changed && s.indexer != nil {
		s.indexer.RescanAll(false) // pick up files the new filters let in
	}
	return ch, nil
}

// removeExcluded deletes the indexed files the current filters reject.
func (s *Service) removeExcluded(ctx context.Context) (int, error) {
	m := s.filters.Matcher()
	paths, err := s.store.FilePaths(ctx)
	if err != nil {
		return 0, fmt.Errorf("list indexed files: %w", err)
	}
	var drop []int64
	for _, p := range paths {
		if !m.Allow(p.Path, relativePath(p.DirPath, p.Path)) {
			drop = append(drop, p.ID)
		}
	}
	if len(drop) == 0 {
		return 0, nil
	}
	n, err := s.store.DeleteFiles(ctx, drop)
	if err != nil {
		return n, fmt.Errorf("remove excluded files: %w", err)
	}
	s.log.Info("removed files excluded by filters", "count", n)
	return n, nil
}

// relativePath is path below root, slash-separated, as filters match it.
func relativePath(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
