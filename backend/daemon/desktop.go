package daemon

import (
	"context"
	"errors"
	"log/slog"

	"trove/backend/core"
	"trove/backend/platform/launch"
	"trove/backend/platform/sessionbus"
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
