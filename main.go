// Command trove is a local, private file search service.
//
//	trove serve [--addr 127.0.0.1:8765] [--data-dir DIR] [--config-dir DIR]
//	trove version
//
// Built plainly it is the headless server; built with the desktop tag it is
// the desktop app (window, tray and the same API).
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"trove/backend/daemon"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// ui is the built web interface (empty until the frontend is built; the
// Makefile builds it before the binary).
//
//go:embed all:frontend/dist
var ui embed.FS

func uiFS() fs.FS {
	sub, err := fs.Sub(ui, "frontend/dist")
	if err != nil {
		return nil
	}
	return sub
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stderr)
	case "search":
		return search(args, stdout, stderr)
	case "quick":
		return quick(stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "trove", version)
		return 0
	case "help", "--help", "-h":
		usage(stdout)
		return 0
	case "":
		return defaultCommand(nil, stderr)
	}
	if strings.HasPrefix(cmd, "-") { // flags of the default command
		return defaultCommand(append([]string{cmd}, args...), stderr)
	}
	fmt.Fprintf(stderr, "trove: unknown command %q\n\n", cmd)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: trove [command] [flags]

With no command, the desktop build (trove-desktop) starts the app: window,
tray and API; with --hidden it starts in the tray without its window, as
it does at login. The headless build (trove) runs serve.

commands:
  serve     run the indexing service and the API (headless)
  search    search a running Trove from the terminal (--json for scripts)
  quick     open the running desktop app's quick search (bind it to a hotkey)
  version   print the version

environment:
  TROVE_ADDR         listen address, as --addr
  TROVE_DATA_DIR     where the index lives, as --data-dir
  TROVE_CONFIG_DIR   where settings.json and filters.json live, as --config-dir
  TROVE_TOKEN        a bearer token the API then requires of every request
  TROVE_LOG_LEVEL    debug, info, warn or error

Run "trove serve --help" and "trove search --help" for their flags.
`)
}

// serverConfig parses the flags shared by every command that runs a server.
func serverConfig(name string, args []string, stderr io.Writer) (daemon.Config, error) {
	dataDir, configDir := daemon.DefaultDirs()
	fs := flag.NewFlagSet("trove "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("TROVE_ADDR", "127.0.0.1:8765"), "listen address (loopback unless you mean otherwise)")
	data := fs.String("data-dir", envOr("TROVE_DATA_DIR", dataDir), "where the index lives")
	conf := fs.String("config-dir", envOr("TROVE_CONFIG_DIR", configDir), "where settings.json and filters.json live")
	if err := fs.Parse(args); err != nil {
		return daemon.Config{}, err
	}
	if fs.NArg() > 0 {
		return daemon.Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return daemon.Config{
		Addr: *addr, DataDir: *data, ConfigDir: *conf, Token: os.Getenv("TROVE_TOKEN"),
		Version: version, Log: newLogger(stderr), UI: uiFS(),
	}, nil
}

func serve(args []string, stderr io.Writer) int {
	return withConfig("serve", args, stderr, func(cfg daemon.Config) int { return runDaemon(cfg, stderr, nil) })
}

// withConfig parses a server command's flags and runs it with them.
func withConfig(name string, args []string, stderr io.Writer, run func(daemon.Config) int) int {
	cfg, err := serverConfig(name, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "trove:", err)
		return 2
	}
	return run(cfg)
}

// runDaemon runs the backend until SIGINT or SIGTERM; with a shell (the
// desktop app) the shell runs it instead and decides when it ends.
// TROVE_CPUPROFILE names a file to write a CPU profile to, for performance
// work.
func runDaemon(cfg daemon.Config, stderr io.Writer, shell func(context.Context, *daemon.Daemon) error) int {
	if path := os.Getenv("TROVE_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			cfg.Log.Error("cannot write CPU profile", "err", err)
			return 1
		}
		pprof.StartCPUProfile(f)
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := daemon.New(cfg)
	if err != nil {
		cfg.Log.Error("cannot start", "err", err)
		var held *daemon.AlreadyRunningError
		if errors.As(err, &held) {
			fmt.Fprintln(stderr, "trove:", held.Error())
		}
		var newer *daemon.NewerIndexError
		if errors.As(err, &newer) {
			fmt.Fprintln(stderr, "trove:", newer.Error())
		}
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "trove: %s is in use: is Trove already running? (set --addr or TROVE_ADDR to use another port)\n", cfg.Addr)
		}
		return 1
	}
	if shell == nil {
		err = d.Run(ctx)
	} else {
		err = shell(ctx, d)
	}
	if err != nil {
		cfg.Log.Error("stopped with an error", "err", err)
		return 1
	}
	return 0
}

func newLogger(w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	if err := level.UnmarshalText([]byte(os.Getenv("TROVE_LOG_LEVEL"))); err != nil {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
