package daemon

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"

	"github.com/godbus/dbus/v5"

	"trove/backend/core"
	"trove/backend/platform/globalkey"
	"trove/backend/platform/launch"
	"trove/backend/platform/sessionbus"
	"trove/backend/service"
	"trove/backend/shell/desktopsearch"
)

// SessionBusFromEnv, as Config.SessionBus, is the desktop session's bus
// (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
const SessionBusFromEnv = "session"

// desktopSearch offers Trove's search to GNOME Shell and KRunner on the
// session bus until ctx ends. Where there is no bus, or another Trove
// answers there already, it says so in the status and waits: the server
// runs as well without.
func (d *Daemon) desktopSearch(ctx context.Context) error {
	addr := d.cfg.SessionBus
	if addr == SessionBusFromEnv {
		addr = sessionbus.Address()
	}
	conn, err := sessionbus.Connect(addr)
	if err != nil {
		d.reportSearch(core.IntegrationUnavailable, "Desktop search is off: "+err.Error(), slog.LevelDebug)
		<-ctx.Done()
		return nil
	}
	defer conn.Close()
	p, err := desktopsearch.Register(conn, d.svc, desktopsearch.Options{
		Log: d.cfg.Log, WebUI: "http://" + d.Addr(), OpenURL: launch.Desktop{}.Open,
	})
	switch {
	case errors.Is(err, desktopsearch.ErrNameTaken):
		d.reportSearch(core.IntegrationUnavailable, "Desktop search is answered by "+err.Error(), slog.LevelInfo)
	case err != nil:
		d.reportSearch(core.IntegrationUnavailable, "Desktop search is off: "+err.Error(), slog.LevelWarn)
	default:
		defer p.Close()
		d.reportSearch(core.IntegrationOK, "Trove answers searches in GNOME's Activities overview and in KRunner", slog.LevelInfo)
	}
	<-ctx.Done()
	return nil
}

func (d *Daemon) reportSearch(state, msg string, level slog.Level) {
	d.svc.ReportIntegration(core.Integration{Name: core.IntegrationSearch, State: state, Message: msg}, level)
}

// BindShortcut binds the global shortcut of Settings (desktop.shortcut)
// until ctx ends, calling activated on each press, and says in the status
// how binding went. The desktop app calls it with its quick search.
func (d *Daemon) BindShortcut(ctx context.Context, activated func()) {
	var bus *dbus.Conn
	if conn, err := sessionbus.Connect(""); err == nil {
		bus = conn
		defer conn.Close()
	}
	changed := make(chan struct{}, 1)
	sub := d.svc.Subscribe(64, []string{core.EventSettings})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer sub.Cancel()
	wg.Go(func() { shortcutChanges(ctx, sub, d.svc.Settings().Desktop.Shortcut, changed) })
	globalkey.Run(ctx, globalkey.Options{
		Bus: bus, Display: os.Getenv("DISPLAY"), Wayland: os.Getenv("WAYLAND_DISPLAY") != "",
		Shortcut: func() string { return d.svc.Settings().Desktop.Shortcut }, Changed: changed, Activated: activated,
		Report: func(state, msg string, level slog.Level) {
			d.svc.ReportIntegration(core.Integration{Name: core.IntegrationShortcut, State: state, Message: msg}, level)
		},
	})
}

// shortcutChanges signals changed each time a settings change carries
// another shortcut, until ctx or the subscription ends.
func shortcutChanges(ctx context.Context, sub *service.Subscription, last string, changed chan<- struct{}) {
	var batch []core.Event
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Ready():
		}
		var live bool
		batch, live = sub.Take(batch[:0])
		for _, e := range batch {
			if s, ok := e.Data.(core.Settings); ok && s.Desktop.Shortcut != last {
				last = s.Desktop.Shortcut
				select {
				case changed <- struct{}{}:
				default:
				}
			}
		}
		if !live {
			return
		}
	}
}
