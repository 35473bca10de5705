// Package app is the desktop shell: the methods the Wails window binds to,
// the tray, and native dialogs. Every method calls backend/service (through
// backend/shell/views, the JSON shapes the HTTP API shows too) and nothing else, so
// the window and a script on the API see the same answers and errors.
package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

// App is bound to the window: the frontend calls these methods as
// window.go.app.App.Name(args) (see frontend/src/lib/api.ts). Each returns
// (T, error) with T the API's JSON shape, so every call can fail the same
// way. Object arguments arrive as raw JSON and are decoded as strictly as
// the API does.
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

// Status is GET /api/status/.
func (a *App) Status() (views.Status, error) {
	st, err := a.svc.Status(a.ctx())
	return views.StatusOf(st), err
}

// Stats is GET /api/files/stats.
func (a *App) Stats() (views.Stats, error) {
	st, err := a.svc.FileStats(a.ctx())
	return views.StatsOf(st), err
}

// Search is POST /api/search/.
func (a *App) Search(body json.RawMessage) (views.PageResponse, error) {
	pr, err := views.DecodeSearchPage(body)
	if err != nil {
		return views.PageResponse{}, err
	}
	page, err := a.svc.SearchPage(a.ctx(), pr)
	if err != nil {
		return views.PageResponse{}, err
	}
	return views.PageResponseOf(pr.Query, pr, page), nil
}

// Preview is GET /api/files/{id}/preview.
func (a *App) Preview(id int64, query string) (views.PreviewView, error) {
	p, err := a.svc.Preview(a.ctx(), id, query)
	if err != nil {
		return views.PreviewView{}, err
	}
	return views.PreviewOf(p), nil
}

