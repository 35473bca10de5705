package api

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// windowCall keys the context of a request the desktop window made in
// process (see Window). Only Window sets it, on a request that never
// crossed a socket, so no other program and no page can send one.
type windowCall struct{}

// windowAddr is the client address the window's requests show.
var windowAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}

// Window serves the desktop window's API requests in process: the window's
// webview hands each request for its own origin to Wails's asset server,
// which calls this, so the window and a script share one transport, the
// routes, and their answers and errors, byte for byte. Its requests are
// the person's (service.Trusted) and skip the guards against other pages
// and programs (host, origin, token), which cannot reach this handler.
func (s *Server) Window() http.Handler {
	// The window may call before the listener has started, which is when
	// Fiber builds its routing tree: Handler builds it now.
	s.app.Handler()
	serve := s.app.Server().Handler // with outermost: panics and request counting
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req fasthttp.Request
		err := windowRequest(&req, r)
		var fctx fasthttp.RequestCtx
		fctx.Init(&req, windowAddr, nil)
		fctx.SetUserValue(windowCall{}, r.Context())
		if err != nil {
			s.answerError(&fctx, err) // in the endpoint's shape, as over the network
		} else {
			serve(&fctx)
		}
		writeWindowResponse(w, &fctx.Response)
	})
}

// windowRequest copies r into req, its body up to BodyLimit.
func windowRequest(req *fasthttp.Request, r *http.Request) error {
	req.Header.SetMethod(r.Method)
	req.SetRequestURI(r.URL.RequestURI())
	req.Header.SetHost(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, BodyLimit+1))
	if err != nil {
		return fiber.NewError(fiber.StatusBadRequest, "the request's body could not be read: "+err.Error())
	}
	if len(body) > BodyLimit {
		return fiber.ErrRequestEntityTooLarge
	}
	req.SetBody(body)
	return nil
}

// writeWindowResponse sends res to w; a streamed body (an event stream) is
// passed on as it is written.
func writeWindowResponse(w http.ResponseWriter, res *fasthttp.Response) {
	res.Header.VisitAll(func(k, v []byte) {
		// The asset server frames the body itself.
		if key := string(k); key != fiber.HeaderContentLength && key != fiber.HeaderTransferEncoding {
			w.Header().Add(key, string(v))
		}
	})
	w.WriteHeader(res.StatusCode())
	if !res.IsBodyStream() {
		_, _ = w.Write(res.Body()) // the window went away: nothing to tell
		return
	}
	bw := bufio.NewWriter(flushingWriter{w})
	_ = res.BodyWriteTo(bw)
	_ = bw.Flush()
}

// flushingWriter flushes each write, so a stream's events arrive as sent.
type flushingWriter struct{ w http.ResponseWriter }

func (f flushingWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if fl, ok := f.w.(http.Flusher); ok {
		fl.Flush()
	}
	return n, err
}

// windowContext is the context of the window's request, if c is one.
func windowContext(c *fiber.Ctx) (context.Context, bool) {
	ctx, ok := c.Context().UserValue(windowCall{}).(context.Context)
	return ctx, ok
}
