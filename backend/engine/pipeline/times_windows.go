package pipeline

import (
	"io/fs"
	"syscall"
	"time"
)

// fileTimes is the access time and the creation time NTFS keeps.
func fileTimes(_ string, st fs.FileInfo) (accessed, birth time.Time) {
	sys, ok := st.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return st.ModTime(), time.Time{}
	}
	return time.Unix(0, sys.LastAccessTime.Nanoseconds()), time.Unix(0, sys.CreationTime.Nanoseconds())
}
