package service

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"trove/backend/core"
	"trove/backend/platform/autostart"
	"trove/backend/platform/hotkey"
)

// The desktop app's integration with the person's desktop: starting at
// login and a global key for quick search. The window offers them (the
// bindings); the HTTP API does not, as a headless server starts by other
// means (the systemd user unit).

// LoginItem reports the "start at login" entry of this program.
func (s *Service) LoginItem() (core.LoginItem, error) {
	return autostart.For(s.programPath()).Status()
}

// SetLoginItem writes (on) or removes (off) the "start at login" entry.
func (s *Service) SetLoginItem(on bool) (core.LoginItem, error) {
	item, err := autostart.For(s.programPath()).Set(on)
	if err == nil {
		s.log.Info("start at login changed", "enabled", item.Enabled, "entry", item.Path)
	}
	return item, err
}

// HotkeySetups are the commands that bind a key to this program's quick
// search on GNOME and KDE Plasma.
func (s *Service) HotkeySetups() []core.HotkeySetup {
	return hotkey.Setups(quickCommand(s.programPath()))
}

// programPath is the running program (Deps.Program in tests).
func (s *Service) programPath() string {
	if s.program != "" {
		return s.program
	}
	exe, err := os.Executable()
	if err != nil {
		return "trove-desktop"
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return exe
}

// quickCommand is "trove-desktop quick" when PATH finds this program by
// its name (an installed package), else its full path, quoted if needed.
func quickCommand(exe string) string {
	name := filepath.Base(exe)
	if found, err := exec.LookPath(name); err == nil {
		if same, _ := filepath.EvalSymlinks(found); same == exe {
			return name + " quick"
		}
	}
	if strings.ContainsAny(exe, " '\"\\$`") {
		exe = "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
	}
	return exe + " quick"
}
