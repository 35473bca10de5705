// Package sessionbus finds and connects to the desktop session's D-Bus.
package sessionbus

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// ErrNoBus means this process runs outside a desktop session: no
// DBUS_SESSION_BUS_ADDRESS, and no bus socket in XDG_RUNTIME_DIR. Without
// either, the D-Bus library would try to start dbus-launch and report
// that it is missing, which tells nobody anything.
var ErrNoBus = errors.New("no desktop session bus here (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not a socket)")

// Address is the session bus's address, or "" outside a desktop session.
func Address() string {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		sock := filepath.Join(dir, "bus")
		if st, err := os.Stat(sock); err == nil && st.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + sock
		}
	}
	return ""
}

// Connect opens a connection of its own to the bus at addr (the session's
// when ""), authenticated and named; close it when done.
func Connect(addr string) (*dbus.Conn, error) {
	if addr == "" {
		addr = Address()
	}
	if addr == "" {
		return nil, ErrNoBus
	}
	return dbus.Connect(addr)
}

// HasOwner reports whether someone holds name on the bus.
func HasOwner(conn *dbus.Conn, name string) bool {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has)
	return err == nil && has
}
