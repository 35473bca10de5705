package app

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"trove/backend/core"
	"trove/internal/desktoptest"
)

// integrations records reports as the service does.
type integrations struct {
	mu   sync.Mutex
	last map[string]core.Integration
	logs int
}

func (r *integrations) ReportIntegration(it core.Integration, _ slog.Level) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]core.Integration{}
	}
	r.last[it.Name] = it
	r.logs++
}

func (r *integrations) tray() core.Integration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last[core.IntegrationTray]
}

func waitTray(t *testing.T, r *integrations, state string) core.Integration {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for delay := 5 * time.Millisecond; ; delay = min(delay*2, 200*time.Millisecond) {
		if it := r.tray(); it.State == state {
			return it
		}
		if time.Now().After(deadline) {
			t.Fatalf("tray state %q, want %q", r.tray().State, state)
		}
		time.Sleep(delay) // polling interval: the state decides
	}
}

// On a bus where no panel hosts status icons (stock GNOME), Trove says so
// in words, with what still works; when a host comes, the tray is back.
func TestNoTrayHostIsSaidInWords(t *testing.T) {
	addr := desktoptest.Bus(t)
	conn := desktoptest.Connect(t, addr)
	rep := &integrations{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); watchTrayHost(ctx, conn, rep) }()
	t.Cleanup(func() { cancel(); <-done })

	it := waitTray(t, rep, core.IntegrationUnavailable)
	for _, words := range []string{"No tray on this desktop", "AppIndicator", "Activities overview", "quick search shortcut"} {
		if !strings.Contains(it.Message, words) {
			t.Errorf("message %q does not say %q", it.Message, words)
		}
	}
	if strings.Contains(it.Message, "org.freedesktop.DBus.Error") {
		t.Errorf("the message is a D-Bus error: %q", it.Message)
	}

	// A panel starts (the extension is turned on): the tray is there.
	panel := desktoptest.Connect(t, addr)
	if reply, err := panel.RequestName(trayWatcher, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", trayWatcher, reply, err)
	}
	waitTray(t, rep, core.IntegrationOK)
	panel.ReleaseName(trayWatcher)
	waitTray(t, rep, core.IntegrationUnavailable)
}

// The tray library's raw D-Bus error becomes a debug line; its other
// errors stay warnings.
func TestTrayLibraryLogLines(t *testing.T) {
	var b strings.Builder
	l := stdLog{slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	l.Write([]byte("2026/01/01 10:00:00 systray error: failed to register: The name org.kde.StatusNotifierWatcher was not provided by any .service files\n"))
	l.Write([]byte("2026/01/01 10:00:00 systray error: failed to export status notifier item: boom\n"))
	out := b.String()
	if !strings.Contains(out, "level=DEBUG msg=\"systray error: failed to register") || !strings.Contains(out, "level=WARN msg=\"systray error: failed to export") {
		t.Errorf("log:\n%s", out)
	}
}
