//go:build !unix

package fileread

import (
	"io/fs"
	"os"
)

// openBelow without the unix calls: the path is checked for links with
// Lstat just before the open (a narrower race than none), and the caller's
// identity check on the open file closes most of the rest.
func openBelow(root, path string) (*os.File, error) {
	if _, err := below(root, path); err != nil {
		return nil, err
	}
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	}
	return os.Open(path)
}
