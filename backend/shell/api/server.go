// Package api is Trove's REST API on 127.0.0.1: Fiber routes that decode a
// request, call the service, and encode the answer in the exact shapes of
// the interface spec (docs/api.md documents every endpoint).
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/valyala/fasthttp"

	"trove/backend/core"
	"trove/backend/service"
)

// BodyLimit caps request bodies.
const BodyLimit = 1 << 20

// HeaderLimit caps the request line and headers together (fasthttp's read
// buffer); a longer request is answered 431 HEADERS_TOO_LARGE.
const HeaderLimit = 8 << 10

// Options configure a Server.
type Options struct {
	// Token, when set, is required as a bearer token on /api.
	Token string
	Log   *slog.Logger
	// UI is the built web interface served at /; nil serves a page that
	// says it is not built.
	UI fs.FS
	// OnRequest, when set, is called as each request starts and as it
	// ends, so that the owner can tell when requests stop.
	OnRequest func()
	// MCP, when set, serves the Model Context Protocol's streamable HTTP
	// transport at /mcp, behind the same guards as /api.
	MCP http.Handler
}

// Server serves the API on one listener.
type Server struct {
	svc       *service.Service
	app       *fiber.App
	log       *slog.Logger
	token     string
	ln        net.Listener
	closing   chan struct{} // closed at shutdown: event streams end
	streams   chan struct{} // one token per open /api/updates stream
	port      string
	boundHost string // a non-loopback host the user bound explicitly, if any
	onRequest func() // Options.OnRequest, never nil
}

// Timeouts of a connection: to send a request's headers and body, to take a
// response (an event stream extends its own, see stream.flush), and to
// stay open idle between requests.
const (
	ReadTimeout  = 30 * time.Second
	WriteTimeout = 90 * time.Second
	IdleTimeout  = 60 * time.Second
)

