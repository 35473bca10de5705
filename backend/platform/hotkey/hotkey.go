// Package hotkey writes, for each desktop, the commands that bind a global
// key to Trove's quick search. Desktops give applications no portable way
// to grab a key, so the person runs these (the Settings screen shows them
// with a copy button; docs/desktop.md lists them too).
package hotkey

import (
	"strings"

	"trove/backend/core"
)

// DesktopID is the desktop entry whose "quick" action KDE binds.
const DesktopID = "dev.trove.Trove.desktop"

// gnomeKeybinding is where GNOME keeps Trove's custom shortcut.
const gnomeKeybinding = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/trove/"

// Setups returns the commands for GNOME and KDE Plasma that bind
// Ctrl+Alt+Space to quickCommand (e.g. "trove-desktop quick").
func Setups(quickCommand string) []core.HotkeySetup {
	return []core.HotkeySetup{gnome(quickCommand), kde()}
}

func gnome(quickCommand string) core.HotkeySetup {
	const schema = "org.gnome.settings-daemon.plugins.media-keys"
	key := schema + ".custom-keybinding:" + gnomeKeybinding
	lines := []string{
		"gsettings set " + key + " name " + shellQuote(gvariantString("Trove quick search")),
		"gsettings set " + key + " command " + shellQuote(gvariantString(quickCommand)),
		"gsettings set " + key + " binding " + shellQuote(gvariantString("<Control><Alt>space")),
		// Add the shortcut to GNOME's list once, keeping the others.
		"l=$(gsettings get " + schema + " custom-keybindings)",
		`case "$l" in`,
		`  *` + gnomeKeybinding + `*) ;;`,
		`  "@as []"|"[]") gsettings set ` + schema + ` custom-keybindings "['` + gnomeKeybinding + `']" ;;`,
		`  *) gsettings set ` + schema + ` custom-keybindings "${l%]}, '` + gnomeKeybinding + `']" ;;`,
		"esac",
	}
	return core.HotkeySetup{
		Desktop: "GNOME", Key: "<Control><Alt>space", Commands: strings.Join(lines, "\n") + "\n",
		Note: "The shortcut works at once; it shows under Settings › Keyboard › Custom Shortcuts.",
	}
}

// kde binds the desktop entry's "quick" action, as System Settings'
// Shortcuts page does for an application; the shortcut daemon reads it
// when it starts.
func kde() core.HotkeySetup {
	lines := []string{
		"kwriteconfig5 --file kglobalshortcutsrc --group services --group " + DesktopID + " --key quick " + shellQuote("Ctrl+Alt+Space"),
		"kquitapp5 kglobalaccel5; kstart5 kglobalaccel5",
	}
	return core.HotkeySetup{
		Desktop: "KDE Plasma", Key: "Ctrl+Alt+Space", Commands: strings.Join(lines, "\n") + "\n",
		Note: "Needs Trove's desktop entry installed (the package does it). On Plasma 6 write kwriteconfig6 and log out and in.",
	}
}

// gvariantString is s as a GVariant text string: gsettings parses values.
func gvariantString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// shellQuote is s as one POSIX shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
