package api

import (
	"net/url"
	"path"
	"strings"
)

// Paths. The router matches request paths exactly as sent: case-sensitive,
// neither decoded nor cleaned (only trailing slashes are optional, as the
// spec writes some paths with one and some without). So /API/settings/,
// /%61pi/settings/ or //api/settings/ reach no handler. The guard still
// treats every spelling that could mean /api as the API (isAPIPath), so
// that a proxy, a browser or a future router setting that normalises paths
// differently can never carry a request past the token check: what the
// router may send to an API handler is a subset of what the guard guards.

// apiPrefix is where every API route lives; routes() registers them all
// in one group below it.
const apiPrefix = "/api"

// mcpPath is the MCP server's endpoint: guarded as the API is.
const mcpPath = "/mcp"

// isAPIPath reports whether a raw request path is, under any spelling, a
// path below /api or /mcp: in any letter case, percent-decoded
// (repeatedly), with backslashes as slashes, and with dot segments and
// doubled slashes cleaned away. It errs on the side of yes: /apis is an
// API path too.
func isAPIPath(raw string) bool {
	return hasAPIPrefix(raw) || hasAPIPrefix(canonicalPath(raw))
}

func hasAPIPrefix(p string) bool {
	for _, prefix := range []string{apiPrefix, mcpPath} {
		if len(p) >= len(prefix) && strings.EqualFold(p[:len(prefix)], prefix) {
			return true
		}
	}
	return false
}

// canonicalPath is raw decoded and cleaned the way the most lenient server
// or proxy would see it.
func canonicalPath(raw string) string {
	p := raw
	for range 4 { // %2561 -> %61 -> a: a few rounds undo any nesting worth trying
		u, err := url.PathUnescape(p)
		if err != nil || u == p {
			break
		}
		p = u
	}
	if _, rest, ok := strings.Cut(p, "://"); ok { // an absolute URI: its path
		p = "/"
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p = rest[i:]
		}
	}
	p = strings.ReplaceAll(p, `\`, "/")
	return path.Clean("/" + p)
}
