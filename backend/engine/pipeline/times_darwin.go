package pipeline

import (
	"io/fs"
	"syscall"
	"time"
)

// fileTimes is the access time and the birth time, which APFS and HFS+
// record for every file.
func fileTimes(_ string, st fs.FileInfo) (accessed, birth time.Time) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return st.ModTime(), time.Time{}
	}
	return time.Unix(sys.Atimespec.Unix()), time.Unix(sys.Birthtimespec.Unix())
}
