package api

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Beyond its limit the listener answers a connection with a 503 in the
// status shape and closes it; a closed connection frees its slot.
func TestListenerCapsConnections(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newLimitListener(inner, 2, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer l.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial()
	dial()
	first, second := <-accepted, <-accepted
	defer second.Close()
	over := dial()
	over.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(over), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 503 || !strings.Contains(string(body), `"code":"TOO_MANY_CONNECTIONS"`) || l.Open() != 2 {
		t.Fatalf("%d %s, %d open", resp.StatusCode, body, l.Open())
	}
	first.Close()
	dial()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(10 * time.Second):
		t.Fatal("a freed slot was not reused")
	}
}

// flakyListener fails its first accepts with errs.
type flakyListener struct {
	net.Listener
	errs []error
}

func (f *flakyListener) Accept() (net.Conn, error) {
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		return nil, err
	}
	return f.Listener.Accept()
}

// Running out of descriptors, buffers or memory, or a connection aborted
// before it was accepted, is retried; a closed listener ends Accept.
func TestListenerRetriesTransientAcceptErrors(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	errs := []error{
		&net.OpError{Op: "accept", Err: syscall.EMFILE}, &net.OpError{Op: "accept", Err: syscall.ENFILE},
		&net.OpError{Op: "accept", Err: syscall.ENOBUFS}, &net.OpError{Op: "accept", Err: syscall.ECONNABORTED},
	}
	l := newLimitListener(&flakyListener{Listener: inner, errs: errs}, 4, slog.New(slog.NewTextHandler(io.Discard, nil)))
	c, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := l.Accept()
	if err != nil {
		t.Fatalf("accept gave up: %v", err)
	}
	got.Close()
	l.Close()
	if _, err := l.Accept(); err == nil {
		t.Fatal("accept on a closed listener succeeded")
	}
}
