package api

import (
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// With a token set, a request without it must reach no API handler, under
// any method and any request target: it is refused (401), unrouted (JSON
// 404), an unknown method (501), or the web UI's page. The server has no
// service, so a handler that runs fails (500) or, if it rejects its input
// first, answers some other 4xx; either is caught.
func FuzzTokenGuardsEveryPath(f *testing.F) {
	for _, p := range []string{"/api/status/", "/API/status/", "/%61pi/settings/", "//api/files/1", "/api/./queue/items",
		"/api/../api/settings/", "/api%2Fsettings/", "/api/settings/.", "/Api/files/1/open", "/x/../API/updates?heartbeat=0",
		"/", "/assets/app.js", "/apis", "http://127.0.0.1/API/status/", "*", "/api\\status/"} {
		for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
			f.Add(m, p)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	s := New(nil, ln, Options{Token: "s3cret", Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s.app.Handler()                   // builds the route tree, as serving does
	handler := s.app.Server().Handler // what fasthttp calls: the outermost wrapper
	f.Fuzz(func(t *testing.T, method, target string) {
		if method == "" || strings.ContainsAny(method+target, " \r\n\x00") {
			return // not a request line fasthttp would parse
		}
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.SetMethod(method)
		ctx.Request.SetRequestURI(target)
		ctx.Request.Header.SetHost("127.0.0.1")
		handler(&ctx)
		st, ctype := ctx.Response.StatusCode(), string(ctx.Response.Header.ContentType())
		switch {
		case st == 401, st == 501:
		case st == 404 && strings.HasPrefix(ctype, "application/json"):
		case st == 200 && strings.HasPrefix(ctype, "text/html") && !isAPIPath(string(ctx.Request.URI().PathOriginal())):
		default:
			t.Fatalf("%s %q without the token: %d %s %.200s", method, target, st, ctype, ctx.Response.Body())
		}
	})
}
