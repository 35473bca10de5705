package api

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
)

// Timestamps: file times are local wall-clock time without a zone suffix,
// as the spec shows them; folder and job times are UTC with a Z suffix.
const (
	localLayout = "2006-01-02T15:04:05"
	utcLayout   = "2006-01-02T15:04:05Z"
)

func localTime(t time.Time) string { return t.Local().Format(localLayout) }

func utcTime(t time.Time) string { return t.UTC().Format(utcLayout) }

func optionalLocal(t *time.Time) any {
	if t == nil {
		return nil
	}
	return localTime(*t)
}

func optionalUTC(t *time.Time) any {
	if t == nil {
		return nil
	}
	return utcTime(*t)
}

// fileRecord is the file lookup shape: the spec's fields first, then ours.
type fileRecord struct {
	ID          int64    `json:"id"`
	Filename    string   `json:"filename"`
	Extension   string   `json:"extension"`
	Created     string   `json:"created"`
	Modified    string   `json:"modified"`
	Summary     string   `json:"summary"`
	Keywords    []string `json:"keywords"`
	Path        string   `json:"path"`
	Title       string   `json:"title"`
	Size        int64    `json:"size"`
	Mime        string   `json:"mime"`
	Accessed    string   `json:"accessed"`
	IndexedAt   any      `json:"indexed_at"`
	Status      string   `json:"status"`
	Error       *string  `json:"error"`
	ContentHash string   `json:"content_hash"`
	DirectoryID int64    `json:"directory_id"`
}

func toFileRecord(f core.File) fileRecord {
	r := fileRecord{
		ID: f.ID, Filename: f.Filename, Extension: f.Extension, Created: localTime(f.Created),
		Modified: localTime(f.Modified), Summary: f.Summary, Keywords: f.Keywords, Path: f.Path, Title: f.Title,
		Size: f.Size, Mime: f.Mime, Accessed: localTime(f.Accessed), Status: f.State,
		ContentHash: f.ContentHash, DirectoryID: f.DirID,
	}
	if !f.IndexedAt.IsZero() {
		r.IndexedAt = localTime(f.IndexedAt)
	}
	if f.Error != "" {
		r.Error = &f.Error
	}
	return r
}

func (s *Server) getFile(c *fiber.Ctx) error {
	raw := c.Params("file_id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return core.Invalid("INVALID_ID", "file id must be a positive integer, got %q", raw)
	}
	f, err := s.svc.File(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(toFileRecord(f))
}

// GET /api/files/lookup?path=/abs/path: the record of one path.
func (s *Server) lookupFile(c *fiber.Ctx) error {
	path := c.Query("path")
	if path == "" {
		return core.Invalid("MISSING_FIELD", "path is required: /api/files/lookup?path=/absolute/path")
	}
	f, err := s.svc.FileByPath(c.UserContext(), path)
	if err != nil {
		return err
	}
	return c.JSON(toFileRecord(f))
}

func (s *Server) getFileStats(c *fiber.Ctx) error {
	st, err := s.svc.FileStats(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{
		"total_files": st.TotalFiles, "total_size": st.TotalSize, "file_types": st.FileTypes,
		"last_indexed": optionalLocal(st.LastIndexed), "failed_files": st.FailedFiles,
	})
}

func (s *Server) getStatus(c *fiber.Ctx) error {
	st, err := s.svc.Status(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"jobs": st.Jobs, "version": st.Version, "uptime_seconds": int64(st.UptimeSeconds)})
}
