package testserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Raw sends one request whose request-target goes on the wire exactly as
// given (net/http would clean or escape it), with the token when the server
// has one and headers given as pairs. It is for tests of odd spellings of
// paths and malformed requests.
func (s *Server) Raw(method, target string, headers ...string) Response {
	s.t.Helper()
	var req strings.Builder
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", method, target)
	if s.Token != "" {
		fmt.Fprintf(&req, "Authorization: Bearer %s\r\n", s.Token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&req, "%s: %s\r\n", headers[i], headers[i+1])
	}
	req.WriteString("\r\n")
	return s.RawBytes([]byte(req.String()))
}

// RawBytes writes request bytes on a new connection and reads one response.
func (s *Server) RawBytes(request []byte) Response {
	s.t.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL, "http://"), 10*time.Second)
	if err != nil {
		s.t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := conn.Write(request); err != nil {
		s.t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		s.t.Fatalf("reading the answer to %q: %v", request, err)
	}
	var raw []byte
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") { // an open stream never ends
		raw, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			s.t.Fatalf("reading the answer to %q: %v", request, err)
		}
	}
	if method, target, ok := requestLine(request); ok && raw != nil {
		s.checkAnswer(method, target, resp, raw)
	}
	return responseOf(resp, raw)
}
