//go:build desktop

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"trove/app"
	"trove/backend/daemon"
)

// defaultCommand of the desktop build is the app: window, tray and API in
// one process. Without a display it says so and runs headless.
func defaultCommand(args []string, stderr io.Writer) int {
	cfg, err := serverConfig("", args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "trove:", err)
		return 2
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		cfg.Log.Warn("no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless; the web UI is at http://" + cfg.Addr + "/")
		return runDaemon(cfg)
	}
	inst, first := app.ClaimInstance()
	if !first {
		fmt.Fprintln(stderr, "trove: Trove is already running in this session; its window is shown")
		return 0
	}
	defer inst.Release()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := daemon.New(cfg)
	if err != nil {
		cfg.Log.Error("cannot start", "err", err)
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "trove: %s is in use: is Trove already running? (set --addr or TROVE_ADDR to use another port)\n", cfg.Addr)
		}
		return 1
	}
	if err := app.Run(ctx, d, app.Options{UI: uiFS(), Log: cfg.Log, Instance: inst}); err != nil {
		cfg.Log.Error("stopped with an error", "err", err)
		return 1
	}
	return 0
}

// quick opens the running app's quick search: the command for a desktop
// hotkey.
func quick(stderr io.Writer) int {
	if err := app.ShowQuickSearch(); err != nil {
		fmt.Fprintln(stderr, "trove:", err)
		return 1
	}
	return 0
}
