package app

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// apiInProcess routes the window's requests for /api to the API's own
// handler (api.Server.Window), in process, and the rest to the built UI.
// The window thus has one transport with scripts: the same routes,
// answers and errors, and no binding to keep in step with an endpoint.
// No socket is involved, so no page or program elsewhere can pose as the
// window, and the API admits no extra origin for it.
func apiInProcess(api http.Handler, log *slog.Logger) assetserver.Middleware {
	return func(ui http.Handler) http.Handler {
		var mu sync.Mutex
		seen := map[string]bool{}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api" && !strings.HasPrefix(r.URL.Path, "/api/") {
				ui.ServeHTTP(w, r)
				return
			}
			rec := &statusOf{ResponseWriter: w, status: http.StatusOK}
			api.ServeHTTP(rec, r)
			// The first request of each method, for the record (and the
			// desktop smoke test): the window reached the API in process,
			// with a body too, and what it was answered.
			mu.Lock()
			first := !seen[r.Method]
			seen[r.Method] = true
			mu.Unlock()
			if first {
				log.Info("the window reaches the API in process", "method", r.Method, "path", r.URL.Path, "status", rec.status)
			}
		})
	}
}

// statusOf notes the status a handler answered with.
type statusOf struct {
	http.ResponseWriter
	status int
}

func (s *statusOf) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Flush passes a stream's flushes on.
func (s *statusOf) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
