package hotkey

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The GNOME commands, run by a real gsettings against GNOME's real schema
// (gnome-settings-daemon-common) in a private keyfile backend: they add
// Trove's shortcut once, keep shortcuts already there, and store the
// command exactly, even a path with spaces and quotes.
func TestGNOMECommandsBindTheKey(t *testing.T) {
	if _, err := exec.LookPath("gsettings"); err != nil {
		t.Skip("gsettings is not installed (libglib2.0-bin); make go-test installs it")
	}
	if _, err := os.Stat("/usr/share/glib-2.0/schemas/org.gnome.settings-daemon.plugins.media-keys.gschema.xml"); err != nil {
		t.Skip("GNOME's media-keys schema is not installed (gnome-settings-daemon-common); make go-test installs it")
	}
	conf := t.TempDir()
	env := append(os.Environ(), "GSETTINGS_BACKEND=keyfile", "XDG_CONFIG_HOME="+conf)
	sh := func(script string) string {
		t.Helper()
		cmd := exec.Command("sh", "-euc", script)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s\nscript:\n%s", err, out, script)
		}
		return strings.TrimSpace(string(out))
	}
	const schema = "org.gnome.settings-daemon.plugins.media-keys"
	other := "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"
	sh("gsettings set " + schema + " custom-keybindings \"['" + other + "']\"")

	cmd := `/opt/it's here/trove-desktop quick`
	setup := Setups(cmd)[0]
	sh(setup.Commands)
	sh(setup.Commands) // a second run changes nothing
	if got, want := sh("gsettings get "+schema+" custom-keybindings"), "['"+other+"', '"+gnomeKeybinding+"']"; got != want {
		t.Errorf("custom-keybindings = %s, want %s", got, want)
	}
	key := schema + ".custom-keybinding:" + gnomeKeybinding
	if got := sh("gsettings get " + key + " command"); got != `"/opt/it's here/trove-desktop quick"` {
		t.Errorf("command = %s", got)
	}
	if got := sh("gsettings get " + key + " binding"); got != "'<Control><Alt>space'" {
		t.Errorf("binding = %s", got)
	}

	// From an empty list, the list becomes Trove's alone.
	sh("gsettings reset " + schema + " custom-keybindings")
	sh(setup.Commands)
	if got := sh("gsettings get " + schema + " custom-keybindings"); got != "['"+gnomeKeybinding+"']" {
		t.Errorf("from empty: %s", got)
	}
	if _, err := os.Stat(filepath.Join(conf, "glib-2.0", "settings", "keyfile")); err != nil {
		t.Errorf("the keyfile backend wrote nothing: %v", err)
	}
}

func TestKDECommandsNameTheDesktopAction(t *testing.T) {
	kde := Setups("trove-desktop quick")[1]
	if !strings.Contains(kde.Commands, "--group services --group dev.trove.Trove.desktop --key quick 'Ctrl+Alt+Space'") {
		t.Errorf("KDE commands:\n%s", kde.Commands)
	}
	// The action they bind is the one the packaged desktop entry declares.
	entry, err := os.ReadFile("../../../build/linux/" + DesktopID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(entry), "Actions=quick;") || !strings.Contains(string(entry), "[Desktop Action quick]") {
		t.Errorf("the desktop entry has no quick action:\n%s", entry)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a b": `'a b'`, "it's": `'it'\''s'`} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