// ImageData is GET /api/files/{id}/image as a data: URL for the window.
func (a *App) ImageData(id int64) (string, error) {
	data, mime, err := a.svc.Image(a.ctx(), id)
	if err != nil {
		return "", err
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// Apps is GET /api/files/{id}/apps.
func (a *App) Apps(id int64) (views.AppList, error) {
	apps, err := a.svc.Apps(a.ctx(), id)
	if err != nil {
		return views.AppList{}, err
	}
	return views.AppsOf(apps), nil
}

// OpenWith is POST /api/files/{id}/open-with.
func (a *App) OpenWith(id int64, app string) error {
	_, err := a.svc.OpenWith(a.ctx(), id, app)
	return err
}

// File is GET /api/files/{id}.
func (a *App) File(id int64) (views.File, error) {
	f, err := a.svc.File(a.ctx(), id)
	if err != nil {
		return views.File{}, err
	}
	return views.FileOf(f), nil
}

// OpenFile opens an indexed file with the desktop's default application.
func (a *App) OpenFile(id int64) error {
	_, err := a.svc.OpenFile(a.ctx(), id, false)
	return err
}

// RevealFile shows an indexed file in its folder.
func (a *App) RevealFile(id int64) error {
	_, err := a.svc.OpenFile(a.ctx(), id, true)
	return err
}

// Folders is GET /api/watched-directories (its data).
func (a *App) Folders() (views.FolderList, error) {
	dirs, err := a.svc.Folders(a.ctx())
	if err != nil {
		return views.FolderList{}, err
	}
	page, _ := views.PageOf(0, 0, views.DefaultFolders, views.MaxFolders)
	return views.FoldersOf(dirs, page), nil
}

// Watch is POST /api/watch/directory (its data).
func (a *App) Watch(body json.RawMessage) (views.Watched, error) {
	path, opts, err := views.DecodeWatch(body, "path")
	if err != nil {
		return views.Watched{}, err
	}
	res, err := a.svc.Watch(a.ctx(), path, opts)
	if err != nil {
		return views.Watched{}, err
	}
	return views.WatchedOf(res), nil
}

// Unwatch is DELETE /api/watch/jobs/{id}.
func (a *App) Unwatch(id int64) error { return a.svc.Unwatch(a.ctx(), id) }

// Problems is GET /api/watched-directories/{id}/problems (its data).
func (a *App) Problems(id int64, limit int) (views.ProblemList, error) {
	page, err := views.PageOf(0, limit, views.DefaultProblems, views.MaxProblems)
	if err != nil {
		return views.ProblemList{}, err
	}
	files, total, err := a.svc.Problems(a.ctx(), id, page.Limit)
	if err != nil {
		return views.ProblemList{}, err
	}
	return views.ProblemList{Problems: views.ProblemsOf(files), Total: total}, nil
}

// QueueStatus is GET /api/queue/status.
func (a *App) QueueStatus() (core.QueueStatus, error) { return a.svc.QueueStatus(), nil }

// PauseQueue is POST /api/queue/pause.
func (a *App) PauseQueue() (core.QueueStatus, error) { return a.svc.PauseQueue(), nil }

// ResumeQueue is POST /api/queue/resume.
func (a *App) ResumeQueue() (core.QueueStatus, error) { return a.svc.ResumeQueue(), nil }

// QueueItems is GET /api/queue/items.
func (a *App) QueueItems(offset, limit int) (views.QueueItems, error) {
	page, err := views.PageOf(offset, limit, views.DefaultQueueItems, views.MaxQueueItems)
	if err != nil {
		return views.QueueItems{}, err
	}
	items, total := a.svc.QueueItems(page.Offset, page.Limit)
	return views.QueueItemsOf(items, total, page), nil
}

// RemoveQueueItem is DELETE /api/queue/items/{id}.
func (a *App) RemoveQueueItem(id string) error { return a.svc.RemoveQueueItem(id) }

// Settings is GET /api/settings/.
func (a *App) Settings() (core.Settings, error) { return a.svc.Settings(), nil }

// SettingsDefaults is GET /api/settings/defaults.
func (a *App) SettingsDefaults() (core.Settings, error) { return a.svc.SettingsDefaults(), nil }

// UpdateSettings is PUT /api/settings/: dotted keys, all or nothing.
func (a *App) UpdateSettings(body json.RawMessage) (core.Settings, error) {
	patch, err := views.DecodeSettingsPatch(body)
	if err != nil {
		return core.Settings{}, err
	}
	return a.svc.UpdateSettings(a.ctx(), patch)
}

// Filters is GET /api/filters/config.
func (a *App) Filters() (core.FilterConfig, error) { return a.svc.Filters(), nil }

// FilterDefaults is GET /api/filters/defaults.
func (a *App) FilterDefaults() (core.FilterPatterns, error) { return a.svc.FilterDefaults(), nil }

// UpdateFilters is PUT /api/filters/config.
func (a *App) UpdateFilters(body json.RawMessage) (views.FilterChange, error) {
	u, err := views.DecodeFilterUpdate(body)
	if err != nil {
		return views.FilterChange{}, err
	}
	ch, err := a.svc.UpdateFilters(a.ctx(), u)
	if err != nil {
		return views.FilterChange{}, err
	}
	return views.FilterUpdated(ch), nil
}

// AddPattern is POST /api/filters/pattern.
func (a *App) AddPattern(body json.RawMessage) (views.FilterChange, error) {
	req, err := views.DecodePattern(body)
	if err != nil {
		return views.FilterChange{}, err
	}
	ch, changed, err := a.svc.AddFilterPattern(a.ctx(), *req.Pattern, req.PatternType, req.Apply())
	if err != nil {
		return views.FilterChange{}, err
	}
	return views.PatternAdded(req, ch, changed), nil
}

// RemovePattern is DELETE /api/filters/pattern.
func (a *App) RemovePattern(body json.RawMessage) (views.FilterChange, error) {
	req, err := views.DecodePattern(body)
	if err != nil {
		return views.FilterChange{}, err
	}
	ch, err := a.svc.RemoveFilterPattern(a.ctx(), *req.Pattern, req.PatternType)
	if err != nil {
		return views.FilterChange{}, err
	}
	return views.PatternRemoved(req, ch), nil
}

// ResetFilters is POST /api/filters/reset.
func (a *App) ResetFilters() (views.FilterChange, error) {
	ch, err := a.svc.ResetFilters(a.ctx())
	if err != nil {
		return views.FilterChange{}, err
	}
	return views.FiltersReset(ch), nil
}

// ApplyFilters is POST /api/filters/apply.
func (a *App) ApplyFilters() (views.Applied, error) {
	n, err := a.svc.ApplyFilters(a.ctx())
	if err != nil {
		return views.Applied{}, err
	}
	return views.FiltersApplied(n), nil
}

// RebuildIndex replaces a damaged index and indexes every file again.
func (a *App) RebuildIndex() (int, error) { return a.svc.RebuildIndex(a.ctx()) }

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
