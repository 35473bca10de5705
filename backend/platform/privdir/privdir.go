// Package privdir keeps Trove's own folders private. The data folder holds
// the index, which has the text of every indexed file, files of mode 0600
// included; the config folder holds settings and the list of watched
// folders. Both must be the user's alone, whatever folder --data-dir or
// --config-dir names and whatever the umask.
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotPrivate is a folder others can read or write, that Trove cannot
// make private: it belongs to another user.
var ErrNotPrivate = errors.New("other users can read or write it")

// Ensure creates dir (mode 0700) when missing. An existing folder that
// other users may read, write or enter is made 0700 when it is the
// user's own, and fixed says what was done (to log and to show); a folder
// of another user that others may use is refused with ErrNotPrivate,
// since the index in it would not be the user's alone.
func Ensure(dir string) (fixed string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", &fs.PathError{Op: "use", Path: dir, Err: errors.New("not a folder")}
	}
	open := st.Mode().Perm() & 0o077
	if open == 0 {
		return "", nil
	}
	if !ownedByMe(st) {
		return "", fmt.Errorf("%s (mode %04o, owned by another user): %w; choose a folder of your own", dir, st.Mode().Perm(), ErrNotPrivate)
	}
	if err := os.Chmod(dir, st.Mode().Perm()&^0o077); err != nil {
		return "", fmt.Errorf("%s (mode %04o): %w, and it cannot be changed: %v", dir, st.Mode().Perm(), ErrNotPrivate, err)
	}
	return fmt.Sprintf("%s was open to other users (mode %04o); Trove made it private (%04o)", dir, st.Mode().Perm(), st.Mode().Perm()&^0o077), nil
}
