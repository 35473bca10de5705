package globalkey

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/godbus/dbus/v5"
)

// States of the shortcut, as Report is told them (the words of
// core.Integration's states).
const (
	StateOK          = "ok"
	StateUnavailable = "unavailable"
	StateOff         = "off"
)

// Options are what Run needs.
type Options struct {
	// Bus is the session bus, for the portal (nil: none).
	Bus *dbus.Conn
	// Display is the X11 display (DISPLAY), "" for none. Wayland says the
	// session is Wayland (WAYLAND_DISPLAY): there an X11 grab sees only
	// the keys typed into X11 windows, so it is not tried.
	Display string
	Wayland bool
	// Shortcut is the shortcut of Settings now ("" for none); Changed
	// receives when it may have changed.
	Shortcut func() string
	Changed  <-chan struct{}
	// Activated is called on each press.
	Activated func()
	// Report says how binding went, for people.
	Report func(state, message string, level slog.Level)
}

// Run binds the shortcut of Settings until ctx ends, binding again each
// time it changes: through the GlobalShortcuts portal where the desktop
// has one, else on X11 by grabbing the key.
func Run(ctx context.Context, o Options) {
	for {
		bctx, unbind := context.WithCancel(ctx)
		var wg sync.WaitGroup
		if run := o.bind(bctx); run != nil {
			wg.Go(func() { run(bctx, o.Activated) })
		}
		select {
		case <-ctx.Done():
		case <-o.Changed:
		}
		unbind()
		wg.Wait()
		if ctx.Err() != nil {
			return
		}
	}
}

// bind binds the shortcut once and returns what serves its presses, or
// nil when it could not be bound (having said why).
func (o Options) bind(ctx context.Context) func(context.Context, func()) {
	text := o.Shortcut()
	if text == "" {
		o.Report(StateOff, "No global shortcut for quick search: the shortcut in Settings › Desktop & agents is empty.", slog.LevelInfo)
		return nil
	}
	a, err := ParseAccel(text)
	if err != nil {
		o.Report(StateUnavailable, "The quick search shortcut cannot be bound: "+err.Error(), slog.LevelWarn)
		return nil
	}
	if o.Bus != nil && hasPortal(o.Bus) {
		p, err := bindPortal(ctx, o.Bus, a)
		if err == nil {
			key := a.Label()
			if p.Trigger != "" {
				key = p.Trigger
			}
			o.Report(StateOK, key+" opens quick search. The desktop holds the shortcut: change it in its keyboard settings, or here.", slog.LevelInfo)
			return p.run
		}
		if errors.Is(err, ErrRefused) || ctx.Err() != nil {
			o.Report(StateUnavailable, fmt.Sprintf("The desktop declined %s as the quick search shortcut. Choose another in Settings › Desktop & agents, or allow it when the desktop asks.", a.Label()), slog.LevelInfo)
			return nil
		}
		o.Report(StateUnavailable, "The desktop's shortcut service failed ("+err.Error()+"); trying another way.", slog.LevelDebug)
	}
	if o.Display != "" && !o.Wayland {
		g, err := grabX11(o.Display, a)
		switch {
		case err == nil:
			o.Report(StateOK, a.Label()+" opens quick search.", slog.LevelInfo)
			return g.run
		case errors.Is(err, ErrTaken):
			o.Report(StateUnavailable, fmt.Sprintf("%s is taken by another program, so it does not open quick search: choose another shortcut in Settings › Desktop & agents.", a.Label()), slog.LevelInfo)
			return nil
		default:
			o.Report(StateUnavailable, fmt.Sprintf("%s could not be taken for quick search: %v.", a.Label(), err), slog.LevelWarn)
			return nil
		}
	}
	o.Report(StateUnavailable, fmt.Sprintf("This desktop gives applications no global shortcut (it offers no GlobalShortcuts portal, and on Wayland applications cannot take keys): "+
		"bind %s to `trove-desktop quick` in the desktop's keyboard settings; Settings › Desktop shows the commands.", a.Label()), slog.LevelInfo)
	return nil
}
