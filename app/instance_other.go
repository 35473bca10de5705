//go:build windows || darwin

package app

import (
	"errors"
	"log/slog"
)

// Instance is this process's claim on being the session's Trove. Windows
// and macOS have no session bus, and Trove does not claim the session
// there: a second launch fails on the API port instead, saying that Trove
// is probably running (docs/desktop.md, "Other systems").
type Instance struct{}

// ClaimInstance always succeeds here, and says what is missing.
func ClaimInstance(log *slog.Logger) (inst *Instance, first bool) {
	log.Info("one Trove per session is not checked on this system: a second launch stops on the API port")
	return nil, true
}

// ShowQuickSearch is not available without a session bus.
func ShowQuickSearch(folder string) error {
	return errors.New("opening quick search from the command line is not supported on this system; use the tray's Quick search")
}

func (i *Instance) attach(*window) {}

// Release gives the claim up (at exit).
func (i *Instance) Release() {}

// trayHost: Windows' notification area and the macOS menu bar are always
// there, so closing the window only hides it.
func trayHost() bool { return true }
