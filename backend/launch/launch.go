// Package launch opens files the way the desktop does: with the default
// application, or by showing them in the file manager.
package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Desktop opens files through the desktop's own tools. Opener replaces
// the system's opener (xdg-open, open, or the Windows shell; both for
// opening and as the fallback for revealing); empty means $TROVE_OPENER,
// else the system's.
type Desktop struct {
	Opener string
}

func (d Desktop) opener() string {
	switch {
	case d.Opener != "":
		return d.Opener
	case os.Getenv("TROVE_OPENER") != "":
		return os.Getenv("TROVE_OPENER")
	}
	return defaultOpener // per OS: opener_*.go
}

// Open opens path with its default application.
func (d Desktop) Open(path string) error { return start(d.opener(), path) }

// Reveal shows path selected in the file manager (revealNative, per OS),
// or opens its folder when no file manager answers.
func (d Desktop) Reveal(path string) error {
	if d.Opener == "" && os.Getenv("TROVE_OPENER") == "" && revealNative(path) == nil {
		return nil
	}
	return start(d.opener(), filepath.Dir(path))
}

// start runs a command without waiting for the application it opens.
func start(name string, arg string) error {
	fields := strings.Fields(name)
	if len(fields) == 0 {
		return fmt.Errorf("no opener configured")
	}
	cmd := exec.Command(fields[0], append(fields[1:], arg)...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s with %s: %w", arg, fields[0], err)
	}
	go cmd.Wait() // reap it whenever the application exits
	return nil
}
