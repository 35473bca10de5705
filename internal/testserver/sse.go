package testserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Event is one Server-Sent Event as a client sees it.
type Event struct {
	ID   string
	Type string
	Data map[string]any // the event object: id, type, time, data
}

// Payload is the event's own data object.
func (e Event) Payload() map[string]any {
	m, _ := e.Data["data"].(map[string]any)
	return m
}

// Stream is a live /api/updates connection collecting events.
type Stream struct {
	mu       sync.Mutex
	events   []Event
	comments int
	closed   bool
	cancel   context.CancelFunc
	invalid  []error // events that do not match the OpenAPI document
}

// Subscribe opens /api/updates with the given query string.
func (s *Server) Subscribe(query string) *Stream {
	s.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/api/updates?"+query, nil)
	if s.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		s.t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		s.t.Fatalf("updates: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s.checkAnswer("GET", "/api/updates?"+query, resp, []byte("(a stream)"))
	st := &Stream{cancel: cancel}
	go st.read(resp)
	s.t.Cleanup(func() {
		st.Close()
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, err := range st.invalid {
			s.t.Error(err)
		}
	})
	return st
}

func (st *Stream) read(resp *http.Response) {
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cur Event
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Type != "" {
				err := checkEvent(cur.Type, data)
				st.mu.Lock()
				st.events = append(st.events, cur)
				if err != nil {
					st.invalid = append(st.invalid, err)
				}
				st.mu.Unlock()
			}
			data = nil
			cur = Event{}
		case strings.HasPrefix(line, ":"):
			st.mu.Lock()
			st.comments++
			st.mu.Unlock()
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = []byte(line[6:])
			json.Unmarshal(data, &cur.Data)
		}
	}
	st.mu.Lock()
	st.closed = true
	st.mu.Unlock()
}

// Close ends the stream.
func (st *Stream) Close() { st.cancel() }

// Events returns the events received so far, optionally of one type.
func (st *Stream) Events(typ string) []Event {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []Event
	for _, e := range st.events {
		if typ == "" || e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// Comments counts heartbeat comments received.
func (st *Stream) Comments() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.comments
}

// Closed reports whether the server ended the stream.
func (st *Stream) Closed() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.closed
}

// WaitFor polls until an event of typ satisfies match.
func (st *Stream) WaitFor(t interface {
	Helper()
	Fatalf(string, ...any)
}, typ string, within time.Duration, match func(Event) bool) Event {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		for _, e := range st.Events(typ) {
			if match == nil || match(e) {
				return e
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s event within %v; got %d events", typ, within, len(st.Events("")))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