// New builds the server for a listener that is already bound.
func New(svc *service.Service, ln net.Listener, opt Options) *Server {
	conns := maxConns()
	s := &Server{svc: svc, log: opt.Log, token: opt.Token, ln: newLimitListener(ln, conns, opt.Log), closing: make(chan struct{}),
		streams: make(chan struct{}, MaxUpdateClients), onRequest: opt.OnRequest}
	if s.onRequest == nil {
		s.onRequest = func() {}
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	s.port = port
	if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() && !ip.IsUnspecified() {
		s.boundHost = host
	}
	s.app = fiber.New(fiber.Config{
		AppName:               "trove",
		BodyLimit:             BodyLimit,
		DisableStartupMessage: true,
		ErrorHandler:          s.errorHandler,
		JSONEncoder:           encodeJSON,
		// Routing matches paths exactly as sent (see paths.go); only a
		// trailing slash is optional.
		CaseSensitive:  true,
		StrictRouting:  false,
		ReadBufferSize: HeaderLimit,
		ReadTimeout:    ReadTimeout,
		WriteTimeout:   WriteTimeout,
		IdleTimeout:    IdleTimeout,
		Concurrency:    conns, // the listener admits no more
		// Not ReduceMemoryUsage: with it, fasthttp 1.51 loses pipelined
		// requests (TestWatchedConnectionsStayUsable).
	})
	s.app.Use(recoverPanic)
	s.app.Use(s.guard)
	s.routes(opt)
	srv := s.app.Server()
	srv.Handler = s.outermost(srv.Handler)
	srv.SecureErrorLogMessage = true // errors quote no request bytes back
	return s
}

// outermost wraps Fiber's own handler, for what happens before routing:
// a method Fiber does not know (which it would answer in plain text) is a
// 501 in the JSON shape, and a panic in Fiber itself or in the error
// handler becomes a 500 instead of the end of the process.
func (s *Server) outermost(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(fctx *fasthttp.RequestCtx) {
		s.onRequest()
		defer s.onRequest()
		err := core.Safe(func() {
			if !slices.Contains(fiber.DefaultMethods, string(fctx.Method())) {
				s.answerError(fctx, fiber.NewError(fiber.StatusNotImplemented, "method "+string(fctx.Method())+" is not supported"))
				return
			}
			next(fctx)
		})
		if err != nil {
			fctx.Response.Reset()
			if core.Safe(func() { s.answerError(fctx, err) }) != nil {
				fctx.Response.SetStatusCode(fiber.StatusInternalServerError)
			}
		}
	}
}

// logPanic logs a panic recovered on one of the server's goroutines, with
// its stack.
func (s *Server) logPanic(where string, err error, attrs ...any) {
	var p *core.PanicError
	if errors.As(err, &p) {
		attrs = append(attrs, "panic", fmt.Sprint(p.Value), "stack", string(p.Stack))
	} else {
		attrs = append(attrs, "err", err)
	}
	s.log.Error("panic in "+where, attrs...)
}

// answerError answers a request that no route handled with err.
func (s *Server) answerError(fctx *fasthttp.RequestCtx, err error) {
	c := s.app.AcquireCtx(fctx)
	defer s.app.ReleaseCtx(c)
	s.errorHandler(c, err)
}

// recoverPanic turns a panic in the guard or a handler into that request's
// error (a *core.PanicError, which the error handler logs with its stack
// and answers as a 500 in the endpoint's shape) instead of the end of the
// process: fasthttp runs handlers on its own goroutines and recovers
// nothing.
func recoverPanic(c *fiber.Ctx) (err error) {
	defer core.Recover(&err)
	return c.Next()
}

func (s *Server) routes(opt Options) {
	ui := opt.UI
	a := s.app.Group(apiPrefix)

	set := a.Group("/settings")
	set.Get("/", s.getSettings)
	set.Put("/", s.putSettings)
	set.Get("/defaults", s.getSettingsDefaults)

	flt := a.Group("/filters")
	flt.Get("/config", s.getFilterConfig)
	flt.Put("/config", s.putFilterConfig)
	flt.Post("/pattern", s.addFilterPattern)
	flt.Delete("/pattern", s.removeFilterPattern)
	flt.Post("/apply", s.applyFilters)
	flt.Get("/defaults", s.getFilterDefaults)
	flt.Post("/reset", s.resetFilters)

	files := a.Group("/files")
	files.Get("/stats", s.getFileStats)
	files.Get("/lookup", s.lookupFile)
	files.Get("/:file_id", s.getFile)
	files.Post("/:file_id/open", s.openFile(false))
	files.Post("/:file_id/reveal", s.openFile(true))
	files.Get("/:file_id/preview", s.previewFile)
	files.Get("/:file_id/image", s.fileImage)
	files.Get("/:file_id/thumbnail", s.fileThumbnail)
	files.Get("/:file_id/apps", s.fileApps)
	files.Post("/:file_id/open-with", s.openWith)

	a.Get("/status/", s.getStatus)
	a.Post("/index/rebuild", s.rebuildIndex)

	a.Post("/watch/directory", s.watchDirectory)
	a.Post("/watch/", s.watchLegacy)
	a.Get("/watch/jobs", s.watchJobs)
	a.Delete("/watch/jobs/:job_id", s.deleteJob)
	a.Get("/watched-directories", s.watchedDirectories)
	a.Get("/watched-directories/:id/problems", s.folderProblems)

	q := a.Group("/queue")
	q.Get("/status", s.queueStatus)
	q.Post("/pause", s.pauseQueue)
	q.Post("/resume", s.resumeQueue)
	q.Get("/items", s.queueItems)
	q.Delete("/items/:item_id", s.deleteQueueItem)

	a.Get("/updates", s.updates)
	if opt.MCP != nil {
		s.app.All(mcpPath, adaptor.HTTPHandler(opt.MCP))
	}
	a.Get("/openapi.json", openAPI)

	saved := a.Group("/saved-searches")
	saved.Get("/", s.listSaved)
	saved.Post("/", s.createSaved)
	saved.Get("/:id", s.getSaved)
	saved.Put("/:id", s.updateSaved)
	saved.Delete("/:id", s.deleteSaved)
	saved.Post("/:id/run", cancelOnHangup, s.runSaved)

	srch := a.Group("/search", cancelOnHangup) // a search stops when its client leaves
	srch.Post("/", s.search)
	srch.Get("/stream", s.searchStream)

	if ui == nil {
		ui = noUI{}
	}
	s.app.Use(s.serveUI(ui))
	s.app.Use(func(c *fiber.Ctx) error {
		return fiber.NewError(fiber.StatusNotFound, "no route "+c.Method()+" "+c.Path())
	})
}

// Run serves until ctx is cancelled, then stops accepting connections and
// waits (up to the grace period) for in-flight requests to finish.
func (s *Server) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.app.Listener(s.ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	close(s.closing)
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.app.ShutdownWithContext(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// A shutdown that comes before the server has taken the listener finds
	// nothing to stop; closing the listener ends that Serve too (it returns
	// nil for a closed listener).
	s.ln.Close()
	return <-errc
}

// Handler exposes the Fiber app, for serving the UI beside the API.
func (s *Server) Handler() *fiber.App { return s.app }

// encodeJSON is encoding/json without HTML escaping, so snippets keep their
// <mark> tags readable.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
