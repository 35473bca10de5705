package main

import (
	"fmt"
	"io"

	"trove/backend/platform/sessionbus"
)

// quickCommand is `quick [--folder DIR]`: the desktop app's quick search,
// scoped to DIR when given (a file manager's "Search in this folder").
func quickCommand(args []string, stderr io.Writer) int {
	fs := newFlags("quick", "[--folder DIR]", stderr)
	folder := fs.String("folder", "", "search only below this folder (relative paths are made absolute)")
	rest, code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "%s quick: unexpected argument %q (run \"%s quick --help\")\n", prog, rest[0], prog)
		return exitUsage
	}
	dir := *folder
	if dir != "" {
		abs, err := absDir(dir)
		if err != nil {
			fmt.Fprintf(stderr, "%s quick: --folder %s: %v\n", prog, dir, err)
			return exitUsage
		}
		dir = abs
	}
	return quick(dir, stderr)
}

// sessionBusProblem says why `trove quick` cannot reach the desktop
// session's bus, or "" when one is there. Without an address and without
// the usual socket, the D-Bus library would try to start dbus-launch and
// report that it is missing, which tells a user nothing.
func sessionBusProblem() string {
	if sessionbus.Address() != "" {
		return ""
	}
	return "no desktop session bus here (DBUS_SESSION_BUS_ADDRESS is unset): quick search opens the window of the Trove app running in your desktop session, so run it from that session (a desktop hotkey); from a terminal, use `" + prog + " search WORDS`"
}
