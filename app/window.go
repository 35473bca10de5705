package app

import (
	"context"
	"net/url"
	"strconv"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Window sizes: the main window, and the compact quick search the tray opens
// in the same window (Wails v2 has one window per process).
const (
	mainWidth, mainHeight   = 1180, 780
	quickWidth, quickHeight = 680, 460
)

// window drives the Wails window once it exists (after OnStartup).
type window struct {
	mu       sync.Mutex
	ctx      context.Context
	quitting bool                      // Quit was asked for: closing must not just hide
	pending  func(ctx context.Context) // a show asked for before start-up
}

func (w *window) started(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	pending := w.pending
	w.pending = nil
	w.mu.Unlock()
	if pending != nil {
		pending(ctx)
	}
}

// do runs f with the window's context, or not at all before start-up.
func (w *window) do(f func(ctx context.Context)) {
	w.mu.Lock()
	ctx := w.ctx
	w.mu.Unlock()
	if ctx != nil {
		f(ctx)
	}
}

// ShowMain brings the main window forward on the search screen.
func (w *window) ShowMain() { w.show("/", mainWidth, mainHeight) }

// ShowSearch brings the main window forward searching query (a desktop
// search's "more results").
func (w *window) ShowSearch(query string) {
	w.show("/?q="+url.QueryEscape(query), mainWidth, mainHeight)
}

// ShowSaved brings the main window forward running a saved search.
func (w *window) ShowSaved(id int64) {
	w.show("/?saved="+strconv.FormatInt(id, 10), mainWidth, mainHeight)
}

// ShowQuick shows the quick search: a small centred box, input focused,
// searching below folder ("" for everywhere).
func (w *window) ShowQuick(folder string) {
	route := "/quick"
	if folder != "" {
		route += "?dir=" + url.QueryEscape(folder)
	}
	w.show(route, quickWidth, quickHeight)
}

// CopyText puts text on the clipboard.
func (w *window) CopyText(text string) error {
	var err error
	w.do(func(ctx context.Context) { err = runtime.ClipboardSetText(ctx, text) })
	return err
}

// show shows a screen of the window; asked before start-up (a search
// that started Trove), it is shown as soon as the window is up.
func (w *window) show(route string, width, height int) {
	w.mu.Lock()
	if w.ctx == nil {
		w.pending = func(ctx context.Context) { w.show(route, width, height) }
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	w.do(func(ctx context.Context) {
		runtime.EventsEmit(ctx, "trove:navigate", route)
		runtime.WindowSetSize(ctx, width, height)
		runtime.WindowCenter(ctx)
		runtime.WindowUnminimise(ctx)
		runtime.WindowShow(ctx)
	})
}

// Hide hides the window; Trove keeps running in the tray.
func (w *window) Hide() { w.do(runtime.WindowHide) }

// PickFolder opens the native folder dialog.
func (w *window) PickFolder() (string, error) {
	var path string
	var err error
	w.do(func(ctx context.Context) {
		path, err = runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: "Choose a folder for Trove to index"})
	})
	return path, err
}

// Quit ends the app: the window, the tray and the backend.
func (w *window) Quit() {
	w.mu.Lock()
	w.quitting = true
	w.mu.Unlock()
	w.do(runtime.Quit)
}

// beforeClose decides what closing the window does: with a tray to come
// back from, it only hides the window and Trove keeps indexing; without one
// (a desktop with no StatusNotifierItem host) a hidden window could not be
// brought back, so closing quits.
func (w *window) beforeClose(context.Context) (prevent bool) {
	w.mu.Lock()
	quitting := w.quitting
	w.mu.Unlock()
	if quitting || !trayHost() {
		return false
	}
	w.Hide()
	return true
}

// Emit sends an event to the frontend.
func (w *window) Emit(name string, data any) {
	w.do(func(ctx context.Context) { runtime.EventsEmit(ctx, name, data) })
}
