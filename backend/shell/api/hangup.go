package api

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
)

// Cancelling work when its client hangs up. fasthttp reads a request whole,
// then leaves the connection alone until the handler returns, so a handler
// never learns that its client left (its RequestCtx is cancelled only at
// shutdown). net/http solves this with a background read; a read here
// would steal the bytes of the client's next request, so the watcher below
// peeks instead (recv with MSG_PEEK): it waits in the network poller until
// the socket turns readable, then looks without consuming. A peek of zero
// bytes, or an error, means the client closed or reset the connection;
// bytes mean the client is alive and sent more (the next request), and the
// watcher stops there.

// errClientGone is the cause of a request's context when its client hung up.
var errClientGone = errors.New("the client closed the connection")

// cancelOnHangup gives the rest of the chain a context that ends when the
// client hangs up.
func cancelOnHangup(c *fiber.Ctx) error {
	ctx, cancel := context.WithCancelCause(c.UserContext())
	defer cancel(nil)
	stop := watchHangup(c.Context().Conn(), func() { cancel(errClientGone) })
	defer stop()
	c.SetUserContext(ctx)
	return c.Next()
}

// watchHangup calls gone (once, on its own goroutine) if the peer of conn
// closes or resets the connection before stop is called. stop returns once
// the watcher no longer touches conn, so the server may read from it
// again. For a connection it cannot watch (not a socket), it does nothing.
func watchHangup(conn net.Conn, gone func()) (stop func()) {
	raw := rawConn(conn)
	if raw == nil {
		return func() {}
	}
	w := &watcher{conn: conn, done: make(chan struct{})}
	go w.run(raw, gone)
	return w.stop
}

type watcher struct {
	conn net.Conn
	done chan struct{}

	mu      sync.Mutex // orders stopping against the watcher's deadline resets
	stopped bool
}

func (w *watcher) run(raw syscall.RawConn, gone func()) {
	defer close(w.done)
	// A panic here (in gone, say) ends only the watching.
	_ = core.Safe(func() {
		for {
			closed, err := peekClosed(raw)
			switch {
			case closed:
				gone()
				return
			case err == nil: // the client sent more: it is alive
				return
			case !errors.Is(err, os.ErrDeadlineExceeded): // closed on this side
				return
			}
			// A read deadline passed: ours (stop), or the server's read
			// timeout, which means nothing while a handler runs.
			if !w.keepWatching() {
				return
			}
		}
	})
}

// keepWatching clears the read deadline unless the watcher was stopped.
func (w *watcher) keepWatching() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return false
	}
	w.conn.SetReadDeadline(time.Time{})
	return true
}

// stop wakes the watcher from its wait with a past read deadline and waits
// for it to leave. The server sets its own deadline before its next read.
func (w *watcher) stop() {
	w.mu.Lock()
	w.stopped = true
	w.conn.SetReadDeadline(time.Unix(1, 0))
	w.mu.Unlock()
	<-w.done
}

// rawConn finds the socket under conn (through wrappers that expose what
// they wrap with NetConn, like the connection limiter's).
func rawConn(conn net.Conn) syscall.RawConn {
	for conn != nil {
		if sc, ok := conn.(syscall.Conn); ok {
			raw, err := sc.SyscallConn()
			if err != nil {
				return nil
			}
			return raw
		}
		u, ok := conn.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		conn = u.NetConn()
	}
	return nil
}
