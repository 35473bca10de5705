package views

import (
	"fmt"

	"trove/backend/core"
)

// FilterChange is the answer of a filter edit.
type FilterChange struct {
	Success      bool              `json:"success"`
	Message      string            `json:"message"`
	Config       core.FilterConfig `json:"config"`
	RemovedCount int               `json:"removed_count"`
}

// FilterUpdated shows the result of PUT /api/filters/config.
func FilterUpdated(ch core.FilterChange) FilterChange {
	msg := "Filter configuration updated"
	switch {
	case ch.Pending:
		msg = "Filter configuration updated; excluded files stay indexed until POST /api/filters/apply"
	case ch.RemovedCount > 0:
		msg = fmt.Sprintf("Filter configuration updated; removed %d files from the index", ch.RemovedCount)
	}
	return FilterChange{Success: true, Message: msg, Config: ch.Config, RemovedCount: ch.RemovedCount}
}

// PatternRequest is the body of adding or removing a pattern.
type PatternRequest struct {
	Pattern          *string `json:"pattern"`
	PatternType      string  `json:"pattern_type"`
	ApplyImmediately *bool   `json:"apply_immediately"`
}

// Check fills defaults and reports a missing pattern.
func (p *PatternRequest) Check() error {
	if p.Pattern == nil {
		return core.FailField(core.MissingField, "pattern", "required")
	}
	if p.PatternType == "" {
		p.PatternType = "exclude"
	}
	return nil
}

// PatternAdded shows the result of adding a pattern.
func PatternAdded(p PatternRequest, ch core.FilterChange, changed bool) FilterChange {
	msg := fmt.Sprintf("Added %s pattern '%s'", p.PatternType, *p.Pattern)
	if !changed {
		msg = fmt.Sprintf("Pattern '%s' is already among the %s patterns", *p.Pattern, p.PatternType)
	}
	return FilterChange{Success: true, Message: msg, Config: ch.Config, RemovedCount: ch.RemovedCount}
}

// PatternRemoved shows the result of removing a pattern.
func PatternRemoved(p PatternRequest, ch core.FilterChange) FilterChange {
	return FilterChange{Success: true, Message: fmt.Sprintf("Removed %s pattern '%s'", p.PatternType, *p.Pattern),
		Config: ch.Config, RemovedCount: ch.RemovedCount}
}

// FiltersReset shows the result of resetting the filters.
func FiltersReset(ch core.FilterChange) FilterChange {
	return FilterChange{Success: true, Message: "Filters reset to defaults", Config: ch.Config, RemovedCount: ch.RemovedCount}
}

// Applied is the answer of POST /api/filters/apply.
type Applied struct {
	Success      bool   `json:"success"`
	Message      string `json:"message"`
	RemovedCount int    `json:"removed_count"`
}

// FiltersApplied shows the result of applying the filters.
func FiltersApplied(n int) Applied {
	return Applied{Success: true, Message: fmt.Sprintf("Removed %d files excluded by the filters", n), RemovedCount: n}
}
