package api

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// notBuilt is served at / when the binary carries no web UI.
const notBuilt = `<!doctype html><meta charset="utf-8"><title>Trove</title>
<body style="font-family:system-ui;max-width:40em;margin:4em auto;line-height:1.5">
<h1>Trove is running</h1>
<p>This build carries no web interface: build it with <code>make build</code> (which builds the
frontend first). The API is at <a href="/api/status/">/api/status/</a>; see docs/api.md.</p>`

// uiPolicy is the web UI's Content-Security-Policy. blob: draws the images
// the UI fetches itself (with its token) and shows from memory; no other
// site can name such an address.
const uiPolicy = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " + noFraming

// serveUI serves the single-page web UI from ui: a file when it exists,
// else index.html (the page routes itself), for GET and HEAD outside /api
// (under any spelling: an odd spelling of an API path is a JSON 404).
func (s *Server) serveUI(ui fs.FS) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead || isAPIPath(c.Path()) {
			return c.Next()
		}
		name := strings.TrimPrefix(path.Clean("/"+c.Path()), "/")
		if name == "" {
			name = "index.html"
		}
		data, err := fs.ReadFile(ui, name)
		if err != nil {
			name = "index.html"
			if data, err = fs.ReadFile(ui, name); err != nil {
				c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
				c.Set(fiber.HeaderContentSecurityPolicy, uiPolicy)
				return c.Status(http.StatusOK).SendString(notBuilt)
			}
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = http.DetectContentType(data)
		}
		c.Set(fiber.HeaderContentType, ctype)
		if strings.HasPrefix(name, "assets/") {
			c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable") // hashed names
		} else {
			c.Set(fiber.HeaderCacheControl, "no-cache")
		}
		c.Set(fiber.HeaderContentSecurityPolicy, uiPolicy)
		return c.Send(data)
	}
}

// noUI is the file system of a build without a web interface.
type noUI struct{}

func (noUI) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }
