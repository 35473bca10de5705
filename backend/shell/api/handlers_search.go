package api

import (
	"github.com/gofiber/fiber/v2"

	"trove/backend/shell/views"
)

// POST /api/search/
func (s *Server) search(c *fiber.Ctx) error {
	pr, err := views.DecodeSearchPage(c.Body())
	if err != nil {
		return err
	}
	page, err := s.svc.SearchPage(c.UserContext(), pr)
	if err != nil {
		return err
	}
	return c.JSON(views.PageResponseOf(pr.Query, pr, page))
}

// GET /api/search/stream?query=&limit=&min_score=&mode=
func (s *Server) searchStream(c *fiber.Ctx) error {
	q := c.Query("query")
	limit, err := intQuery(c, "limit", views.DefaultStreamLimit, 1, 1<<20)
	if err != nil {
		return err
	}
	minScore := 0.0
	if raw := c.Query("min_score"); raw != "" {
		if minScore, err = views.ParseNumber("min_score", raw); err != nil {
			return err
		}
	}
	sr, err := views.BuildQuery(q, limit, minScore, c.Query("mode"), views.MinStreamQuery)
	if err != nil {
		return err
	}
	results, err := s.svc.Search(c.UserContext(), sr)
	if err != nil {
		return err
	}
	return c.JSON(views.SearchStreamAnswer{Status: views.StatusSuccess, Data: views.StreamDataOf(q, sr, results)})
}
