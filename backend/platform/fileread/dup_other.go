//go:build !unix

package fileread

import (
	"errors"
	"os"
)

func dupFile(fd *os.File) (*os.File, error) {
	return nil, &os.PathError{Op: "dup", Path: fd.Name(), Err: errors.ErrUnsupported}
}
