package globalkey

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"trove/internal/desktoptest"
)

func TestParseAccel(t *testing.T) {
	for in, want := range map[string][3]string{
		"<Ctrl><Alt>space":  {"<Ctrl><Alt>space", "CTRL+ALT+space", "Ctrl+Alt+Space"},
		"<Control><alt>K":   {"<Ctrl><Alt>k", "CTRL+ALT+k", "Ctrl+Alt+K"},
		"<Super>F12":        {"<Super>F12", "LOGO+F12", "Super+F12"},
		" <Shift><Ctrl>9 ":  {"<Ctrl><Shift>9", "CTRL+SHIFT+9", "Ctrl+Shift+9"},
		"<Primary>page_up":  {"<Ctrl>Page_Up", "CTRL+Page_Up", "Ctrl+Page_Up"},
		"<Meta><Mod1>Space": {"<Alt><Super>space", "ALT+LOGO+space", "Alt+Super+Space"},
	} {
		a, err := ParseAccel(in)
		if err != nil {
			t.Errorf("ParseAccel(%q): %v", in, err)
			continue
		}
		if got := [3]string{a.String(), a.Trigger(), a.Label()}; got != want {
			t.Errorf("ParseAccel(%q) = %v, want %v", in, got, want)
		}
	}
	for in, why := range map[string]string{
		"space":             "needs Ctrl, Alt or Super",
		"<Shift>a":          "needs Ctrl, Alt or Super",
		"<Ctrl><Alt>":       "no key",
		"<Ctrl><Hyper>a":    "not a modifier",
		"<Ctrl>F25":         "not a key",
		"<Ctrl>ümlaut":      "not a key",
		"<Ctrl":             "not closed",
		"<Ctrl><Alt>space2": "not a key",
	} {
		if _, err := ParseAccel(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseAccel(%q) = %v, want an error saying %q", in, err, why)
		}
	}
	if a, _ := ParseAccel(DefaultShortcut); a.Sym != 0x20 || !a.Ctrl || !a.Alt || a.Super || a.Shift {
		t.Errorf("the default is %+v", a)
	}
}

// reports collects what Run says.
type reports struct {
	mu  sync.Mutex
	got []string // "state: message"
}

func (r *reports) report(state, msg string, _ slog.Level) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, state+": "+msg)
}

func (r *reports) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.got) == 0 {
		return ""
	}
	return r.got[len(r.got)-1]
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for delay := 5 * time.Millisecond; !cond(); delay = min(delay*2, 200*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(delay) // polling interval: cond decides
	}
}

// typist presses keys on an X server through XTEST, as a person would.
type typist struct {
	conn *xgb.Conn
	root xproto.Window
	m    *xproto.GetKeyboardMappingReply
	min  xproto.Keycode
}

