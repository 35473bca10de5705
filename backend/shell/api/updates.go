package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

// MaxUpdateClients bounds the open /api/updates streams: one per browser
// tab or window is the normal use, so this is far above need and far below
// what would strain memory or file descriptors.
const MaxUpdateClients = 64

// updateQueue is how many events a stream may fall behind before it is
// ended with a "resync" event.
const updateQueue = 1024

// GET /api/updates: Server-Sent Events. A new client first receives the
// current state (queue.status and one folder.status per folder), then every
// change. Comments (": heartbeat") keep idle connections alive and reveal
// dead ones. A client that falls far behind is disconnected with a
// "resync" event; EventSource reconnects by itself. With MaxUpdateClients
// streams open, a new one is refused with 503 TOO_MANY_CLIENTS.
//
// Query: types=kind,kind (only those kinds); heartbeat=seconds (1-60, 15).
func (s *Server) updates(c *fiber.Ctx) error {
	types, err := views.EventTypes(c.Query("types"))
	if err != nil {
		return err
	}
	beat, err := intQuery(c, "heartbeat", 15, 1, 60)
	if err != nil {
		return err
	}
	select {
	case s.streams <- struct{}{}:
	default:
		return core.Fail(core.TooManyClients, "%d update streams are open, the most Trove serves at once; close one (another tab or window) and retry", MaxUpdateClients)
	}
	st := &stream{srv: s, conn: c.Context().Conn(), types: types, beat: time.Duration(beat) * time.Second,
		snapshot: s.svc.Snapshot(c.UserContext()), sub: s.svc.Subscribe(updateQueue, types)}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	c.Context().SetBodyStreamWriter(s.streamBody(st))
	return nil
}

// streamBody writes st. fasthttp runs it on a goroutine of its own, after
// the handler has returned: the stream's slot and subscription are
// released there, and a panic is recovered there.
func (s *Server) streamBody(st *stream) func(*bufio.Writer) {
	return func(w *bufio.Writer) {
		defer func() { <-s.streams }()
		defer st.sub.Cancel()
		if err := core.Safe(func() { st.run(w) }); err != nil {
			s.logPanic("event stream", err)
		}
	}
}

// StreamsOpen reports how many /api/updates streams are open.
func (s *Server) StreamsOpen() int { return len(s.streams) }

// stream is one /api/updates client.
type stream struct {
	srv      *Server
	conn     net.Conn
	types    []string
	beat     time.Duration
	snapshot []core.Event
	sub      *service.Subscription
}

// streamWriteTimeout is how long a write to a stream may wait for a client
// that does not read before the stream is ended.
const streamWriteTimeout = 30 * time.Second

func (st *stream) run(w *bufio.Writer) {
	gone := make(chan struct{})
	stop := watchHangup(st.conn, func() { close(gone) })
	defer stop()
	fmt.Fprint(w, "retry: 3000\n\n")
	for _, e := range st.snapshot {
		if wanted(st.types, e.Type) {
			st.write(w, e)
		}
	}
	st.snapshot = nil
	if st.flush(w) != nil {
		return
	}
	tick := time.NewTicker(st.beat)
	defer tick.Stop()
	var batch []core.Event
	for {
		select {
		case <-st.sub.Ready():
			var live bool
			batch, live = st.sub.Take(batch[:0])
			for _, e := range batch {
				st.write(w, e)
			}
			if !live {
				resync := views.ResyncEvent{Reason: "subscription ended"}
				if st.sub.FellBehind() {
					resync.Reason = "client fell behind"
				}
				data, _ := json.Marshal(resync) // a struct of one string always encodes
				fmt.Fprintf(w, "event: resync\ndata: %s\n\n", data)
				st.flush(w)
				return
			}
			clear(batch) // the events' data is garbage once written
		case <-tick.C:
			fmt.Fprint(w, ": heartbeat\n\n")
		case <-st.srv.closing:
			return
		case <-gone:
			return
		}
		if st.flush(w) != nil {
			return // the client went away
		}
	}
}

// flush sends what is buffered, giving a client that does not read until
// the next heartbeat plus streamWriteTimeout.
func (st *stream) flush(w *bufio.Writer) error {
	if st.conn != nil {
		st.conn.SetWriteDeadline(time.Now().Add(st.beat + streamWriteTimeout))
	}
	return w.Flush()
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

// write writes one event: its id, its kind as the SSE event name, and
// the whole event as JSON data.
func (st *stream) write(w *bufio.Writer, e core.Event) {
	data, err := json.Marshal(e)
	if err != nil { // a payload type that cannot encode: a bug, not the client's
		st.srv.log.Error("event not sent", "type", e.Type, "err", err)
		return
	}
	if e.ID != 0 {
		fmt.Fprintf(w, "id: %d\n", e.ID)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, data)
}
