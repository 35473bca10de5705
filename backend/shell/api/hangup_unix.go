//go:build unix

package api

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// peekClosed waits until the socket is readable, then peeks: closed is
// true when the peer closed or reset the connection. A nil error with
// closed false means data is waiting; an error means the wait ended (a
// read deadline, or the connection was closed on this side).
func peekClosed(raw syscall.RawConn) (closed bool, err error) {
	var buf [1]byte
	err = raw.Read(func(fd uintptr) bool {
		for {
			n, _, rerr := unix.Recvfrom(int(fd), buf[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
			switch {
			case rerr == unix.EINTR:
				continue
			case rerr == unix.EAGAIN:
				return false // nothing yet: wait in the poller
			case rerr != nil || n == 0:
				closed = true
			}
			return true
		}
	})
	return closed, err
}