func newTypist(t *testing.T, display string) *typist {
	t.Helper()
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	if err := xtest.Init(conn); err != nil {
		t.Skipf("no XTEST: %v", err)
	}
	setup := xproto.Setup(conn)
	m, err := xproto.GetKeyboardMapping(conn, setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return &typist{conn: conn, root: setup.DefaultScreen(conn).Root, m: m, min: setup.MinKeycode}
}

func (k *typist) code(t *testing.T, sym uint32) byte {
	t.Helper()
	per := int(k.m.KeysymsPerKeycode)
	for i := 0; i*per < len(k.m.Keysyms); i++ {
		if uint32(k.m.Keysyms[i*per]) == sym {
			return byte(int(k.min) + i)
		}
	}
	t.Fatalf("no key for keysym %#x", sym)
	return 0
}

// chord presses the keys in order and lets them go in reverse.
func (k *typist) chord(t *testing.T, syms ...uint32) {
	t.Helper()
	for _, s := range syms {
		if err := xtest.FakeInputChecked(k.conn, xproto.KeyPress, k.code(t, s), 0, k.root, 0, 0, 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(syms) - 1; i >= 0; i-- {
		xtest.FakeInputChecked(k.conn, xproto.KeyRelease, k.code(t, syms[i]), 0, k.root, 0, 0, 0).Check()
	}
}

const (
	symControlL = 0xffe3
	symAltL     = 0xffe9
	symSpace    = 0x20
	symK        = 0x6b
)

func TestX11GrabOpensQuickSearchAndRebindsOnChange(t *testing.T) {
	display := desktoptest.X(t)
	keys := newTypist(t, display)
	pressed := make(chan struct{}, 8)
	var mu sync.Mutex
	shortcut := DefaultShortcut
	changed := make(chan struct{}, 1)
	rep := &reports{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, Options{Display: display, Changed: changed, Report: rep.report,
			Shortcut:  func() string { mu.Lock(); defer mu.Unlock(); return shortcut },
			Activated: func() { pressed <- struct{}{} }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "the grab", func() bool { return strings.HasPrefix(rep.last(), "ok: Ctrl+Alt+Space opens quick search") })
	press := func(what string) {
		t.Helper()
		select {
		case <-pressed:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not open quick search", what)
		}
	}

	keys.chord(t, symControlL, symAltL, symSpace)
	press("Ctrl+Alt+Space")
	// Space alone, or with Ctrl only, stays the applications' own.
	keys.chord(t, symControlL, symSpace)
	keys.chord(t, symSpace)

	mu.Lock()
	shortcut = "<Ctrl><Alt>k"
	mu.Unlock()
	changed <- struct{}{}
	waitFor(t, "the new grab", func() bool { return strings.HasPrefix(rep.last(), "ok: Ctrl+Alt+K") })
	keys.chord(t, symControlL, symAltL, symSpace) // no longer the shortcut
	keys.chord(t, symControlL, symAltL, symK)
	press("Ctrl+Alt+K")
	// The X server delivers in order: a press of the chords that are not
	// the shortcut would have come before this one.
	if n := len(pressed); n != 0 {
		t.Errorf("%d presses of keys that are not the shortcut opened quick search", n)
	}
	// The old key is free again: another program can take it.
	other, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	root := xproto.Setup(other).DefaultScreen(other).Root
	if err := xproto.GrabKeyChecked(other, true, root, modCtrl|modAlt, xproto.Keycode(keys.code(t, symSpace)), xproto.GrabModeAsync, xproto.GrabModeAsync).Check(); err != nil {
		t.Errorf("Ctrl+Alt+Space still held after the change: %v", err)
	}
}

func TestX11SaysWhenTheKeyIsTaken(t *testing.T) {
	display := desktoptest.X(t)
	keys := newTypist(t, display)
	other, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	root := xproto.Setup(other).DefaultScreen(other).Root
	if err := xproto.GrabKeyChecked(other, true, root, modCtrl|modAlt, xproto.Keycode(keys.code(t, symSpace)), xproto.GrabModeAsync, xproto.GrabModeAsync).Check(); err != nil {
		t.Fatal(err)
	}
	rep := &reports{}
	o := Options{Display: display, Shortcut: func() string { return DefaultShortcut }, Report: rep.report}
	if run := o.bind(context.Background()); run != nil {
		t.Fatal("bound a key another program holds")
	}
	if got := rep.last(); !strings.HasPrefix(got, "unavailable: Ctrl+Alt+Space is taken by another program") {
		t.Errorf("report = %q", got)
	}
}

func TestWithoutPortalOrX11ItSaysWhatToDo(t *testing.T) {
	rep := &reports{}
	o := Options{Display: ":0", Wayland: true, Shortcut: func() string { return DefaultShortcut }, Report: rep.report}
	if run := o.bind(context.Background()); run != nil {
		t.Fatal("bound a key on Wayland without a portal")
	}
	if got := rep.last(); !strings.Contains(got, "no global shortcut") || !strings.Contains(got, "trove-desktop quick") {
		t.Errorf("report = %q", got)
	}
	o.Shortcut = func() string { return "" }
	if o.bind(context.Background()); !strings.HasPrefix(rep.last(), "off: ") {
		t.Errorf("empty shortcut: %q", rep.last())
	}
}

// portal plays xdg-desktop-portal's GlobalShortcuts on a private bus:
// xdg-desktop-portal and a desktop backend that implements the interface
// cannot run here.
type portal struct {
	conn    *dbus.Conn
	mu      sync.Mutex
	trigger string // the preferred_trigger asked for
	session dbus.ObjectPath
	decline bool
}

func (p *portal) respond(sender dbus.Sender, token string, code uint32, results map[string]dbus.Variant) dbus.ObjectPath {
	path := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + token)
	go p.conn.Emit(path, requestIface+".Response", code, results) // after the method's reply, as the portal does
	return path
}

func (p *portal) CreateSession(opts map[string]dbus.Variant, sender dbus.Sender) (dbus.ObjectPath, *dbus.Error) {
	token, _ := opts["handle_token"].Value().(string)
	stoken, _ := opts["session_handle_token"].Value().(string)
	p.mu.Lock()
	p.session = dbus.ObjectPath("/org/freedesktop/portal/desktop/session/x/" + stoken)
	session := p.session
	p.mu.Unlock()
	return p.respond(sender, token, 0, map[string]dbus.Variant{"session_handle": dbus.MakeVariant(string(session))}), nil
}

func (p *portal) BindShortcuts(session dbus.ObjectPath, shortcuts []struct {
	ID   string
	Opts map[string]dbus.Variant
}, parent string, opts map[string]dbus.Variant, sender dbus.Sender) (dbus.ObjectPath, *dbus.Error) {
	token, _ := opts["handle_token"].Value().(string)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.decline {
		return p.respond(sender, token, 1, map[string]dbus.Variant{}), nil
	}
	p.trigger, _ = shortcuts[0].Opts["preferred_trigger"].Value().(string)
	type bound struct {
		ID   string
		Opts map[string]dbus.Variant
	}
	out := []bound{{shortcuts[0].ID, map[string]dbus.Variant{"trigger_description": dbus.MakeVariant("Ctrl+Alt+Space (portal)")}}}
	return p.respond(sender, token, 0, map[string]dbus.Variant{"shortcuts": dbus.MakeVariant(out)}), nil
}

func startPortal(t *testing.T, addr string) *portal {
	t.Helper()
	conn := desktoptest.Connect(t, addr)
	p := &portal{conn: conn}
	if err := conn.Export(p, portalPath, shortcutsIface); err != nil {
		t.Fatal(err)
	}
	props := map[string]any{"version": uint32(1)}
	if err := conn.ExportMethodTable(map[string]any{"Get": func(iface, name string) (dbus.Variant, *dbus.Error) {
		if v, ok := props[name]; ok && iface == shortcutsIface {
			return dbus.MakeVariant(v), nil
		}
		return dbus.Variant{}, dbus.MakeFailedError(dbus.ErrMsgUnknownInterface)
	}}, portalPath, "org.freedesktop.DBus.Properties"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPortalBindsAndActivates(t *testing.T) {
	addr := desktoptest.Bus(t)
	p := startPortal(t, addr)
	bus := desktoptest.Connect(t, addr)
	pressed := make(chan struct{}, 4)
	rep := &reports{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, Options{Bus: bus, Display: "", Shortcut: func() string { return "<Super>F12" }, Report: rep.report,
			Activated: func() { pressed <- struct{}{} }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "the binding", func() bool { return strings.HasPrefix(rep.last(), "ok: ") })
	if got := rep.last(); !strings.Contains(got, "Ctrl+Alt+Space (portal) opens quick search") {
		t.Errorf("report = %q, want the desktop's own description of the key", got)
	}
	p.mu.Lock()
	trigger, session := p.trigger, p.session
	p.mu.Unlock()
	if trigger != "LOGO+F12" {
		t.Errorf("preferred_trigger = %q", trigger)
	}
	// Another session's activation, or another shortcut's, is not ours.
	p.conn.Emit(portalPath, shortcutsIface+".Activated", dbus.ObjectPath("/other"), shortcutID, uint64(0), map[string]dbus.Variant{})
	p.conn.Emit(portalPath, shortcutsIface+".Activated", session, "other", uint64(0), map[string]dbus.Variant{})
	p.conn.Emit(portalPath, shortcutsIface+".Activated", session, shortcutID, uint64(0), map[string]dbus.Variant{})
	select {
	case <-pressed:
	case <-time.After(10 * time.Second):
		t.Fatal("no activation")
	}
	// Signals arrive in the order sent: one of the others counted would
	// show before this press, or as a second one now.
	if n := len(pressed); n != 0 {
		t.Errorf("%d activations that were not ours counted", n)
	}
}

func TestPortalDeclined(t *testing.T) {
	addr := desktoptest.Bus(t)
	p := startPortal(t, addr)
	p.mu.Lock()
	p.decline = true
	p.mu.Unlock()
	rep := &reports{}
	o := Options{Bus: desktoptest.Connect(t, addr), Display: "", Shortcut: func() string { return DefaultShortcut }, Report: rep.report}
	if run := o.bind(context.Background()); run != nil {
		t.Fatal("bound though the desktop declined")
	}
	if got := rep.last(); !strings.HasPrefix(got, "unavailable: The desktop declined Ctrl+Alt+Space") {
		t.Errorf("report = %q", got)
	}
}
