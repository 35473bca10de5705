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
	err = conn.ExportMethodTable(map[string]any{"Show": inst.onShow, "Quick": inst.onQuick, "QuickIn": inst.onQuickIn}, instancePath, instanceIface)
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
func (i *Instance) onQuick() *dbus.Error { return i.onQuickIn("") }

// onQuickIn is the bus method `trove quick --folder` calls (a file
// manager's "Search in this folder").
func (i *Instance) onQuickIn(folder string) *dbus.Error {
	if w := i.win.Load(); w != nil {
		w.ShowQuick(folder)
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
// search below folder ("" for everywhere), for a desktop hotkey bound to
// `trove quick` and a file manager's "Search in this folder". When no
// Trove runs and the package's D-Bus service file is installed, the bus
// starts the app first (as a desktop search does).
func ShowQuickSearch(folder string) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return fmt.Errorf("no session bus: %w", err)
	}
	defer conn.Close()
	quick := func() error {
		if folder == "" {
			return conn.Object(instanceName, instancePath).Call(instanceIface+".Quick", 0).Err
		}
		return conn.Object(instanceName, instancePath).Call(instanceIface+".QuickIn", 0, folder).Err
	}
	err = quick()
	if err != nil && startApp(conn) {
		err = quick()
	}
	if err != nil {
		return fmt.Errorf("Trove is not running in this session (%v)", err)
	}
	return nil
}

// searchService is the name the package's D-Bus service file starts the
// app for (backend/shell/desktopsearch.BusName).
const searchService = "dev.trove.Trove.Search"

// startApp asks the bus to start the app through its service file, and
// reports whether it now runs.
func startApp(conn *dbus.Conn) bool {
	var reply uint32
	err := conn.BusObject().Call("org.freedesktop.DBus.StartServiceByName", 0, searchService, uint32(0)).Store(&reply)
	return err == nil
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
