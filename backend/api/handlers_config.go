package api

import (
	"encoding/json"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
)

// Settings ---------------------------------------------------------------

func (s *Server) getSettings(c *fiber.Ctx) error { return c.JSON(s.svc.Settings()) }

func (s *Server) getSettingsDefaults(c *fiber.Ctx) error { return c.JSON(s.svc.SettingsDefaults()) }

func (s *Server) putSettings(c *fiber.Ctx) error {
	var patch map[string]json.RawMessage
	if err := decodeJSON(c, &patch); err != nil {
		return err
	}
	if patch == nil {
		return core.Invalid("INVALID_JSON", "send a JSON object of dotted keys, like {\"queue.max_retries\": 3}")
	}
	cur, err := s.svc.UpdateSettings(patch)
	if err != nil {
		return err
	}
	return c.JSON(cur)
}

// Filters ----------------------------------------------------------------

func (s *Server) getFilterConfig(c *fiber.Ctx) error { return c.JSON(s.svc.Filters()) }

func (s *Server) getFilterDefaults(c *fiber.Ctx) error { return c.JSON(s.svc.FilterDefaults()) }

func (s *Server) putFilterConfig(c *fiber.Ctx) error {
	var u core.FilterUpdate
	if err := decodeJSON(c, &u); err != nil {
		return err
	}
	ch, err := s.svc.UpdateFilters(c.UserContext(), u)
	if err != nil {
		return err
	}
	msg := "Filter configuration updated"
	if ch.RemovedCount > 0 {
		msg = fmt.Sprintf("Filter configuration updated; removed %d files from the index", ch.RemovedCount)
	}
	if ch.Pending {
		msg = "Filter configuration updated; excluded files stay indexed until POST /api/filters/apply"
	}
	return c.JSON(fiber.Map{"success": true, "message": msg, "config": ch.Config, "removed_count": ch.RemovedCount})
}

type patternRequest struct {
	Pattern          *string `json:"pattern"`
	PatternType      string  `json:"pattern_type"`
	ApplyImmediately *bool   `json:"apply_immediately"`
}

func (p *patternRequest) decode(c *fiber.Ctx) error {
	if err := decodeJSON(c, p); err != nil {
		return err
	}
	if p.Pattern == nil {
		return core.InvalidField("MISSING_FIELD", "pattern", "required")
	}
	if p.PatternType == "" {
		p.PatternType = "exclude"
	}
	return nil
}

func (s *Server) addFilterPattern(c *fiber.Ctx) error {
	var req patternRequest
	if err := req.decode(c); err != nil {
		return err
	}
	apply := req.ApplyImmediately == nil || *req.ApplyImmediately
	ch, changed, err := s.svc.AddFilterPattern(c.UserContext(), *req.Pattern, req.PatternType, apply)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("Added %s pattern '%s'", req.PatternType, *req.Pattern)
	if !changed {
		msg = fmt.Sprintf("Pattern '%s' is already among the %s patterns", *req.Pattern, req.PatternType)
	}
	return c.JSON(fiber.Map{"success": true, "message": msg, "removed_count": ch.RemovedCount, "config": ch.Config})
}

func (s *Server) removeFilterPattern(c *fiber.Ctx) error {
	var req patternRequest
	if err := req.decode(c); err != nil {
		return err
	}
	ch, err := s.svc.RemoveFilterPattern(c.UserContext(), *req.Pattern, req.PatternType)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": fmt.Sprintf("Removed %s pattern '%s'", req.PatternType, *req.Pattern),
		"removed_count": ch.RemovedCount, "config": ch.Config})
}

func (s *Server) applyFilters(c *fiber.Ctx) error {
	n, err := s.svc.ApplyFilters(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": fmt.Sprintf("Removed %d files excluded by the filters", n), "removed_count": n})
}

func (s *Server) resetFilters(c *fiber.Ctx) error {
	ch, err := s.svc.ResetFilters(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": "Filters reset to defaults", "config": ch.Config, "removed_count": ch.RemovedCount})
}
