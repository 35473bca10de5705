//go:build desktop

package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"trove/app"
	"trove/backend/daemon"
)

// defaultCommand of the desktop build is the app: window, tray and API in
// one process. Without a display it says so and runs headless.
func defaultCommand(args []string, stderr io.Writer) int {
	return withConfig("", args, stderr, func(cfg daemon.Config) int { return desktop(cfg, stderr) })
}

func desktop(cfg daemon.Config, stderr io.Writer) int {
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
		return app.Run(ctx, d, app.Options{UI: uiFS(), Log: cfg.Log, Instance: inst})
	})
}

// quick opens the running app's quick search: the command for a desktop
// hotkey.
func quick(stderr io.Writer) int {
	if problem := sessionBusProblem(); problem != "" {
		fmt.Fprintf(stderr, "%s quick: %s\n", prog, problem)
		return 1
	}
	if err := app.ShowQuickSearch(); err != nil {
		fmt.Fprintf(stderr, "%s quick: %v\n", prog, err)
		return 1
	}
	return 0
}
