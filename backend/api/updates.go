package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
)

// GET /api/updates: Server-Sent Events. A new client first receives the
// current state (queue.status and one folder.status per folder), then every
// change. Comments (": heartbeat") keep idle connections alive and reveal
// dead ones. A client that falls far behind is disconnected with a
// "resync" event; EventSource reconnects by itself.
//
// Query: types=kind,kind (only those kinds); heartbeat=seconds (1-60, 15).
func (s *Server) updates(c *fiber.Ctx) error {
	var types []string
	if t := c.Query("types"); t != "" {
		types = strings.Split(t, ",")
	}
	beat, err := intQuery(c, "heartbeat", 15, 1, 60)
	if err != nil {
		return err
	}
	snapshot := s.svc.Snapshot(c.UserContext())
	events, cancel := s.svc.Subscribe(1024, types)
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	closing := s.closing
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		fmt.Fprint(w, "retry: 3000\n\n")
		for _, e := range snapshot {
			if wanted(types, e.Type) {
				writeEvent(w, e)
			}
		}
		if w.Flush() != nil {
			return
		}
		tick := time.NewTicker(time.Duration(beat) * time.Second)
		defer tick.Stop()
		for {
			select {
			case e, ok := <-events:
				if !ok {
					fmt.Fprint(w, "event: resync\ndata: {\"reason\":\"client fell behind\"}\n\n")
					w.Flush()
					return
				}
				writeEvent(w, e)
			case <-tick.C:
				fmt.Fprint(w, ": heartbeat\n\n")
			case <-closing:
				return
			}
			if w.Flush() != nil {
				return // the client went away
			}
		}
	})
	return nil
}

func wanted(types []string, t string) bool {
	if len(types) == 0 {
		return true
	}
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// writeEvent writes one event: its id, its kind as the SSE event name, and
// the whole event as JSON data.
func writeEvent(w *bufio.Writer, e core.Event) {
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	if e.ID != 0 {
		fmt.Fprintf(w, "id: %d\n", e.ID)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, data)
}
