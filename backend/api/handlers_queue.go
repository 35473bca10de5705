package api

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
)

type queueItem struct {
	ID                string  `json:"id"`
	FilePath          string  `json:"file_path"`
	Action            string  `json:"action"`
	Status            string  `json:"status"`
	EnqueuedAt        float64 `json:"enqueued_at"`
	CooldownExpiresAt float64 `json:"cooldown_expires_at"`
	DestPath          *string `json:"dest_path"`
	RetryCount        int     `json:"retry_count"`
	LastError         *string `json:"last_error"`
	DirectoryID       int64   `json:"directory_id"`
}

func unixSeconds(t time.Time) float64 {
	return float64(t.UnixMilli()) / 1000
}

func (s *Server) queueStatus(c *fiber.Ctx) error { return c.JSON(s.svc.QueueStatus()) }

func (s *Server) pauseQueue(c *fiber.Ctx) error { return c.JSON(s.svc.PauseQueue()) }

func (s *Server) resumeQueue(c *fiber.Ctx) error { return c.JSON(s.svc.ResumeQueue()) }

// GET /api/queue/items[?offset=&limit=]: all items by default.
func (s *Server) queueItems(c *fiber.Ctx) error {
	offset, err := intQuery(c, "offset", 0, 0, 1<<31)
	if err != nil {
		return err
	}
	limit, err := intQuery(c, "limit", 0, 0, 1<<31)
	if err != nil {
		return err
	}
	items, total := s.svc.QueueItems(offset, limit)
	out := make([]queueItem, len(items))
	for i, it := range items {
		q := queueItem{ID: it.ID, FilePath: it.Path, Action: it.Action, Status: it.Status,
			EnqueuedAt: unixSeconds(it.EnqueuedAt), CooldownExpiresAt: unixSeconds(it.ReadyAt), RetryCount: it.Retries,
			DirectoryID: it.DirID}
		if it.Dest != "" {
			q.DestPath = &it.Dest
		}
		if it.LastError != "" {
			q.LastError = &it.LastError
		}
		out[i] = q
	}
	return c.JSON(fiber.Map{"items": out, "total": total, "offset": offset})
}

// DELETE /api/queue/items/:item_id: success family, like DELETE of a job.
func (s *Server) deleteQueueItem(c *fiber.Ctx) error {
	id := c.Params("item_id")
	withExtra(c, fiber.Map{"id": id})
	if err := s.svc.RemoveQueueItem(id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": fmt.Sprintf("Removed queue item %s", id), "id": id})
}

// intQuery reads an optional integer query parameter within [lo, hi].
func intQuery(c *fiber.Ctx, name string, def, lo, hi int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < lo || v > hi {
		return 0, core.InvalidField("INVALID_PARAMETER", name, "must be a whole number from %d to %d, got %q", lo, hi, raw)
	}
	return v, nil
}
