// Package api is Trove's REST API on 127.0.0.1: Fiber routes that decode a
// request, call the service, and encode the answer in the exact shapes of
// the interface spec (docs/api.md documents every endpoint).
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"trove/backend/service"
)

// BodyLimit caps request bodies.
const BodyLimit = 1 << 20

// Options configure a Server.
type Options struct {
	// Token, when set, is required as a bearer token on /api.
	Token string
	Log   *slog.Logger
	// UI is the built web interface served at /; nil serves a page that
	// says it is not built.
	UI fs.FS
}

// Server serves the API on one listener.
type Server struct {
	svc       *service.Service
	app       *fiber.App
	log       *slog.Logger
	token     string
	ln        net.Listener
	closing   chan struct{} // closed at shutdown: event streams end
	port      string
	boundHost string // a non-loopback host the user bound explicitly, if any
}

// New builds the server for a listener that is already bound.
func New(svc *service.Service, ln net.Listener, opt Options) *Server {
	s := &Server{svc: svc, log: opt.Log, token: opt.Token, ln: ln, closing: make(chan struct{})}
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
		ReadTimeout:           30 * time.Second,
		IdleTimeout:           120 * time.Second,
	})
	s.app.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: s.logPanic}))
	s.app.Use(s.guard)
	s.routes(opt.UI)
	return s
}

func (s *Server) logPanic(c *fiber.Ctx, e any) {
	s.log.Error("panic in handler", "method", c.Method(), "path", c.Path(), "panic", e)
}

func (s *Server) routes(ui fs.FS) {
	a := s.app.Group("/api")

	set := a.Group("/settings", family(shapeStatus))
	set.Get("/", s.getSettings)
	set.Put("/", s.putSettings)
	set.Get("/defaults", s.getSettingsDefaults)

	flt := a.Group("/filters", family(shapeSuccess))
	flt.Get("/config", s.getFilterConfig)
	flt.Put("/config", s.putFilterConfig)
	flt.Post("/pattern", s.addFilterPattern)
	flt.Delete("/pattern", s.removeFilterPattern)
	flt.Post("/apply", s.applyFilters)
	flt.Get("/defaults", s.getFilterDefaults)
	flt.Post("/reset", s.resetFilters)

	files := a.Group("/files", family(shapeBare))
	files.Get("/stats", s.getFileStats)
	files.Get("/lookup", s.lookupFile)
	files.Get("/:file_id", s.getFile)
	files.Post("/:file_id/open", s.openFile(false))
	files.Post("/:file_id/reveal", s.openFile(true))
	files.Get("/:file_id/preview", family(shapeStatus), s.previewFile) // new: errors with codes
	files.Get("/:file_id/image", family(shapeStatus), s.fileImage)
	files.Get("/:file_id/apps", family(shapeStatus), s.fileApps)
	files.Post("/:file_id/open-with", family(shapeStatus), s.openWith)

	a.Get("/status/", family(shapeStatus), s.getStatus)

	a.Post("/watch/directory", family(shapeStatus), s.watchDirectory)
	a.Post("/watch/", family(shapeSuccess), s.watchLegacy)
	a.Get("/watch/jobs", family(shapeSuccess), s.watchJobs)
	a.Delete("/watch/jobs/:job_id", family(shapeSuccess), s.deleteJob)
	a.Get("/watched-directories", family(shapeStatus), s.watchedDirectories)
	a.Get("/watched-directories/:id/problems", family(shapeStatus), s.folderProblems)

	q := a.Group("/queue", family(shapeStatus))
	q.Get("/status", s.queueStatus)
	q.Post("/pause", s.pauseQueue)
	q.Post("/resume", s.resumeQueue)
	q.Get("/items", s.queueItems)
	q.Delete("/items/:item_id", family(shapeSuccess), s.deleteQueueItem)

	a.Get("/updates", family(shapeStatus), s.updates)

	srch := a.Group("/search", family(shapeStatus))
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
