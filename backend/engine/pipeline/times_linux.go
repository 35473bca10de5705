package pipeline

import (
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// fileTimes is the access time and the birth time from statx, zero where
// the file system records none.
func fileTimes(path string, st fs.FileInfo) (accessed, birth time.Time) {
	accessed = st.ModTime()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		accessed = time.Unix(sys.Atim.Unix())
	}
	var stx unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &stx) == nil && stx.Mask&unix.STATX_BTIME != 0 {
		birth = time.Unix(stx.Btime.Sec, int64(stx.Btime.Nsec))
	}
	return accessed, birth
}
