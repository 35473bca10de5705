package api

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// The spec uses three error shapes, one per family of endpoints. The family
// follows from the request's method and path alone, so every error takes
// its endpoint's shape, including those raised before any route is chosen
// (the guard's 401, 403 and 415, fasthttp's 413 and 431, a panic).
type shape int

const (
	// shapeStatus: {"status": "error", "error": {"code", "message"}}
	shapeStatus shape = iota
	// shapeSuccess: {"success": false, "message", "code"}
	shapeSuccess
	// shapeBare: {"error": "message"}, plus Trove's "code"
	shapeBare
)

// families lists the endpoints whose errors are not in the status shape,
// most specific first. A pattern matches its own path and every path below
// it; a "*" segment matches any one segment.
var families = []struct {
	method, pattern string // method "" for any
	shape           shape
}{
	{fiber.MethodDelete, "/api/queue/items/*", shapeSuccess}, // like deleting a job
	// Trove's own actions on a file answer in the status shape, like every
	// endpoint the spec does not name; the rest of /api/files is bare.
	{"", "/api/files/*/preview", shapeStatus},
	{"", "/api/files/*/image", shapeStatus},
	{"", "/api/files/*/thumbnail", shapeStatus},
	{"", "/api/files/*/apps", shapeStatus},
	{"", "/api/files/*/open-with", shapeStatus},
	{"", "/api/files", shapeBare},
	{"", "/api/filters", shapeSuccess},
	{"", "/api/watch/directory", shapeStatus},
	{"", "/api/watch/jobs", shapeSuccess},
	{"", "/api/watch", shapeSuccess},
}

// shapeOf is the error shape of a request.
func shapeOf(method, path string) shape {
	segs := strings.Split(strings.ToLower(path), "/")
	for _, f := range families {
		if (f.method == "" || f.method == method) && below(segs, strings.Split(f.pattern, "/")) {
			return f.shape
		}
	}
	return shapeStatus
}

// below reports whether the path segs is pattern or lies below it.
func below(segs, pattern []string) bool {
	if len(segs) < len(pattern) {
		return false
	}
	for i, p := range pattern {
		if p != "*" && p != segs[i] {
			return false
		}
	}
	return true
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

// errorHandler writes every error in its endpoint's shape with a code.
// Internal errors are logged with detail (a panic with its stack) and
// reported without it.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	shielded(c)
	err = views.Shown(err)
	status := statusOf(err)
	code := views.CodeOf(err, views.CodeOfStatus(status))
	msg := err.Error()
	switch status {
	case fiber.StatusRequestEntityTooLarge:
		msg = fmt.Sprintf("request body is larger than %d KiB", BodyLimit/1024)
	case fiber.StatusRequestHeaderFieldsTooLarge:
		msg = fmt.Sprintf("request line and headers are larger than %d KiB", HeaderLimit/1024)
	case fiber.StatusInternalServerError:
		if p := (*core.PanicError)(nil); errors.As(err, &p) {
			s.logPanic("request handler", p, "method", c.Method(), "path", c.Path())
		} else {
			s.log.Error("request failed", "method", c.Method(), "path", c.Path(), "err", err)
		}
		msg = views.InternalMessage
	}
	var body fiber.Map
	switch shapeOf(c.Method(), c.Path()) {
	case shapeSuccess:
		body = fiber.Map{"success": false, "message": msg, "code": code}
	case shapeBare:
		body = fiber.Map{"error": msg, "code": code}
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
	if status == fiber.StatusServiceUnavailable || status == fiber.StatusTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, "1")
	}
	return c.Status(status).JSON(body)
}
