package api

import (
	"github.com/gofiber/fiber/v2"

	"trove/backend/shell/views"
)

// Settings ---------------------------------------------------------------

func (s *Server) getSettings(c *fiber.Ctx) error { return c.JSON(s.svc.Settings()) }

func (s *Server) getSettingsDefaults(c *fiber.Ctx) error { return c.JSON(s.svc.SettingsDefaults()) }

func (s *Server) putSettings(c *fiber.Ctx) error {
	patch, err := views.DecodeSettingsPatch(c.Body())
	if err != nil {
		return err
	}
	cur, err := s.svc.UpdateSettings(c.UserContext(), patch)
	if err != nil {
		return err
	}
	return c.JSON(cur)
}

// Filters ----------------------------------------------------------------

func (s *Server) getFilterConfig(c *fiber.Ctx) error { return c.JSON(s.svc.Filters()) }

func (s *Server) getFilterDefaults(c *fiber.Ctx) error { return c.JSON(s.svc.FilterDefaults()) }

func (s *Server) putFilterConfig(c *fiber.Ctx) error {
	u, err := views.DecodeFilterUpdate(c.Body())
	if err != nil {
		return err
	}
	ch, err := s.svc.UpdateFilters(c.UserContext(), u)
	if err != nil {
		return err
	}
	return c.JSON(views.FilterUpdated(ch))
}

func (s *Server) addFilterPattern(c *fiber.Ctx) error {
	req, err := views.DecodePattern(c.Body())
	if err != nil {
		return err
	}
	ch, changed, err := s.svc.AddFilterPattern(c.UserContext(), *req.Pattern, req.PatternType, req.Apply())
	if err != nil {
		return err
	}
	return c.JSON(views.PatternAdded(req, ch, changed))
}

func (s *Server) removeFilterPattern(c *fiber.Ctx) error {
	req, err := views.DecodePattern(c.Body())
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
