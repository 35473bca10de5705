package fileread

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// dirFlags open a directory only to look up names in it.
const dirFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC

// noatime keeps indexing from touching access times, where permitted.
const noatime = unix.O_NOATIME

var errNoOpenat2 = errors.New("openat2 unavailable")

// noOpenat2 is set once openat2 proved missing (kernels before 5.6, or a
// seccomp filter that refuses it): the walk is used from then on.
var noOpenat2 atomic.Bool

// openat2Below opens rel below dir in one system call, refusing any link
// and any escape from dir.
func openat2Below(dir int, rel string) (int, error) {
	if noOpenat2.Load() {
		return -1, errNoOpenat2
	}
	how := unix.OpenHow{
		Flags:   uint64(fileFlags | noatime),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(dir, rel, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.EPERM && how.Flags&unix.O_NOATIME != 0:
			how.Flags &^= unix.O_NOATIME
			continue
		case err == unix.ENOSYS || err == unix.EPERM || err == unix.E2BIG:
			// EPERM without O_NOATIME: a seccomp filter (some containers).
			noOpenat2.Store(true)
			return -1, errNoOpenat2
		}
		return fd, err
	}
}
