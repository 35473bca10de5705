//go:build !windows && !darwin

package app

import (
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/godbus/dbus/v5"
)

// One Trove per desktop session: the first owns this name on the session
// bus; a second launch (a click on the launcher while Trove sits in the
// tray) asks the first to show its window and exits, instead of failing on
// the API port the first already holds.
const (
	instanceName  = "dev.trove.Trove"
	instancePath  = dbus.ObjectPath("/dev/trove/Trove")
	instanceIface = "dev.trove.Trove"
)

// Instance is this process's claim on being the session's Trove.
type Instance struct {
	conn *dbus.Conn
	win  atomic.Pointer[window] // set by Run; bus calls before that do nothing
}

// ClaimInstance claims the session's Trove. When another process holds the
// claim, it asks that one to show its window and returns first = false.
// Without a session bus there is nothing to coordinate with: the claim
// succeeds, says so in the log, and inst is nil.
func ClaimInstance(log *slog.Logger) (inst *Instance, first bool) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		log.Warn("no session bus: a second launch cannot find this one", "err", err)
		return nil, true
	}
	inst = &Instance{conn: conn}
	err = conn.ExportMethodTable(map[string]any{"Show": inst.onShow, "Quick": inst.onQuick}, instancePath, instanceIface)
	if err != nil {
		log.Warn("cannot offer Show and Quick on the session bus", "err", err)
		conn.Close()
		return nil, true
	}
	reply, err := conn.RequestName(instanceName, dbus.NameFlagDoNotQueue)
	switch {
	case err != nil:
		log.Warn("cannot claim "+instanceName+" on the session bus", "err", err)
	case reply == dbus.RequestNameReplyExists:
		call := conn.Object(instanceName, instancePath).Call(instanceIface+".Show", 0)
		conn.Close()
		if call.Err == nil {
			return nil, false
		}
		log.Warn("the Trove holding "+instanceName+" does not answer; starting anyway", "err", call.Err)
		return nil, true
	}
	return inst, true
}

// onShow is the bus method a second launch calls.
func (i *Instance) onShow() *dbus.Error {
	if w := i.win.Load(); w != nil {
		w.ShowMain()
	}
	return nil
}

// onQuick is the bus method `trove quick` calls (a hotkey's command).
func (i *Instance) onQuick() *dbus.Error {
	if w := i.win.Load(); w != nil {
		w.ShowQuick()
	}
	return nil
}

// attach makes bus calls act on the window.
func (i *Instance) attach(w *window) {
	if i != nil {
		i.win.Store(w)
	}
}

// ShowQuickSearch asks the session's running Trove to open its quick
// search, for a desktop hotkey bound to `trove quick`.
func ShowQuickSearch() error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return fmt.Errorf("no session bus: %w", err)
	}
	defer conn.Close()
	call := conn.Object(instanceName, instancePath).Call(instanceIface+".Quick", 0)
	if call.Err != nil {
		return fmt.Errorf("Trove is not running in this session (%v)", call.Err)
	}
	return nil
}

// Release gives the claim up (at exit).
func (i *Instance) Release() {
	if i != nil {
		i.conn.Close()
	}
}

// trayHost reports whether the session bus has a tray host (the
// org.kde.StatusNotifierWatcher that panels provide) showing our item.
func trayHost() bool {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return false
	}
	defer conn.Close()
	var has bool
	err = conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&has)
	return err == nil && has
}
