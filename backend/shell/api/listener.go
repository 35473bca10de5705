package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"
	"trove/backend/shell/views"
)

// Connections. Every connection holds a file descriptor, and a process that
// runs out of them can open neither its index nor the files it indexes.
// The listener below keeps the API's share bounded: at most maxConns
// connections at once (a connection beyond that gets a 503 and is closed
// at once), and an accept that fails for want of descriptors or memory is
// retried with a growing pause instead of ending the server.

// MaxConnections is the most connections the API serves at once (fewer
// when the process may open few files: half its descriptor limit).
const MaxConnections = 512

// maxConns is MaxConnections, or half the descriptor limit if lower.
func maxConns() int {
	if n, ok := fileLimit(); ok {
		return int(max(8, min(MaxConnections, n/2)))
	}
	return MaxConnections
}

// limitListener bounds the open connections and retries failed accepts.
type limitListener struct {
	net.Listener
	log   *slog.Logger
	slots chan struct{}

	closeOnce sync.Once
	done      chan struct{}
	lastLog   time.Time // of a failed accept, to log at most one a second
}

func newLimitListener(ln net.Listener, n int, log *slog.Logger) *limitListener {
	return &limitListener{Listener: ln, log: log, slots: make(chan struct{}, n), done: make(chan struct{})}
}

// Accept returns the next connection there is a slot for. It returns an
// error only when the listener is closed or broken.
func (l *limitListener) Accept() (net.Conn, error) {
	var pause time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if !transient(err) {
				return nil, err
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			l.logFailure(err, pause)
			select {
			case <-time.After(pause):
				continue
			case <-l.done:
				return nil, net.ErrClosed
			}
		}
		pause = 0
		select {
		case l.slots <- struct{}{}:
			return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			refuse(c)
		}
	}
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Open reports how many connections hold a slot.
func (l *limitListener) Open() int { return len(l.slots) }

func (l *limitListener) logFailure(err error, pause time.Duration) {
	if time.Since(l.lastLog) < time.Second {
		return
	}
	l.lastLog = time.Now()
	l.log.Warn("cannot accept API connections; retrying", "err", err, "pause", pause, "open", len(l.slots))
}

// transient reports whether an accept error may pass: the process or the
// system is out of descriptors or buffers, or one connection failed.
func transient(err error) bool {
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED,
		syscall.ECONNRESET, syscall.EINTR, syscall.EAGAIN, syscall.EPROTO, syscall.EPERM, syscall.ETIMEDOUT} {
		if errors.Is(err, e) {
			return true
		}
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// busyAnswer is what a connection beyond the limit receives, before its
// request is read: a 503 in the status family's shape.
var busyAnswer = func() string {
	body := `{"status":"error","error":{"code":"` + views.TooManyConnections + `","message":"Trove is serving as many connections as it allows; retry in a moment"}}`
	return fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"+
		"Retry-After: 1\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

func refuse(c net.Conn) {
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	c.Write([]byte(busyAnswer))
	c.Close()
}

// limitedConn gives its slot back when closed.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// NetConn is the connection underneath, for the hang-up watcher.
func (c *limitedConn) NetConn() net.Conn { return c.Conn }
