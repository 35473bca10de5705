// Package app is the desktop shell: the window, the tray and native
// dialogs. The window's page calls the HTTP API's own handler in process
// (see apiInProcess), so the window and a script see the same answers and
// errors; it binds only what belongs to the desktop and has no route: the
// folder dialog, hiding the window, start at login, the hotkey commands,
// and the events' first state.
package app

import (
	"context"
	"log/slog"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

// App is bound to the window: the frontend calls these methods as
// window.go.app.App.Name(args) (see frontend/src/lib/api.ts). Each returns
// (T, error), and an error reaches the page in the API's terms (formatError).
type App struct {
	svc *service.Service
	log *slog.Logger
	win windowControl
}

// windowControl is what the bindings may do to the window itself.
type windowControl interface {
	Hide()
	PickFolder() (string, error)
}

// New binds a service; win may be nil until the window exists.
func New(svc *service.Service, log *slog.Logger, win windowControl) *App {
	return &App{svc: svc, log: log, win: win}
}

// ctx is the context of a binding call: the service's calls are short, and
// the window gives none of its own. The window is the person using Trove,
// so its calls are trusted (see service.Trusted).
func (a *App) ctx() context.Context { return service.Trusted(context.Background()) }

// Snapshot is the current state as events (queue.status, one folder.status
// per folder): what /api/updates sends a new client first.
func (a *App) Snapshot() ([]core.Event, error) { return a.svc.Snapshot(a.ctx()), nil }

// LoginItem is the desktop's "start at login" entry for this app (the
// window only: the API has no route for it).
func (a *App) LoginItem() (core.LoginItem, error) { return a.svc.LoginItem() }

// SetLoginItem writes or removes the "start at login" entry.
func (a *App) SetLoginItem(on bool) (core.LoginItem, error) { return a.svc.SetLoginItem(on) }

// HotkeySetups are the commands that bind a key to quick search on GNOME
// and KDE Plasma, for the Settings screen to show and copy.
func (a *App) HotkeySetups() ([]core.HotkeySetup, error) { return a.svc.HotkeySetups(), nil }

// PickFolder opens the native folder dialog: a path, or "" when cancelled.
func (a *App) PickFolder() (string, error) {
	if a.win == nil {
		return "", nil
	}
	return a.win.PickFolder()
}

// HideWindow hides the window (Esc in quick search); Trove stays in the tray.
func (a *App) HideWindow() error {
	if a.win != nil {
		a.win.Hide()
	}
	return nil
}

// formatError is how a failed binding call reaches the window: an object in
// the API's terms ({status, code, message, field}), which the frontend turns
// into the same ApiError an HTTP error becomes. Internal errors are logged
// here with their detail.
func (a *App) formatError(err error) any {
	info := views.ErrorOf(err)
	if info.Status >= 500 {
		a.log.Error("desktop call failed", "err", err)
	}
	return info
}
