//go:build unix

package fileread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// fileFlags open the file itself: never blocking (a FIFO opens at once),
// never following a link, never leaking into a child process.
const fileFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC

// openBelow opens path, which must lie below root, without following any
// symbolic link below root (root itself is the user's choice and may be
// reached through links).
func openBelow(root, path string) (*os.File, error) {
	rel, err := below(root, path)
	if err != nil {
		return nil, err
	}
	if root == "" {
		root = filepath.Dir(path)
	}
	dir, err := unix.Open(root, dirFlags, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(dir)
	fd, err := openat2Below(dir, rel)
	if errors.Is(err, errNoOpenat2) {
		fd, err = walkBelow(dir, rel)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: linkError(err)}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// walkBelow opens rel below dir one component at a time, each with
// O_NOFOLLOW: a directory swapped for a link on the way is refused.
func walkBelow(dir int, rel string) (int, error) {
	parts := strings.Split(rel, string(filepath.Separator))
	cur := dir
	for i, name := range parts {
		if name == "" || name == "." || name == ".." {
			closeIfNot(cur, dir)
			return -1, ErrOutside
		}
		if i == len(parts)-1 {
			fd, err := openatRetry(cur, name, fileFlags|noatime)
			closeIfNot(cur, dir)
			return fd, err
		}
		next, err := unix.Openat(cur, name, dirFlags|unix.O_NOFOLLOW, 0)
		if err == unix.ENOTDIR && isLink(cur, name) {
			// O_PATH|O_NOFOLLOW opens the link itself, which is no directory.
			err = unix.ELOOP
		}
		closeIfNot(cur, dir)
		if err != nil {
			return -1, err
		}
		cur = next
	}
	return -1, ErrOutside
}

// openatRetry drops O_NOATIME when the file is not ours to open that way.
func openatRetry(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EPERM && flags&noatime != 0:
			flags &^= noatime
			continue
		}
		return fd, err
	}
}

func isLink(dir int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

func closeIfNot(fd, keep int) {
	if fd != keep {
		unix.Close(fd)
	}
}

// linkError names the errors a link on the way gives: ELOOP for a link
// refused by O_NOFOLLOW or RESOLVE_NO_SYMLINKS, EXDEV for an escape that
// RESOLVE_BENEATH refused, ENOTDIR for a directory turned into a file.
func linkError(err error) error {
	switch {
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EXDEV), errors.Is(err, unix.EMLINK):
		return ErrLink
	}
	return err
}
