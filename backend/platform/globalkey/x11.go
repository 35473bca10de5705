package globalkey

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// On X11 a program takes a global shortcut by grabbing the key on the
// root window: the server then sends it that key wherever the focus is.
// A key another program grabbed first (the desktop's own shortcut, say)
// cannot be grabbed: the server answers BadAccess.

// ErrTaken means another program holds the shortcut.
var ErrTaken = errors.New("another program holds this shortcut")

// Lock (Caps Lock) and Mod2 (Num Lock, on nearly every keymap) must not
// change what a shortcut is, so each grab is made with and without them.
const (
	modShift = xproto.ModMaskShift
	modLock  = xproto.ModMaskLock
	modCtrl  = xproto.ModMaskControl
	modAlt   = xproto.ModMask1
	modNum   = xproto.ModMask2
	modSuper = xproto.ModMask4
)

var lockVariants = []uint16{0, modLock, modNum, modLock | modNum}

// repeatGap: a held key repeats; presses closer than this are one.
const repeatGap = 300 * time.Millisecond

// x11Grab is a shortcut grabbed on one display.
type x11Grab struct {
	conn  *xgb.Conn
	root  xproto.Window
	codes []xproto.Keycode
	mods  uint16
	once  sync.Once
}

// grabX11 grabs a on display's root window.
func grabX11(display string, a Accel) (*x11Grab, error) {
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("cannot open X display %s: %w", display, err)
	}
	setup := xproto.Setup(conn)
	g := &x11Grab{conn: conn, root: setup.DefaultScreen(conn).Root, mods: modifierMask(a)}
	g.codes, err = keycodes(conn, setup, a.Sym)
	if err != nil {
		conn.Close()
		return nil, err
	}
	for _, code := range g.codes {
		for _, v := range lockVariants {
			err := xproto.GrabKeyChecked(conn, true, g.root, g.mods|v, code, xproto.GrabModeAsync, xproto.GrabModeAsync).Check()
			if err != nil {
				g.close()
				var access xproto.AccessError
				if errors.As(err, &access) {
					return nil, ErrTaken
				}
				return nil, fmt.Errorf("cannot grab the key: %w", err)
			}
		}
	}
	return g, nil
}

func modifierMask(a Accel) uint16 {
	var m uint16
	for _, b := range []struct {
		on   bool
		mask uint16
	}{{a.Ctrl, modCtrl}, {a.Alt, modAlt}, {a.Shift, modShift}, {a.Super, modSuper}} {
		if b.on {
			m |= b.mask
		}
	}
	return m
}

// keycodes are the keys of the keyboard map that type sym, unshifted or
// shifted.
func keycodes(conn *xgb.Conn, setup *xproto.SetupInfo, sym uint32) ([]xproto.Keycode, error) {
	first, count := setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)
	m, err := xproto.GetKeyboardMapping(conn, first, count).Reply()
	if err != nil {
		return nil, fmt.Errorf("cannot read the keyboard map: %w", err)
	}
	per := int(m.KeysymsPerKeycode)
	var out []xproto.Keycode
	for i := 0; i < int(count); i++ {
		for j := 0; j < min(per, 2); j++ {
			if uint32(m.Keysyms[i*per+j]) == sym {
				out = append(out, xproto.Keycode(int(first)+i))
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no key on this keyboard types it")
	}
	return out, nil
}

// run calls activated for each press until ctx ends, then lets the key
// go.
func (g *x11Grab) run(ctx context.Context, activated func()) {
	stop := context.AfterFunc(ctx, g.close) // WaitForEvent returns once the connection is closed
	defer stop()
	defer g.close()
	var last time.Time
	for {
		ev, err := g.conn.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		press, ok := ev.(xproto.KeyPressEvent)
		if !ok || press.State&^(modLock|modNum) != g.mods || !g.ours(press.Detail) {
			continue
		}
		now := time.Now()
		if now.Sub(last) > repeatGap {
			activated()
		}
		last = now
	}
}

func (g *x11Grab) ours(code xproto.Keycode) bool {
	for _, c := range g.codes {
		if c == code {
			return true
		}
	}
	return false
}

// close lets the key go and closes the connection.
func (g *x11Grab) close() {
	g.once.Do(func() {
		for _, code := range g.codes {
			for _, v := range lockVariants {
				xproto.UngrabKey(g.conn, code, g.root, g.mods|v)
			}
		}
		g.conn.Close()
	})
}
