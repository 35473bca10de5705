// Command trove is a local, private file search service.
//
//	trove serve [--addr 127.0.0.1:8765] [--data-dir DIR] [--config-dir DIR]
//	trove search [flags] WORDS... | search --saved NAME
//	trove saved
//	trove status | folders | watch PATH [--wait]
//	trove mcp
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
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"

	"trove/backend/daemon"
	"trove/client"
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

// prog is the name the binary was run as (trove, trove-desktop), for
// usage and error lines.
var prog = "trove"

func main() {
	if len(os.Args) > 0 {
		prog = filepath.Base(os.Args[0])
	}
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
	case "saved":
		return saved(args, stdout, stderr)
	case "status":
		return status(args, stdout, stderr)
	case "folders":
		return folders(args, stdout, stderr)
	case "watch":
		return watch(args, stdout, stderr)
	case "quick":
		return quickCommand(args, stderr)
	case "mcp":
		return mcpCommand(args, os.Stdin, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "trove", version)
		return 0
	case "help", "--help", "-h":
		usage(stdout)
		return 0
	case "unwatch":
		return unwatch(args, stdout, stderr)
	case "":
		return defaultCommand(nil, stdout, stderr)
	}
	if strings.HasPrefix(cmd, "-") { // flags of the default command
		return defaultCommand(append([]string{cmd}, args...), stdout, stderr)
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (run %q for the commands)\n", prog, cmd, prog+" help")
	return exitUsage
}

// Exit codes, for scripts to branch on (docs/api.md, "The trove command").
const (
	exitOK          = 0 // done; for search and folders: something found
	exitNothing     = 1 // nothing found, or the command failed
	exitUsage       = 2 // bad arguments, or Trove refused the request as invalid
	exitUnreachable = 3 // no Trove answers at the address
)

func usage(w io.Writer) {
	fmt.Fprintf(w, `usage: %[1]s [command] [flags]

With no command, the desktop build (trove-desktop) starts the app: window,
tray and API; with --hidden it starts in the tray without its window, as
it does at login. The headless build (trove) prints this help; with serve's
flags alone (--addr, --data-dir, --config-dir) it runs serve.

commands:
  serve     run the indexing service and the API (headless)
  search    search a running Trove (--json for scripts); --saved NAME runs a saved search, --save NAME saves one
  saved     the saved searches (--json)
  status    the running Trove's status (--json)
  folders   the watched folders and their progress (--json)
  watch     watch a folder; --wait blocks until it is indexed
  unwatch   stop watching a folder and drop its files from the index
  quick     open the desktop app's quick search (bind it to a hotkey); --folder DIR searches below DIR
  mcp       serve the Model Context Protocol on stdin/stdout for AI agents (docs/integrations.md)
  version   print the version

environment:
  TROVE_ADDR         listen address, as --addr
  TROVE_DATA_DIR     where the index lives, as --data-dir
  TROVE_CONFIG_DIR   where settings.json and filters.json live, as --config-dir
  TROVE_TOKEN        a bearer token the API then requires of every request
  TROVE_LOG_LEVEL    debug, info, warn or error

Run "%[1]s COMMAND --help" for a command's flags; with no command, the flags
are serve's (--addr, --data-dir, --config-dir). Exit codes: 0 done (search,
folders: found), 1 nothing found or failed, 2 bad arguments, 3 cannot reach
Trove.
`, prog)
}

// flags is a command's flag set, quiet (parseFlags reports errors in one
// line), and its --help.
type flags struct {
	*flag.FlagSet
	help func()
}

// newFlags is a command's flags; --help prints about and the flags to w.
func newFlags(name, about string, w io.Writer) *flags {
	fs := flag.NewFlagSet(strings.TrimSpace(prog+" "+name), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // the flag package calls it on errors too
	return &flags{FlagSet: fs, help: func() {
		fmt.Fprintf(w, "usage: %s %s\n\nflags:\n", prog, strings.TrimSpace(name+" "+about))
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parseFlags parses args, flags before, between or after the positional
// arguments (a "--" ends the flags); it returns the positional ones, or
// the exit code to end with: 0 after --help, 2 after an error, which it
// reports in one line.
func parseFlags(fs *flags, args []string, stderr io.Writer) ([]string, int, bool) {
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, exitOK, false
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v (run \"%s --help\")\n", fs.Name(), err, fs.Name())
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// serverConfig parses the flags shared by every command that runs a server.
func serverConfig(name string, args []string, stderr io.Writer) (daemon.Config, error) {
	dataDir, configDir := daemon.DefaultDirs()
	fs := newFlags(name, "[flags]", stderr)
	addr := fs.String("addr", envOr("TROVE_ADDR", client.DefaultAddr), "listen address (loopback unless you mean otherwise)")
	data := fs.String("data-dir", envOr("TROVE_DATA_DIR", dataDir), "where the index lives")
	conf := fs.String("config-dir", envOr("TROVE_CONFIG_DIR", configDir), "where settings.json and filters.json live")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
		}
		return daemon.Config{}, err
	}
	if fs.NArg() > 0 {
		return daemon.Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, dir := range []struct{ flag, value string }{{"--data-dir", *data}, {"--config-dir", *conf}} {
		if problem := emptyArg(dir.flag, dir.value); problem != "" {
			return daemon.Config{}, errors.New(problem)
		}
	}
	return daemon.Config{
		Addr: *addr, DataDir: *data, ConfigDir: *conf, Token: os.Getenv("TROVE_TOKEN"),
		Version: version, Log: newLogger(stderr), UI: uiFS(), SessionBus: daemon.SessionBusFromEnv,
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
		fmt.Fprintf(stderr, "%s: %v (run \"%s --help\")\n", strings.TrimSpace(prog+" "+name), err, strings.TrimSpace(prog+" "+name))
		return exitUsage
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
