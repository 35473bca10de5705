package api

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/service"
)

// watchRequest is the body of both watch endpoints: the spec's path field
// (path or directory_path) and Trove's optional recursive and file_pattern.
type watchRequest struct {
	Path          *string `json:"path"`
	DirectoryPath *string `json:"directory_path"`
	Recursive     *bool   `json:"recursive"`
	FilePattern   *string `json:"file_pattern"`
}

func (r watchRequest) options() service.WatchOptions {
	o := service.WatchOptions{Recursive: true}
	if r.Recursive != nil {
		o.Recursive = *r.Recursive
	}
	if r.FilePattern != nil {
		o.FilePattern = *r.FilePattern
	}
	return o
}

// decodeWatch reads the body and the path field the endpoint names.
func decodeWatch(c *fiber.Ctx, field string) (watchRequest, string, error) {
	var req watchRequest
	if err := decodeJSON(c, &req); err != nil {
		return req, "", err
	}
	p := req.Path
	if field == "directory_path" {
		p = req.DirectoryPath
	}
	if p == nil {
		return req, "", core.Invalid("INVALID_PATH", "%s is required: the absolute path of a folder", field)
	}
	return req, *p, nil
}

// POST /api/watch/directory: status family, 200.
func (s *Server) watchDirectory(c *fiber.Ctx) error {
	req, path, err := decodeWatch(c, "path")
	if err != nil {
		return err
	}
	res, err := s.svc.Watch(c.UserContext(), path, req.options())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "success", "data": fiber.Map{
		"directory": res.Directory.Path, "files_found": res.FilesFound, "indexing_started": true,
		"job_id": res.Directory.ID,
	}})
}

// POST /api/watch/: success family, 201. Every error here is a 400 in the
// spec's shape (already watched included), with files_indexed 0.
func (s *Server) watchLegacy(c *fiber.Ctx) error {
	withExtra(c, fiber.Map{"files_indexed": 0})
	req, path, err := decodeWatch(c, "directory_path")
	if err == nil {
		var res service.WatchResult
		res, err = s.svc.Watch(c.UserContext(), path, req.options())
		if err == nil {
			return c.Status(fiber.StatusCreated).JSON(fiber.Map{
				"success": true, "files_indexed": 0, "job_id": res.Directory.ID, "files_found": res.FilesFound,
				"message": fmt.Sprintf("Watching %s: %d files queued for indexing", res.Directory.Path, res.FilesFound),
			})
		}
	}
	if errors.Is(err, core.ErrConflict) {
		return &core.Error{Kind: core.ErrInvalid, Code: core.CodeOf(err, "ALREADY_WATCHING"), Message: err.Error()}
	}
	return err
}

type directorySummary struct {
	ID            int64  `json:"id"`
	Path          string `json:"path"`
	FileCount     int64  `json:"file_count"`
	IndexedCount  int64  `json:"indexed_count"`
	FailedCount   int64  `json:"failed_count"`
	Status        string `json:"status"`
	AddedAt       string `json:"added_at"`
	StatusMessage string `json:"status_message"`
	LastScan      any    `json:"last_scan"`
}

// GET /api/watched-directories
func (s *Server) watchedDirectories(c *fiber.Ctx) error {
	dirs, err := s.svc.Folders(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]directorySummary, len(dirs))
	for i, d := range dirs {
		out[i] = directorySummary{ID: d.ID, Path: d.Path, FileCount: d.FileCount, IndexedCount: d.IndexedCount,
			FailedCount: d.FailedCount, Status: d.Status, AddedAt: utcTime(d.CreatedAt), StatusMessage: d.StatusMessage,
			LastScan: optionalUTC(d.LastScan)}
	}
	return c.JSON(fiber.Map{"status": "success", "data": fiber.Map{"total_directories": len(out), "directories": out}})
}

type watchJob struct {
	ID          int64   `json:"id"`
	Path        string  `json:"path"`
	IsActive    bool    `json:"is_active"`
	Recursive   bool    `json:"recursive"`
	FilePattern *string `json:"file_pattern"`
	LastScan    any     `json:"last_scan"`
	CreatedAt   any     `json:"created_at"`
	UpdatedAt   any     `json:"updated_at"`
}

// GET /api/watch/jobs
func (s *Server) watchJobs(c *fiber.Ctx) error {
	dirs, err := s.svc.Folders(c.UserContext())
	if err != nil {
		return err
	}
	jobs := make([]watchJob, len(dirs))
	for i, d := range dirs {
		j := watchJob{ID: d.ID, Path: d.Path, IsActive: d.IsActive, Recursive: d.Recursive,
			LastScan: optionalUTC(d.LastScan), CreatedAt: utcTime(d.CreatedAt), UpdatedAt: utcTime(d.UpdatedAt)}
		if d.FilePattern != "" {
			j.FilePattern = &d.FilePattern
		}
		jobs[i] = j
	}
	return c.JSON(fiber.Map{"jobs": jobs})
}

// DELETE /api/watch/jobs/:job_id
func (s *Server) deleteJob(c *fiber.Ctx) error {
	raw := c.Params("job_id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		withExtra(c, fiber.Map{"job_id": nil})
		return core.Invalid("INVALID_ID", "job id must be a positive integer, got %q", raw)
	}
	withExtra(c, fiber.Map{"job_id": id})
	if err := s.svc.Unwatch(c.UserContext(), id); err != nil {
		if errors.Is(err, core.ErrNotFound) {
			return core.NotFound("JOB_NOT_FOUND", "Watch job %d not found", id)
		}
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": fmt.Sprintf("Stopped watching job %d and removed its files from the index", id), "job_id": id})
}
