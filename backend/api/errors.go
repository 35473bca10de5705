package api

import (
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/views"
)

// The spec uses three error shapes, one per family of endpoints. Each route
// group records its family in the request locals; the error handler reads it.
type shape int

const (
	// shapeStatus: {"status": "error", "error": {"code", "message"}}
	shapeStatus shape = iota
	// shapeSuccess: {"success": false, "message", "code"}
	shapeSuccess
	// shapeBare: {"error": "message"}
	shapeBare
)

const shapeKey = "trove.errshape"

// family returns middleware that makes errors of a route group take s.
func family(s shape) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Locals(shapeKey, s)
		return c.Next()
	}
}

// extraKey holds fields an endpoint adds to its error body (such as job_id).
const extraKey = "trove.errextra"

func withExtra(c *fiber.Ctx, fields fiber.Map) { c.Locals(extraKey, fields) }

// statusOf maps an error to its HTTP status: the core sentinels, Fiber's own
// errors (unknown route, body too large), else 500.
func statusOf(err error) int {
	if st := views.HTTPStatus(err); st != 0 {
		return st
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return fiber.StatusInternalServerError
}

// errorHandler writes every error in its route family's shape. Internal
// errors are logged with detail and reported without it.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	status := statusOf(err)
	code := core.CodeOf(err, views.CodeOfStatus(status))
	msg := err.Error()
	switch status {
	case fiber.StatusRequestEntityTooLarge:
		msg = fmt.Sprintf("request body is larger than %d KiB", BodyLimit/1024)
	case fiber.StatusInternalServerError:
		s.log.Error("request failed", "method", c.Method(), "path", c.Path(), "err", err)
		msg = views.InternalMessage
	}
	sh, _ := c.Locals(shapeKey).(shape)
	var body fiber.Map
	switch sh {
	case shapeSuccess:
		body = fiber.Map{"success": false, "message": msg, "code": code}
	case shapeBare:
		body = fiber.Map{"error": msg}
	default:
		e := fiber.Map{"code": code, "message": msg}
		if f := core.FieldOf(err); f != "" {
			e["field"] = f
		}
		body = fiber.Map{"status": "error", "error": e}
	}
	if extra, ok := c.Locals(extraKey).(fiber.Map); ok {
		for k, v := range extra {
			body[k] = v
		}
	}
	return c.Status(status).JSON(body)
}
