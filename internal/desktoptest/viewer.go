package desktoptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/poll"
)

// Viewer is a desktop, private to a test, whose default application for
// PDFs is a document viewer script; it and xdg-open record the arguments
// they were run with, one a line.
type Viewer struct {
	Argv       string // the viewer's record
	OpenerArgv string // xdg-open's record
}

// PDFViewer makes the desktop: the entry id names the default application
// for PDFs, which runs a script called prog (evince, okular, ...) with
// execArgs after it ("%U"). xdg-mime, which finds the default, is the
// machine's own (xdg-utils); the test is skipped without it. PATH and the
// XDG folders are the test's until it ends.
func PDFViewer(t *testing.T, id, prog, execArgs string) Viewer {
	t.Helper()
	if _, err := exec.LookPath("xdg-mime"); err != nil {
		t.Skip("xdg-mime is not installed (xdg-utils; make go-test installs it)")
	}
	dir := t.TempDir()
	bin, apps, cfg := filepath.Join(dir, "bin"), filepath.Join(dir, "data", "applications"), filepath.Join(dir, "config")
	for _, d := range []string{bin, apps, cfg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	v := Viewer{Argv: filepath.Join(dir, "viewer-argv"), OpenerArgv: filepath.Join(dir, "opener-argv")}
	write := func(path, text string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	// Written whole, then renamed: a reader never sees half of it.
	record := func(to string) string {
		return "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + to + ".tmp && mv " + to + ".tmp " + to + "\n"
	}
	write(filepath.Join(bin, prog), record(v.Argv), 0o755)
	write(filepath.Join(bin, "xdg-open"), record(v.OpenerArgv), 0o755)
	write(filepath.Join(apps, id), "[Desktop Entry]\nType=Application\nName=Viewer\nExec="+filepath.Join(bin, prog)+" "+execArgs+"\nMimeType=application/pdf;\n", 0o644)
	write(filepath.Join(cfg, "mimeapps.list"), "[Default Applications]\napplication/pdf="+id+"\n", 0o644)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("XDG_DATA_DIRS", filepath.Join(dir, "data"))
	t.Setenv("TROVE_OPENER", "")
	// No desktop environment: xdg-mime reads mimeapps.list itself.
	for _, e := range []string{"XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID"} {
		t.Setenv(e, "")
	}
	return v
}

// Ran waits for the record at path (v.Argv or v.OpenerArgv) and returns
// the arguments it holds.
func Ran(t *testing.T, path string) []string {
	t.Helper()
	var b []byte
	if !poll.Until(5*time.Second, func() bool { b, _ = os.ReadFile(path); return len(b) > 0 }) {
		t.Fatalf("%s: nothing was run", filepath.Base(path))
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
