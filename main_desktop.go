//go:build desktop

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"trove/app"
	"trove/backend/daemon"
)

// defaultCommand of the desktop build is the app: window, tray and API in
// one process. Without a display it says so and runs headless.
// hiddenFlag starts the app in the tray without the window: the flag the
// login entry passes (backend/platform/autostart.HiddenFlag).
const hiddenFlag = "--hidden"

func defaultCommand(args []string, _, stderr io.Writer) int {
	hidden := false
	args = slices.DeleteFunc(args, func(a string) bool {
		hidden = hidden || a == hiddenFlag
		return a == hiddenFlag
	})
	return withConfig("", args, stderr, func(cfg daemon.Config) int { return desktop(cfg, hidden, stderr) })
}

func desktop(cfg daemon.Config, hidden bool, stderr io.Writer) int {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		cfg.Log.Warn("no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless; the web UI is at http://" + cfg.Addr + "/")
		return runDaemon(cfg, stderr, nil)
	}
	inst, first := app.ClaimInstance(cfg.Log)
	if !first {
		fmt.Fprintf(stderr, "%s: Trove is already running in this session; its window is shown\n", prog)
		return 0
	}
	defer inst.Release()
	return runDaemon(cfg, stderr, func(ctx context.Context, d *daemon.Daemon) error {
		return app.Run(ctx, d, app.Options{UI: uiFS(), Log: cfg.Log, Instance: inst, Hidden: hidden})
	})
}

// quick opens the running app's quick search, below folder when it is
// not "": the command for a desktop hotkey and for file managers.
func quick(folder string, stderr io.Writer) int {
	if problem := sessionBusProblem(); problem != "" {
		fmt.Fprintf(stderr, "%s quick: %s\n", prog, problem)
		return 1
	}
	if err := app.ShowQuickSearch(folder); err != nil {
		fmt.Fprintf(stderr, "%s quick: %v\n", prog, err)
		return 1
	}
	return 0
}
