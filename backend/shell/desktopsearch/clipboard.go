package desktopsearch

import (
	"github.com/godbus/dbus/v5"

	"trove/backend/core"
)

// KRunner's "copy path" needs a clipboard, and a clipboard belongs to a
// process with a display. The desktop app has one (its window copies).
// A headless `trove serve` has none; there it asks Klipper, Plasma's
// clipboard manager, over the same session bus: KRunner is KDE's, and
// Klipper runs in nearly every Plasma session. With neither, Match does
// not offer the action.

const (
	klipperName   = "org.kde.klipper"
	klipperPath   = dbus.ObjectPath("/klipper")
	klipperMethod = "org.kde.klipper.klipper.setClipboardContents"
)

// canCopy reports whether there is a clipboard to copy to now.
func (p *Providers) canCopy() bool {
	return p.svc.Window() != nil || p.hasOwner(klipperName)
}

// copyText puts text on the clipboard: through the window, else Klipper.
func (p *Providers) copyText(text string) error {
	if w := p.svc.Window(); w != nil {
		return w.CopyText(text)
	}
	if !p.hasOwner(klipperName) {
		return core.Fail(core.NoClipboard, "no clipboard to copy to: Trove runs without a window here, and Klipper is not running")
	}
	if err := p.conn.Object(klipperName, klipperPath).Call(klipperMethod, 0, text).Err; err != nil {
		return core.Fail(core.NoClipboard, "Klipper did not take the path: %v", err)
	}
	return nil
}

func (p *Providers) hasOwner(name string) bool {
	var has bool
	err := p.conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has)
	return err == nil && has
}
