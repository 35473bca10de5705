//go:build unix && !linux

package fileread

import (
	"errors"

	"golang.org/x/sys/unix"
)

const (
	dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	noatime  = 0
)

var errNoOpenat2 = errors.New("openat2 unavailable")

func openat2Below(int, string) (int, error) { return -1, errNoOpenat2 }
