package views

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"trove/backend/core"
)

// HTTPStatus is the HTTP status of one of the core errors (400 invalid,
// 403 forbidden, 404 not found, 409 conflict, 503 unavailable), or 0 for any
// other error.
func HTTPStatus(err error) int {
	switch {
	case errors.Is(err, core.ErrInvalid):
		return http.StatusBadRequest
	case errors.Is(err, core.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, core.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, core.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, core.ErrUnavailable):
		return http.StatusServiceUnavailable
	}
	return 0
}

// InternalMessage is what a client is told of an internal error; the
// detail goes to the log.
const InternalMessage = "internal error; see the Trove log"

var codeOfStatus = map[int]string{
	http.StatusBadRequest:                  "BAD_REQUEST",
	http.StatusUnauthorized:                "UNAUTHORIZED",
	http.StatusForbidden:                   "FORBIDDEN",
	http.StatusNotFound:                    "NOT_FOUND",
	http.StatusMethodNotAllowed:            "METHOD_NOT_ALLOWED",
	http.StatusRequestTimeout:              "REQUEST_TIMEOUT",
	http.StatusConflict:                    "CONFLICT",
	http.StatusRequestEntityTooLarge:       "BODY_TOO_LARGE",
	http.StatusRequestURITooLong:           "URI_TOO_LONG",
	http.StatusUnsupportedMediaType:        "UNSUPPORTED_MEDIA_TYPE",
	http.StatusTooManyRequests:             "TOO_MANY_REQUESTS",
	http.StatusRequestHeaderFieldsTooLarge: "HEADERS_TOO_LARGE",
	http.StatusInternalServerError:         "INTERNAL",
	http.StatusNotImplemented:              "NOT_IMPLEMENTED",
	http.StatusServiceUnavailable:          "UNAVAILABLE",
	http.StatusGatewayTimeout:              "TIMEOUT",
}

// CodeOfStatus is the error code of an HTTP status, for errors that carry
// none of their own. It is never empty: a status without a code of its own
// gets its reason phrase in capitals ("Bad Gateway" -> BAD_GATEWAY).
func CodeOfStatus(status int) string {
	if c, ok := codeOfStatus[status]; ok {
		return c
	}
	text := http.StatusText(status)
	if text == "" {
		if status >= 500 {
			return "INTERNAL"
		}
		return "BAD_REQUEST"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, text)
}

// ErrorInfo is an error as the desktop window receives it: the HTTP status
// the API would answer with, and the code, message and field of its body.
type ErrorInfo struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// Shown gives a domain error the code, field and wording clients see; any
// other error is returned as it is. Codes and words belong here, not in
// the store or the engine, which speak of files, folders and patterns.
func Shown(err error) error {
	var e *core.Error
	if errors.As(err, &e) {
		return err
	}
	var m *core.Missing
	var g *core.BadGlob
	switch {
	case errors.As(err, &m):
		return missingShown(m, err)
	case errors.As(err, &g):
		// The one glob a request carries is the search's path filter.
		return core.FailField(core.BadFilter, "filters.path", "%q is not a valid glob pattern", g.Glob)
	}
	return err
}

func missingShown(m *core.Missing, err error) error {
	switch {
	case m.Thing == core.ThingFolder:
		return core.Fail(core.UnknownFolder, "Watch job %d not found", m.ID)
	case m.Thing == core.ThingFile && m.Path != "":
		return core.Fail(core.UnknownFile, "file %s not found", m.Path)
	case m.Thing == core.ThingFile:
		return core.Fail(core.UnknownFile, "file %d not found", m.ID)
	case m.Thing == core.ThingSaved:
		return core.Fail(core.UnknownSaved, "saved search %d not found", m.ID)
	}
	return err
}

// ErrorOf describes err for a client. Anything that is not one of the core
// errors is internal: its detail belongs in the log, not on screen.
func ErrorOf(err error) ErrorInfo {
	err = Shown(err)
	status := HTTPStatus(err)
	if status == 0 {
		return ErrorInfo{Status: http.StatusInternalServerError, Code: CodeOfStatus(http.StatusInternalServerError), Message: InternalMessage}
	}
	return ErrorInfo{Status: status, Code: CodeOf(err, CodeOfStatus(status)), Message: err.Error(), Field: core.FieldOf(err)}
}

// CodeOf is the API code of err's fault (codes), or fallback.
func CodeOf(err error, fallback string) string {
	if c, ok := codes[core.FaultOf(err)]; ok {
		return c
	}
	return fallback
}

// TooManyConnections is the code of the answer the listener writes
// itself when the connection cap is reached.
const TooManyConnections = "TOO_MANY_CONNECTIONS"

// AllCodes lists every code a client can receive: the faults', the
// statuses' own, and the listener's.
func AllCodes() []string {
	out := []string{TooManyConnections}
	for _, c := range codes {
		out = append(out, c)
	}
	for _, c := range codeOfStatus {
		out = append(out, c)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
