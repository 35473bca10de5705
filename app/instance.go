package app

import (
	"fmt"
	"sync"

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
	conn  *dbus.Conn
	mu    sync.Mutex
	show  func()
	quick func()
}

// ClaimInstance claims the session's Trove. When another process holds the
// claim, it asks that one to show its window and returns first = false.
// Without a session bus there is nothing to coordinate with: the claim
// succeeds and inst is nil.
func ClaimInstance() (inst *Instance, first bool) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, true
	}
	inst = &Instance{conn: conn}
	err = conn.ExportMethodTable(map[string]any{"Show": inst.onShow, "Quick": inst.onQuick}, instancePath, instanceIface)
	if err != nil {
		conn.Close()
		return nil, true
	}
	reply, err := conn.RequestName(instanceName, dbus.NameFlagDoNotQueue)
	if err == nil && reply == dbus.RequestNameReplyExists {
		call := conn.Object(instanceName, instancePath).Call(instanceIface+".Show", 0)
		conn.Close()
		if call.Err == nil {
			return nil, false
		}
		return nil, true // the other one does not answer: start anyway
	}
	return inst, true
}

// onShow is the bus method a second launch calls.
func (i *Instance) onShow() *dbus.Error { return i.call(func() func() { return i.show }) }

// onQuick is the bus method `trove quick` calls (a hotkey's command).
func (i *Instance) onQuick() *dbus.Error { return i.call(func() func() { return i.quick }) }

func (i *Instance) call(get func() func()) *dbus.Error {
	i.mu.Lock()
	f := get()
	i.mu.Unlock()
	if f != nil {
		f()
	}
	return nil
}

// bind sets what a second launch (show) and `trove quick` (quick) do.
func (i *Instance) bind(show, quick func()) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.show, i.quick = show, quick
	i.mu.Unlock()
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
