package api

import (
	"github.com/gofiber/fiber/v2"

	"trove/backend/service"
	"trove/backend/shell/views"
)

// GET /api/files/:file_id/preview?query=: an indexed file's text with the
// query's words marked.
func (s *Server) previewFile(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	// The query parser bounds the words' length itself, in characters.
	p, err := s.svc.Preview(c.UserContext(), id, c.Query("query"))
	if err != nil {
		return err
	}
	return c.JSON(views.PreviewOf(p))
}

// GET /api/files/:file_id/image: an indexed image's bytes, for the
// preview. Sandboxed: the bytes are shown, never run.
func (s *Server) fileImage(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	data, mime, err := s.svc.Image(c.UserContext(), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, mime)
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox; "+noFraming)
	c.Set(fiber.HeaderContentDisposition, "inline")
	return c.Send(data)
}

// GET /api/files/:file_id/thumbnail?size=: a small picture of an indexed
// image, PDF or video, as PNG. It may be kept by the browser: a changed file has
// a new picture, drawn only when the file was indexed again.
func (s *Server) fileThumbnail(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	px, err := intQuery(c, "size", service.DefaultThumbnail, service.MinThumbnail, service.MaxThumbnail)
	if err != nil {
		return err
	}
	data, err := s.svc.Thumbnail(c.UserContext(), id, px)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "image/png")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox; "+noFraming)
	c.Set(fiber.HeaderContentDisposition, "inline")
	c.Set(fiber.HeaderCacheControl, "private, max-age=300")
	return c.Send(data)
}

// GET /api/files/:file_id/apps: the applications that open the file's type.
func (s *Server) fileApps(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	apps, err := s.svc.Apps(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(views.AppsOf(apps))
}

// POST /api/files/:file_id/open-with {"app": "<id from /apps>"}.
func (s *Server) openWith(c *fiber.Ctx) error {
	id, err := fileID(c)
	if err != nil {
		return err
	}
	app, err := views.DecodeOpenWith(c.Body())
	if err != nil {
		return err
	}
	path, err := s.svc.OpenWith(c.UserContext(), id, app)
	if err != nil {
		return err
	}
	return c.JSON(views.Opened{Path: path})
}
