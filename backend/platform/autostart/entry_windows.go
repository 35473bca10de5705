package autostart

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// The Run key of the current user: Windows starts its values at sign-in.
const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

func entryPath() (string, error) { return `HKCU\` + runKey + `\Trove`, nil }

func (e Entry) command() string { return `"` + e.exe + `" ` + HiddenFlag }

func (e Entry) write(string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("open the Run key: %w", err)
	}
	defer k.Close()
	return k.SetStringValue("Trove", e.command())
}

func present(string) (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer k.Close()
	_, _, err = k.GetStringValue("Trove")
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

func remove(string) error {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer k.Close()
	if err := k.DeleteValue("Trove"); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return err
	}
	return nil
}
