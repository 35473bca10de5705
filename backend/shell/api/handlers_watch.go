package api

import (
	"errors"
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

func (s *Server) decodeWatch(c *fiber.Ctx, field string) (service.WatchResult, error) {
	path, opts, err := views.DecodeWatch(c.Body(), field)
	if err != nil {
		return service.WatchResult{}, err
	}
	return s.svc.Watch(c.UserContext(), path, opts)
}

// POST /api/watch/directory: status family, 200.
func (s *Server) watchDirectory(c *fiber.Ctx) error {
	res, err := s.decodeWatch(c, "path")
	if err != nil {
		return err
	}
	return c.JSON(views.WatchDirectoryAnswer{Status: views.StatusSuccess, Data: views.WatchedOf(res)})
}

// POST /api/watch/: success family, 201. Every error here is a 400 in the
// spec's shape (already watched included), with files_indexed 0.
func (s *Server) watchLegacy(c *fiber.Ctx) error {
	withExtra(c, fiber.Map{"files_indexed": 0})
	res, err := s.decodeWatch(c, "directory_path")
	if errors.Is(err, core.ErrConflict) {
		return &core.Error{Kind: core.ErrInvalid, Fault: core.AlreadyWatching, Message: err.Error()}
	}
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(views.WatchedLegacyOf(res))
}

// GET /api/watched-directories[?offset=&limit=]
func (s *Server) watchedDirectories(c *fiber.Ctx) error {
	page, err := pageQuery(c, views.DefaultFolders, views.MaxFolders)
	if err != nil {
		return err
	}
	dirs, err := s.svc.Folders(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.FolderListAnswer{Status: views.StatusSuccess, Data: views.FoldersOf(dirs, page)})
}

// GET /api/watched-directories/:id/problems[?limit=]: files that failed or
// were indexed by name only, with the reason.
func (s *Server) folderProblems(c *fiber.Ctx) error {
	id, err := jobID(c, "id")
	if err != nil {
		return err
	}
	limit, err := intQuery(c, "limit", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	page, err := views.PageOf(0, limit, views.DefaultProblems, views.MaxProblems)
	if err != nil {
		return err
	}
	files, total, err := s.svc.Problems(c.UserContext(), id, page.Limit)
	if err != nil {
		return err
	}
	return c.JSON(views.ProblemListAnswer{Status: views.StatusSuccess, Data: views.ProblemList{Problems: views.ProblemsOf(files), Total: total}})
}

// GET /api/watch/jobs[?offset=&limit=]
func (s *Server) watchJobs(c *fiber.Ctx) error {
	page, err := pageQuery(c, views.DefaultFolders, views.MaxFolders)
	if err != nil {
		return err
	}
	dirs, err := s.svc.Folders(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(views.JobsOf(dirs, page))
}

func jobID(c *fiber.Ctx, param string) (int64, error) {
	raw := c.Params(param)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, core.Fail(core.BadID, "job id must be a positive integer, got %q", raw)
	}
	return id, nil
}

// DELETE /api/watch/jobs/:job_id
func (s *Server) deleteJob(c *fiber.Ctx) error {
	id, err := jobID(c, "job_id")
	if err != nil {
		withExtra(c, fiber.Map{"job_id": nil})
		return err
	}
	withExtra(c, fiber.Map{"job_id": id})
	if err := s.svc.Unwatch(c.UserContext(), id); err != nil {
		return err
	}
	return c.JSON(views.JobDeletedOf(id))
}
