package api

import (
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/shell/views"
)

func (s *Server) queueStatus(c *fiber.Ctx) error { return c.JSON(s.svc.QueueStatus()) }

func (s *Server) pauseQueue(c *fiber.Ctx) error { return c.JSON(s.svc.PauseQueue()) }

func (s *Server) resumeQueue(c *fiber.Ctx) error { return c.JSON(s.svc.ResumeQueue()) }

// GET /api/queue/items[?offset=&limit=]: a page of the items.
func (s *Server) queueItems(c *fiber.Ctx) error {
	page, err := pageQuery(c, views.DefaultQueueItems, views.MaxQueueItems)
	if err != nil {
		return err
	}
	items, total := s.svc.QueueItems(page.Offset, page.Limit)
	return c.JSON(views.QueueItemsOf(items, total, page))
}

// DELETE /api/queue/items/:item_id: success family, like DELETE of a job.
func (s *Server) deleteQueueItem(c *fiber.Ctx) error {
	id := c.Params("item_id")
	withExtra(c, fiber.Map{"id": id})
	if err := s.svc.RemoveQueueItem(id); err != nil {
		return err
	}
	return c.JSON(views.QueueItemDeletedOf(id))
}

// pageQuery reads the optional offset and limit of a list (see
// views.PageOf).
func pageQuery(c *fiber.Ctx, def, most int) (views.Page, error) {
	offset, err := intQuery(c, "offset", 0, 0, math.MaxInt32)
	if err != nil {
		return views.Page{}, err
	}
	limit, err := intQuery(c, "limit", 0, 0, math.MaxInt32)
	if err != nil {
		return views.Page{}, err
	}
	return views.PageOf(offset, limit, def, most)
}

// intQuery reads an optional integer query parameter within [lo, hi].
func intQuery(c *fiber.Ctx, name string, def, lo, hi int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < lo || v > hi {
		return 0, core.FailField(core.BadParameter, name, "must be a whole number from %d to %d, got %q", lo, hi, raw)
	}
	return v, nil
}
