package app

import (
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
	conn *dbus.Conn
	mu   sync.Mutex
	show func()
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
	err = conn.ExportMethodTable(map[string]any{"Show": inst.onShow}, instancePath, instanceIface)
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
func (i *Instance) onShow() *dbus.Error {
	i.mu.Lock()
	show := i.show
	i.mu.Unlock()
	if show != nil {
		show()
	}
	return nil
}

// onSecondLaunch sets what a second launch does (show the main window).
func (i *Instance) onSecondLaunch(f func()) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.show = f
	i.mu.Unlock()
}

// Release gives the claim up (at exit).
func (i *Instance) Release() {
	if i != nil {
		i.conn.Close()
	}
}
