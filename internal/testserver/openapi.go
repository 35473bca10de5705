package testserver

import (
	"bytes"
	"net/http"
	"strings"

	"trove/backend/shell/apidoc/check"
)

// Every answer a test receives through Do, Raw or Subscribe is checked
// against the OpenAPI document kept in the repository: a shape the
// document does not describe fails the test that saw it.

// Checker is the shared checker, for reports of what was checked.
func Checker() *check.Checker {
	c, err := check.Default()
	if err != nil {
		panic("the OpenAPI document does not compile: " + err.Error())
	}
	return c
}

func (s *Server) checkAnswer(method, target string, resp *http.Response, body []byte) {
	s.t.Helper()
	if err := Checker().Response(method, target, resp.StatusCode, resp.Header.Get("Content-Type"), body); err != nil {
		if len(target) > 120 {
			target = target[:120] + "..."
		}
		s.t.Errorf("%s %s: %v", method, target, err)
	}
}

func checkEvent(kind string, data []byte) error { return Checker().Event(kind, data) }

// requestLine reads the method and target of raw request bytes.
func requestLine(request []byte) (method, target string, ok bool) {
	line, _, _ := bytes.Cut(request, []byte("\r\n"))
	parts := strings.Fields(string(line))
	if len(parts) != 3 {
		return "", "", false
	}
	return parts[0], parts[1], true
}
