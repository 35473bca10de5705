package pipeline

import (
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// fileTimes is the access time and the creation time: the birth time from
// statx where the file system records one, else the modification time, the
// latest the file can have been created (the inode's change time is no
// creation time: any chmod or rename moves it).
func fileTimes(path string, st fs.FileInfo) (accessed, created time.Time) {
	accessed, created = st.ModTime(), st.ModTime()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		accessed = time.Unix(sys.Atim.Unix())
	}
	var stx unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &stx) == nil && stx.Mask&unix.STATX_BTIME != 0 {
		created = time.Unix(stx.Btime.Sec, int64(stx.Btime.Nsec))
	}
	return accessed, created
}
