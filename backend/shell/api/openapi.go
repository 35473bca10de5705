package api

import (
	"github.com/gofiber/fiber/v2"

	"trove/backend/shell/apidoc"
)

// GET /api/openapi.json: the OpenAPI 3.1 document of this API, as kept in
// the repository (backend/shell/apidoc/openapi.json).
func openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(apidoc.Kept)
}
