package app

import (
	"context"
	"errors"
	"io/fs"
	"log"
	"log/slog"
	"net/http"
	"sync"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"trove/backend/service"
)

// Backend is a started Trove backend (the daemon): the app runs it beside
// the window and binds its service.
type Backend interface {
	Run(ctx context.Context) error
	Service() *service.Service
	// Window serves the window's API requests in process (api.Server.Window).
	Window() http.Handler
	// BindShortcut calls activated on each press of the global shortcut
	// of Settings, until ctx ends.
	BindShortcut(ctx context.Context, activated func())
}

// Options is what the desktop app needs besides a started backend.
type Options struct {
	UI       fs.FS // the built frontend
	Log      *slog.Logger
	Instance *Instance // from ClaimInstance: a second launch shows the window
	Hidden   bool      // start in the tray without the window (at login)
}

// Run runs the desktop app until Quit (from the tray) or until ctx ends: the
// backend with its API, the window and the tray, in one process. Closing
// the window only hides it while a tray shows Trove (see beforeClose).
// Wails must own the main thread, so call Run from main.
func Run(ctx context.Context, d Backend, o Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	backend := make(chan error, 1)
	go func() {
		backend <- d.Run(ctx)
		cancel() // a backend that stops takes the window with it
	}()

	win := &window{}
	o.Instance.attach(win)
	svc := d.Service()
	svc.AttachWindow(win) // desktop search and the shortcut drive it
	defer svc.AttachWindow(nil)
	log.SetOutput(stdLog{o.Log})
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { d.BindShortcut(ctx, func() { win.ShowQuick("") }) })
	if conn, err := dbus.ConnectSessionBus(); err == nil {
		defer conn.Close()
		wg.Go(func() { watchTrayHost(ctx, conn, svc) })
	}
	bound := New(svc, o.Log, win)
	tr := newTray(svc, win, o.Log)
	startTray, endTray := systray.RunWithExternalLoop(tr.ready, nil)

	err := wails.Run(&options.App{
		Title:            "Trove",
		Width:            mainWidth,
		Height:           mainHeight,
		MinWidth:         520,
		MinHeight:        380,
		StartHidden:      o.Hidden,
		OnBeforeClose:    win.beforeClose,
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 252, A: 255},
		AssetServer:      &assetserver.Options{Assets: o.UI, Middleware: apiInProcess(d.Window(), o.Log)},
		Bind:             []any{bound},
		ErrorFormatter:   bound.formatError,
		Linux:            &linux.Options{Icon: icon, ProgramName: "trove"},
		OnStartup: func(wctx context.Context) {
			win.started(wctx)
			startTray()
			go forward(ctx, svc, win, tr)
			go tr.run(ctx)
			go func() { <-ctx.Done(); win.Quit() }()
		},
		OnShutdown: func(context.Context) { endTray() },
	})
	cancel()
	return errors.Join(err, <-backend)
}
