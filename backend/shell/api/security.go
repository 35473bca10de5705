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
// visit. Five guards, in order:
//
//  1. Host must be a loopback name (or the address the user chose to bind),
//     which defeats DNS rebinding.
//  2. A request carrying an Origin must come from Trove's own UI at its
//     addresses; other origins get 403 and no CORS headers.
//  3. An /api request that a browser says another site made (Sec-Fetch-Site)
//     and that carries no Origin gets 403: see crossSite.
//  4. A request with a body must say it is JSON, which browsers cannot send
//     cross-origin without a preflight the CORS rule refuses.
//  5. With TROVE_TOKEN set, /api requires it as a bearer token (or ?token=
//     for EventSource, which cannot set headers), under every spelling of
//     /api (see isAPIPath).
//
// The desktop window's requests reach the server in process (Server.Window),
// never over a socket: no page or program can send one, so of the five
// they meet only the fourth.
//
// Every answer, refusals included, says Cross-Origin-Resource-Policy:
// same-origin, so a browser that sent a request from another page without
// the Sec-Fetch-Site header still hands that page nothing to show or measure;
// and that no page may frame it (see noFraming).

func (s *Server) guard(c *fiber.Ctx) error {
	shielded(c)
	if ctx, ok := windowContext(c); ok {
		c.SetUserContext(service.Trusted(ctx))
		if err := jsonBody(c); err != nil {
			return err
		}
		return pass(c)
	}
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
	api := isAPIPath(c.Path())
	if api && crossSite(c) {
		return fiber.NewError(fiber.StatusForbidden, "forbidden: another site's page cannot use the Trove API")
	}
	if err := jsonBody(c); err != nil {
		return err
	}
	if s.token != "" && api && !s.validToken(c) {
		return fiber.NewError(fiber.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer <TROVE_TOKEN>")
	}
	if s.token != "" && s.validToken(c) {
		// Only a caller that showed the token is the person's: the service
		// checks this mark itself, whatever path led to it.
		c.SetUserContext(service.Trusted(c.UserContext()))
	}
	return pass(c)
}

// jsonBody refuses a body that does not say it is JSON.
func jsonBody(c *fiber.Ctx) error {
	if len(c.Body()) > 0 && !isJSON(c.Get(fiber.HeaderContentType)) {
		return fiber.NewError(fiber.StatusUnsupportedMediaType, "request bodies must be JSON: set Content-Type: application/json")
	}
	return nil
}

// pass hands an admitted request, the window's included, to its route.
func pass(c *fiber.Ctx) error {
	c.Set("X-Content-Type-Options", "nosniff")
	if isAPIPath(c.Path()) {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return c.Next()
}

// noFraming is the CSP directive that forbids showing an answer inside a
// frame of any page, Trove's own included: a page that framed the UI could
// lay its own buttons over it (clickjacking) and choose its address, and
// Trove never frames itself (the desktop window is a webview, not a frame).
const noFraming = "frame-ancestors 'none'"

// shielded sets the headers every answer carries, refusals included: the
// error handler sets them again for errors raised before the guard runs.
// The UI's page and an image replace the CSP with a fuller one that keeps
// noFraming; X-Frame-Options says the same to browsers that predate
// frame-ancestors.
func shielded(c *fiber.Ctx) {
	c.Set("Cross-Origin-Resource-Policy", "same-origin")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	if len(c.Response().Header.Peek(fiber.HeaderContentSecurityPolicy)) == 0 {
		c.Set(fiber.HeaderContentSecurityPolicy, noFraming)
	}
}

// crossSite reports whether a browser made the request for a page of
// another site, or of another port of this host (which browsers count as
// the same site, so Sec-Fetch-Site says same-site), and the request shows
// no Origin. Such requests are the ones the Origin check cannot see:
// <img>, <script>, <link>, <iframe> and links send no Origin on GET, yet
// an image's size and load time are readable, and loading one at all tells
// a page that a file with that id is indexed. Trove's own UI fetches from
// its own origin (same-origin), a typed address or bookmark says none, and
// programs send no Sec-Fetch-Site; all of those pass. A request that shows
// an Origin has passed the Origin check, so it comes from Trove's own UI
// and passes too.
func crossSite(c *fiber.Ctx) bool {
	switch strings.ToLower(c.Get("Sec-Fetch-Site")) {
	case "cross-site", "same-site":
		return c.Get(fiber.HeaderOrigin) == ""
	}
	return false
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

// allowedOrigin reports whether a page of origin may call the API: the web
// UI at one of Trove's own addresses. The desktop window calls in process
// (Window), so no other origin is admitted: every Wails app's pages share
// the window's origins.
func (s *Server) allowedOrigin(origin string) bool {
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
