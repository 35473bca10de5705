// Package globalkey binds a global shortcut to quick search: through the
// XDG GlobalShortcuts portal where the desktop offers it (KDE Plasma 6,
// GNOME 48 and later, on Wayland and X11), else by grabbing the key on
// the X11 root window. This file reads the shortcut as Settings writes it.
package globalkey

import (
	"fmt"
	"strings"
)

// Accel is a shortcut: modifiers and one key.
type Accel struct {
	Ctrl, Alt, Shift, Super bool
	Key                     string // the key's X keysym name, as written canonically ("space", "a", "F12")
	Sym                     uint32 // its X keysym
}

// DefaultShortcut is Ctrl+Alt+Space: neither GNOME nor KDE Plasma binds
// it (GNOME takes Super+Space for input sources and Super alone for the
// overview; Plasma takes Alt+Space and Alt+F2 for KRunner and Meta alone
// for its launcher), and it is the key the desktop-specific commands of
// Settings bind.
const DefaultShortcut = "<Ctrl><Alt>space"

// ParseAccel reads a shortcut written as GTK does: modifiers in angle
// brackets, then a key name ("<Ctrl><Alt>space", "<Super>F12",
// "<Shift><Ctrl>k"). Modifiers: Ctrl (or Control, Primary), Alt (Mod1),
// Shift, Super (Meta, Mod4, Logo). A shortcut needs Ctrl, Alt or Super:
// a global Shift+key or a bare key would take that key from every
// application.
func ParseAccel(s string) (Accel, error) {
	var a Accel
	rest := strings.TrimSpace(s)
	for strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return Accel{}, fmt.Errorf("%q: a modifier is not closed with >", s)
		}
		switch strings.ToLower(rest[1:end]) {
		case "ctrl", "control", "primary":
			a.Ctrl = true
		case "alt", "mod1":
			a.Alt = true
		case "shift":
			a.Shift = true
		case "super", "meta", "mod4", "logo":
			a.Super = true
		default:
			return Accel{}, fmt.Errorf("%q: %q is not a modifier (use Ctrl, Alt, Shift or Super)", s, rest[1:end])
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	if rest == "" {
		return Accel{}, fmt.Errorf("%q has no key after its modifiers (as in <Ctrl><Alt>space)", s)
	}
	name, sym, ok := keysym(rest)
	if !ok {
		return Accel{}, fmt.Errorf("%q: %q is not a key Trove knows (use a letter, a digit, F1-F24, space, Return, Tab, or a name such as Page_Up)", s, rest)
	}
	a.Key, a.Sym = name, sym
	if !a.Ctrl && !a.Alt && !a.Super {
		return Accel{}, fmt.Errorf("%q needs Ctrl, Alt or Super, or it would take the key from every application", s)
	}
	return a, nil
}

// String is the shortcut as Settings stores it: "<Ctrl><Alt>space".
func (a Accel) String() string {
	var b strings.Builder
	for _, m := range a.modifiers("Ctrl", "Alt", "Shift", "Super") {
		b.WriteString("<" + m + ">")
	}
	return b.String() + a.Key
}

// Trigger is the shortcut as the GlobalShortcuts portal's
// preferred_trigger writes it (the XDG shortcuts format: "CTRL+ALT+space").
func (a Accel) Trigger() string {
	return strings.Join(append(a.modifiers("CTRL", "ALT", "SHIFT", "LOGO"), a.Key), "+")
}

// Label is the shortcut for people: "Ctrl+Alt+Space".
func (a Accel) Label() string {
	key := strings.ToUpper(a.Key[:1]) + a.Key[1:]
	return strings.Join(append(a.modifiers("Ctrl", "Alt", "Shift", "Super"), key), "+")
}

// modifiers names the modifiers a holds, in the order Ctrl, Alt, Shift,
// Super, with the names given for them.
func (a Accel) modifiers(ctrl, alt, shift, super string) []string {
	var out []string
	for _, m := range []struct {
		on   bool
		name string
	}{{a.Ctrl, ctrl}, {a.Alt, alt}, {a.Shift, shift}, {a.Super, super}} {
		if m.on {
			out = append(out, m.name)
		}
	}
	return out
}

// namedKeys are the X keysyms of the keys with names.
var namedKeys = map[string]uint32{
	"space": 0x20, "Return": 0xff0d, "Tab": 0xff09, "Escape": 0xff1b, "BackSpace": 0xff08,
	"Insert": 0xff63, "Delete": 0xffff, "Home": 0xff50, "End": 0xff57, "Page_Up": 0xff55, "Page_Down": 0xff56,
	"Left": 0xff51, "Up": 0xff52, "Right": 0xff53, "Down": 0xff54, "Print": 0xff61, "Pause": 0xff13,
	"grave": 0x60, "minus": 0x2d, "equal": 0x3d, "comma": 0x2c, "period": 0x2e, "slash": 0x2f,
	"semicolon": 0x3b, "apostrophe": 0x27, "bracketleft": 0x5b, "bracketright": 0x5d, "backslash": 0x5c,
}

// keysym reads a key name (any letter case): its canonical name and X
// keysym.
func keysym(name string) (string, uint32, bool) {
	if len(name) == 1 {
		c := name[0] | 0x20 // letters to lower case; digits stay
		switch {
		case c >= 'a' && c <= 'z':
			return string(c), uint32(c), true
		case name[0] >= '0' && name[0] <= '9':
			return name, uint32(name[0]), true
		}
	}
	for n, sym := range namedKeys {
		if strings.EqualFold(n, name) {
			return n, sym, true
		}
	}
	if (name[0] == 'F' || name[0] == 'f') && len(name) <= 3 {
		var n int
		if _, err := fmt.Sscanf(name[1:], "%d", &n); err == nil && n >= 1 && n <= 24 && fmt.Sprint(n) == name[1:] {
			return fmt.Sprintf("F%d", n), 0xffbe + uint32(n-1), true
		}
	}
	return "", 0, false
}
