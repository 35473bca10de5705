package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"

	"github.com/godbus/dbus/v5"

	"trove/backend/core"
)

// The tray needs a tray host: a panel that owns org.kde.StatusNotifierWatcher
// on the session bus (KDE, Xfce, Cinnamon and most others; GNOME only with
// the AppIndicator extension). Without one there is no tray icon, and
// Trove says so once, in words, in the log and in Settings, with what
// still works, instead of the tray library's D-Bus error.

const trayWatcher = "org.kde.StatusNotifierWatcher"

const (
	trayShown  = "Trove's icon is in the tray."
	noTrayHost = "No tray on this desktop: nothing here shows status icons (on GNOME, the AppIndicator extension adds them), " +
		"so Trove runs without its tray icon. Everything else works: search from GNOME's Activities overview or KRunner, " +
		"press the quick search shortcut (Settings › Desktop & agents), or open Trove from the applications menu; " +
		"closing the window quits Trove here."
)

// reporter is where integration states go (the service).
type reporter interface {
	ReportIntegration(it core.Integration, level slog.Level)
}

// watchTrayHost reports whether a tray host is there, now and each time
// one comes or goes, until ctx ends or the bus connection closes.
func watchTrayHost(ctx context.Context, conn *dbus.Conn, rep reporter) {
	report := func(has bool) {
		it := core.Integration{Name: core.IntegrationTray, State: core.IntegrationOK, Message: trayShown}
		if !has {
			it.State, it.Message = core.IntegrationUnavailable, noTrayHost
		}
		rep.ReportIntegration(it, slog.LevelInfo)
	}
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals)
	defer conn.RemoveSignal(signals)
	err := conn.AddMatchSignal(dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, trayWatcher))
	report(hasOwner(conn, trayWatcher))
	if err != nil {
		return // the state at start is known; changes will not be
	}
	for {
		select {
		case <-ctx.Done():
			return
		case sig, ok := <-signals:
			if !ok {
				return
			}
			if sig.Name == "org.freedesktop.DBus.NameOwnerChanged" && len(sig.Body) == 3 && sig.Body[0] == trayWatcher {
				owner, _ := sig.Body[2].(string)
				report(owner != "")
			}
		}
	}
}

func hasOwner(conn *dbus.Conn, name string) bool {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has)
	return err == nil && has
}

// stdLog takes the lines that libraries write with the standard log
// package (the tray library's errors) into Trove's log. Its "failed to
// register" means no tray host, which watchTrayHost says in words; that
// line goes to the debug level.
type stdLog struct{ log *slog.Logger }

func (l stdLog) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(bytes.TrimSpace(p), []byte("\n")) {
		msg := string(line)
		if i := strings.Index(msg, "systray error: "); i >= 0 {
			msg = msg[i:]
		}
		level := slog.LevelWarn
		if strings.Contains(msg, "failed to register") {
			level = slog.LevelDebug
		}
		l.log.Log(context.Background(), level, msg)
	}
	return len(p), nil
}
