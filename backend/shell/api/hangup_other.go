//go:build !unix

package api

import (
	"syscall"
)

// peekClosed cannot watch sockets on this system: it reports data waiting,
// which ends the watching at once.
func peekClosed(syscall.RawConn) (bool, error) { return false, nil }
