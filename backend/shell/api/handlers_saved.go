package api

import (
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

// savedID reads the saved search's id from the path.
func savedID(c *fiber.Ctx) (int64, error) {
	raw := c.Params("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, core.FailField(core.BadID, "id", "a saved search's id is a positive integer, got %q", raw)
	}
	return id, nil
}

// GET /api/saved-searches
func (s *Server) listSaved(c *fiber.Ctx) error {
	list, err := s.svc.SavedSearches(c.UserContext())
	if err != nil {
		return err
	}
	out := views.SavedSearchList{SavedSearches: make([]views.SavedSearch, len(list)), Total: len(list)}
	problems := s.svc.SavedProblems(c.UserContext(), list...)
	for i, ss := range list {
		out.SavedSearches[i] = views.SavedSearchOf(ss, problems[i])
	}
	return c.JSON(out)
}

// POST /api/saved-searches
func (s *Server) createSaved(c *fiber.Ctx) error {
	req, saved, err := views.DecodeSavedSearch(c.Body())
	if err != nil {
		return err
	}
	ss, err := s.svc.SaveSearch(c.UserContext(), req.Name, saved, req.Notify)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(views.SavedSearchOf(ss, ""))
}

// GET /api/saved-searches/:id
func (s *Server) getSaved(c *fiber.Ctx) error {
	id, err := savedID(c)
	if err != nil {
		return err
	}
	ss, err := s.svc.SavedSearch(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(views.SavedSearchOf(ss, s.svc.SavedProblems(c.UserContext(), ss)[0]))
}

// PUT /api/saved-searches/:id
func (s *Server) updateSaved(c *fiber.Ctx) error {
	id, err := savedID(c)
	if err != nil {
		return err
	}
	ch, err := views.DecodeSavedChange(c.Body())
	if err != nil {
		return err
	}
	ss, err := s.svc.ChangeSavedSearch(c.UserContext(), id, ch)
	if err != nil {
		return err
	}
	return c.JSON(views.SavedSearchOf(ss, s.svc.SavedProblems(c.UserContext(), ss)[0]))
}

// DELETE /api/saved-searches/:id
func (s *Server) deleteSaved(c *fiber.Ctx) error {
	id, err := savedID(c)
	if err != nil {
		return err
	}
	if err := s.svc.DeleteSavedSearch(c.UserContext(), id); err != nil {
		return err
	}
	return c.JSON(views.SavedSearchDeleted{ID: id, Deleted: true})
}

// POST /api/saved-searches/:id/run: answers as POST /api/search/ does.
// The page comes in the body ({"offset", "limit"}) or the query string.
func (s *Server) runSaved(c *fiber.Ctx) error {
	id, err := savedID(c)
	if err != nil {
		return err
	}
	page, err := views.DecodeSavedRun(c.Body())
	if err != nil {
		return err
	}
	if page == (service.SavedPage{}) {
		if page, err = pageOfQuery(c); err != nil {
			return err
		}
	}
	_, pr, ans, err := s.svc.RunSavedSearch(c.UserContext(), id, page)
	if err != nil {
		return err
	}
	return c.JSON(views.PageResponseOf(pr.Query, pr, ans))
}

// pageOfQuery reads offset and limit from the query string, if there.
func pageOfQuery(c *fiber.Ctx) (service.SavedPage, error) {
	var page service.SavedPage
	for _, p := range []struct {
		name string
		dst  **int
	}{{"offset", &page.Offset}, {"limit", &page.Limit}} {
		if c.Query(p.name) == "" {
			continue
		}
		v, err := intQuery(c, p.name, 0, math.MinInt32, math.MaxInt32)
		if err != nil {
			return page, err
		}
		*p.dst = &v
	}
	return page, nil
}
