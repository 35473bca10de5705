package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Error is a failed call to a provider, in words that say who failed and
// how.
type Error struct {
	msg string
	// down: the provider itself failed (not reachable, no answer in time,
	// it refused the model or the key, a server error), as opposed to one
	// request it refused (a text too long, a malformed request).
	down bool
	err  error
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.err }

// Down reports whether err says that the provider itself failed, so that
// every request would fail alike until it is back.
func Down(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.down
}

// Unavailable is an error for a provider that is known to be down.
func Unavailable(format string, args ...any) error {
	return &Error{msg: fmt.Sprintf(format, args...), down: true}
}

// Exchange records the status and, for errors, the start of the body of
// the responses to one call: the client libraries keep them to themselves.
type Exchange struct {
	mu     sync.Mutex
	status int
	body   []byte
}

type exchangeKey struct{}

// Record returns ctx carrying a fresh Exchange, which a Recording client
// fills for the requests made with that context.
func Record(ctx context.Context) (context.Context, *Exchange) {
	rec := &Exchange{}
	return context.WithValue(ctx, exchangeKey{}, rec), rec
}

// Explain turns a client library's error into one that says what went
// wrong: who is the provider and its address ("ollama at http://...");
// ctx is the call's context; rec its exchange (nil when not recorded).
func Explain(ctx context.Context, who string, rec *Exchange, err error) error {
	var status int
	var body []byte
	if rec != nil {
		rec.mu.Lock()
		status, body = rec.status, rec.body
		rec.mu.Unlock()
	}
	switch {
	case ctx.Err() != nil:
		return &Error{msg: fmt.Sprintf("%s: no answer in time: %v", who, ctx.Err()), down: true, err: ctx.Err()}
	case status >= 400:
		msg := serverMessage(body)
		if msg == "" {
			msg = err.Error()
		}
		refusedRequest := status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == http.StatusUnprocessableEntity
		return &Error{msg: fmt.Sprintf("%s: HTTP %d %s: %s", who, status, http.StatusText(status), msg), down: !refusedRequest, err: err}
	case status == 0:
		return &Error{msg: fmt.Sprintf("%s is not reachable: %v", who, err), down: true, err: err}
	}
	return &Error{msg: fmt.Sprintf("%s: malformed answer: %v", who, err), down: true, err: err}
}

// serverMessage extracts the error message of an error body: Ollama's
// {"error": "..."}, OpenAI's {"error": {"message": "..."}}, or the text.
func serverMessage(body []byte) string {
	var o struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &o) == nil && len(o.Error) > 0 {
		var s string
		if json.Unmarshal(o.Error, &s) == nil && s != "" {
			return s
		}
		var m struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(o.Error, &m) == nil && m.Message != "" {
			return m.Message
		}
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return msg
}

// recorder is a transport that fills the exchange of the request's
// context.
type recorder struct{ base http.RoundTripper }

func (t recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if rec, ok := req.Context().Value(exchangeKey{}).(*Exchange); ok {
		var body []byte
		if resp.StatusCode >= 400 {
			body, _ = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		}
		rec.mu.Lock()
		rec.status, rec.body = resp.StatusCode, body
		rec.mu.Unlock()
	}
	return resp, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// Recording returns a copy of c (or of a default client) whose transport
// records exchanges.
func Recording(c *http.Client) *http.Client {
	var cp http.Client
	if c != nil {
		cp = *c
	}
	base := cp.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = recorder{base}
	return &cp
}
