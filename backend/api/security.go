package api

import (
	"crypto/subtle"
	"mime"
	"net"
	"strings"

	"github.com/gofiber/fiber/v2"

	"trove/backend/service"
)

// The local API must not be reachable from web pages the person happens to
// visit. Four guards, in order:
//
//  1. Host must be a loopback name (or the address the user chose to bind),
//     which defeats DNS rebinding.
//  2. A request carrying an Origin must come from Trove's own UI; other
//     origins get 403 and no CORS headers.
//  3. A request with a body must say it is JSON, which browsers cannot send
//     cross-origin without a preflight the CORS rule refuses.
//  4. With TROVE_TOKEN set, /api requires it as a bearer token (or ?token=
//     for EventSource, which cannot set headers), under every spelling of
//     /api (see isAPIPath).

func (s *Server) guard(c *fiber.Ctx) error {
	if !s.allowedHost(c.Get(fiber.HeaderHost)) {
		return fiber.NewError(fiber.StatusForbidden, "forbidden host: the Trove API answers only on loopback names such as 127.0.0.1 and localhost")
	}
	if origin := c.Get(fiber.HeaderOrigin); origin != "" {
		if !s.allowedOrigin(origin) {
			return fiber.NewError(fiber.StatusForbidden, "forbidden origin "+origin)
		}
		c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
		c.Set(fiber.HeaderVary, fiber.HeaderOrigin)
		if c.Method() == fiber.MethodOptions {
			c.Set(fiber.HeaderAccessControlAllowMethods, "GET, POST, PUT, DELETE, OPTIONS")
			c.Set(fiber.HeaderAccessControlAllowHeaders, "Content-Type, Authorization")
			c.Set(fiber.HeaderAccessControlMaxAge, "600")
			return c.SendStatus(fiber.StatusNoContent)
		}
	}
	if len(c.Body()) > 0 && !isJSON(c.Get(fiber.HeaderContentType)) {
		return fiber.NewError(fiber.StatusUnsupportedMediaType, "request bodies must be JSON: set Content-Type: application/json")
	}
	api := isAPIPath(c.Path())
	if s.token != "" && api && !s.validToken(c) {
		return fiber.NewError(fiber.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer <TROVE_TOKEN>")
	}
	if s.token != "" && s.validToken(c) {
		// Only a caller that showed the token is the person's: the service
		// checks this mark itself, whatever path led to it.
		c.SetUserContext(service.Trusted(c.UserContext()))
	}
	c.Set("X-Content-Type-Options", "nosniff")
	if api {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return c.Next()
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func (s *Server) allowedHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	h = strings.ToLower(h)
	switch h {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return h != "" && h == s.boundHost
}

func (s *Server) allowedOrigin(origin string) bool {
	switch origin {
	case "wails://wails", "http://wails.localhost", "wails://wails.localhost":
		return true
	}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		if origin == "http://"+h+":"+s.port {
			return true
		}
	}
	return s.boundHost != "" && origin == "http://"+net.JoinHostPort(s.boundHost, s.port)
}

func (s *Server) validToken(c *fiber.Ctx) bool {
	got := strings.TrimPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
	if got == "" || got == c.Get(fiber.HeaderAuthorization) {
		got = c.Query("token")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}
