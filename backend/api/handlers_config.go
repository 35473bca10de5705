package api

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/views"
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
	return c.JSON(views.FilterUpdated(ch))
}

func decodePattern(c *fiber.Ctx) (views.PatternRequest, error) {
	var req views.PatternRequest
	if err := decodeJSON(c, &req); err != nil {
		return req, err
	}
	return req, req.Check()
}

func (s *Server) addFilterPattern(c *fiber.Ctx) error {
	req, err := decodePattern(c)
	if err != nil {
		return err
	}
	apply := req.ApplyImmediately == nil || *req.ApplyImmediately
	ch, changed, err := s.svc.AddFilterPattern(c.UserContext(), *req.Pattern, req.PatternType, apply)
	if err != nil {
		return err
	}
	return c.JSON(views.PatternAdded(req, ch, changed))
}

func (s *Server) removeFilterPattern(c *fiber.Ctx) error {
	req, err := decodePattern(c)
	if err != nil {
		return err
	}
	ch, err := s.svc.RemoveFilterPattern(c.UserContext(), *req.Pattern, req.PatternType)
	if err != nil {
		return err
	}
	return c.JSON(views.PatternRemoved(req, ch))
}

func (s *Server) applyFilters(c *fiber.Ctx) error {
	n, err := s.svc.ApplyFilters(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.FiltersApplied(n))
}

func (s *Server) resetFilters(c *fiber.Ctx) error {
	ch, err := s.svc.ResetFilters(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.FiltersReset(ch))
}
