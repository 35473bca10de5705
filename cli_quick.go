package main

import (
	"os"
	"path/filepath"
)

// sessionBusProblem says why `trove quick` cannot reach the desktop
// session's bus, or "" when one is there. Without an address and without
// the usual socket, the D-Bus library would try to start dbus-launch and
// report that it is missing, which tells a user nothing.
func sessionBusProblem() string {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return ""
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if st, err := os.Stat(filepath.Join(dir, "bus")); err == nil && st.Mode()&os.ModeSocket != 0 {
			return ""
		}
	}
	return "no desktop session bus here (DBUS_SESSION_BUS_ADDRESS is unset): quick search opens the window of the Trove app running in your desktop session, so run it from that session (a desktop hotkey); from a terminal, use `" + prog + " search WORDS`"
}
