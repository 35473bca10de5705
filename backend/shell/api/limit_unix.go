//go:build unix

package api

import "golang.org/x/sys/unix"

// fileLimit is the process's soft limit on open files.
func fileLimit() (uint64, bool) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil || lim.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return lim.Cur, true
}
