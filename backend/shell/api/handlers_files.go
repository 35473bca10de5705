package api

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// fileID reads the :file_id parameter.
func fileID(c *fiber.Ctx) (int64, error) {
	raw := c.Params("file_id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, core.Fail(core.BadID, "file id must be a positive integer, got %q", raw)
	}
	return id, nil
}

func (s *Server) getFile(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	f, err := s.svc.File(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(views.FileOf(f))
}

// GET /api/files/lookup?path=/abs/path: the record of one path.
func (s *Server) lookupFile(c *fiber.Ctx) error {
	path, err := views.LookupPath(c.Query("path"))
	if err != nil {
		return err
	}
	f, err := s.svc.FileByPath(c.UserContext(), path)
	if err != nil {
		return err
	}
	return c.JSON(views.FileOf(f))
}

// POST /api/files/:file_id/open and /reveal: open an indexed file with the
// desktop's default application, or show it in its folder.
func (s *Server) openFile(reveal bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := fileID(c)
		if err != nil {
			return err
		}
		var path string
		if reveal {
			path, err = s.svc.OpenFile(c.UserContext(), id, true)
		} else {
			path, err = s.openAt(c, id)
		}
		if err != nil {
			return err
		}
		return c.JSON(views.Opened{Path: path})
	}
}

// openAt opens a file at the page its request's body asks for, if any.
func (s *Server) openAt(c *fiber.Ctx, id int64) (string, error) {
	page, err := views.DecodeOpen(c.Body())
	if err != nil {
		return "", err
	}
	return s.svc.OpenFileAt(c.UserContext(), id, page)
}

func (s *Server) getFileStats(c *fiber.Ctx) error {
	st, err := s.svc.FileStats(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.StatsOf(st))
}

func (s *Server) getStatus(c *fiber.Ctx) error {
	st, err := s.svc.Status(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.StatusOf(st))
}

// POST /api/index/rebuild: 202, the rebuild goes on in the background.
func (s *Server) rebuildIndex(c *fiber.Ctx) error {
	n, err := s.svc.RebuildIndex(c.UserContext())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(views.RebuildAnswer{Status: views.StatusSuccess,
		Message: "The index was replaced; every file of the watched folders is being indexed again",
		Data:    views.RebuildData{Folders: n}})
}
