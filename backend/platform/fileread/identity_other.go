//go:build !unix

package fileread

import "io/fs"

// Identity is the device and inode of a file's stat; 0, 0 here, where a
// stat does not carry them (callers then compare size and time).
func Identity(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
