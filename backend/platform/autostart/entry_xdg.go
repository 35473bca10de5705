//go:build unix && !darwin

package autostart

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"trove/backend/platform/atomicfile"
)

// entryPath is $XDG_CONFIG_HOME/autostart/dev.trove.Trove.desktop, which
// GNOME, KDE Plasma, Xfce, Cinnamon, MATE and LXQt start at login.
func entryPath() (string, error) {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "autostart", ID+".desktop"), nil
}

func (e Entry) command() string { return quoteExec(e.exe) + " " + HiddenFlag }

func (e Entry) write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create the autostart folder: %w", err)
	}
	entry := "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=Trove\n" +
		"Comment=Search your files, offline and private\n" +
		"Exec=" + e.command() + "\n" +
		"Icon=" + ID + "\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n"
	return atomicfile.Write(path, []byte(entry), 0o644)
}

func present(path string) (bool, error) { return exists(path) }

func remove(path string) error { return removeFile(path) }

// quoteExec quotes a program path for a desktop entry's Exec key: inside
// double quotes, backslash, quote, dollar and backtick are escaped, and the
// file format then doubles every backslash.
func quoteExec(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\$`<>~|&;*?#()%=") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`", "%", "%%")
	return strings.ReplaceAll(`"`+r.Replace(s)+`"`, `\`, `\\`)
}
