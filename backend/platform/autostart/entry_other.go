//go:build !unix && !windows

package autostart

import "errors"

var errUnsupported = errors.New("no login items on this system")

func entryPath() (string, error)   { return "", errUnsupported }
func (e Entry) command() string    { return e.exe + " " + HiddenFlag }
func (e Entry) write(string) error { return errUnsupported }
func present(string) (bool, error) { return false, nil }
func remove(string) error          { return errUnsupported }
