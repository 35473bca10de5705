package views

import (
	"errors"
	"net/http"

	"trove/backend/core"
)

// HTTPStatus is the HTTP status of one of the core errors (400 invalid,
// 403 forbidden, 404 not found, 409 conflict), or 0 for any other error.
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
	}
	return 0
}

// InternalMessage is what a client is told of an internal error; the
// detail goes to the log.
const InternalMessage = "internal error; see the Trove log"

var codeOfStatus = map[int]string{
	http.StatusBadRequest:            "BAD_REQUEST",
	http.StatusUnauthorized:          "UNAUTHORIZED",
	http.StatusForbidden:             "FORBIDDEN",
	http.StatusNotFound:              "NOT_FOUND",
	http.StatusMethodNotAllowed:      "METHOD_NOT_ALLOWED",
	http.StatusConflict:              "CONFLICT",
	http.StatusRequestEntityTooLarge: "BODY_TOO_LARGE",
	http.StatusUnsupportedMediaType:  "UNSUPPORTED_MEDIA_TYPE",
	http.StatusServiceUnavailable:    "UNAVAILABLE",
	http.StatusInternalServerError:   "INTERNAL",
}

// CodeOfStatus is the error code of an HTTP status, for errors that carry
// none of their own.
func CodeOfStatus(status int) string { return codeOfStatus[status] }

// ErrorInfo is an error as the desktop window receives it: the HTTP status
// the API would answer with, and the code, message and field of its body.
type ErrorInfo struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// ErrorOf describes err for a client. Anything that is not one of the core
// errors is internal: its detail belongs in the log, not on screen.
func ErrorOf(err error) ErrorInfo {
	status := HTTPStatus(err)
	if status == 0 {
		return ErrorInfo{Status: http.StatusInternalServerError, Code: CodeOfStatus(http.StatusInternalServerError), Message: InternalMessage}
	}
	return ErrorInfo{Status: status, Code: core.CodeOf(err, CodeOfStatus(status)), Message: err.Error(), Field: core.FieldOf(err)}
}
