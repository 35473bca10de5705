//go:build unix

package fileread

import (
	"io/fs"
	"syscall"
)

// Identity is the device and inode of a file's stat: what stays the same
// while a file is renamed or written to, and changes when another file
// takes its name. 0, 0 where the system does not say.
func Identity(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino
	}
	return 0, 0
}
