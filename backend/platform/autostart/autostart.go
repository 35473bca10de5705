// Package autostart writes and removes the desktop's "start at login"
// entry for the Trove app: an XDG autostart file on Linux and the BSDs, a
// LaunchAgent on macOS, a Run registry value on Windows (entry_*.go).
package autostart

import (
	"fmt"
	"os"
	"path/filepath"

	"trove/backend/core"
)

// HiddenFlag makes the desktop app start in the tray without its window,
// as it should at login.
const HiddenFlag = "--hidden"

// ID names the entry, as the desktop file and the D-Bus name do.
const ID = "dev.trove.Trove"

// Entry is the login item of one program.
type Entry struct {
	exe string // the program to start, absolute
}

// For the running program; an error when its path cannot be known.
func ForThisProgram() (Entry, error) {
	exe, err := os.Executable()
	if err != nil {
		return Entry{}, fmt.Errorf("cannot find this program's path: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return Entry{exe: exe}, nil
}

// For names the program explicitly (tests, and a packaged path).
func For(exe string) Entry { return Entry{exe: exe} }

// Status reports whether the entry exists.
func (e Entry) Status() (core.LoginItem, error) {
	path, err := entryPath()
	if err != nil {
		return core.LoginItem{Supported: false}, nil
	}
	item := core.LoginItem{Supported: true, Path: path, Command: e.command()}
	item.Enabled, err = present(path)
	return item, err
}

// Set writes the entry (on) or removes it (off); both are idempotent.
func (e Entry) Set(on bool) (core.LoginItem, error) {
	path, err := entryPath()
	if err != nil {
		return core.LoginItem{}, core.Fail(core.NotSupported, "starting at login is not supported on this system")
	}
	if on {
		err = e.write(path)
	} else {
		err = remove(path)
	}
	if err != nil {
		return core.LoginItem{}, err
	}
	return e.Status()
}

func exists(path string) (bool, error) {
	_, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	return err == nil, err
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove the login entry: %w", err)
	}
	return nil
}
