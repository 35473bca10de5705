//go:build unix && !darwin

package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestStartAtLoginWritesAndRemovesTheXDGEntry(t *testing.T) {
	conf := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", conf)
	e := For("/opt/My Apps/trove-desktop")
	want := filepath.Join(conf, "autostart", "dev.trove.Trove.desktop")

	item, err := e.Status()
	if err != nil || !item.Supported || item.Enabled || item.Path != want {
		t.Fatalf("before: %+v, %v", item, err)
	}
	for range 2 { // idempotent
		if item, err = e.Set(true); err != nil || !item.Enabled {
			t.Fatalf("enable: %+v, %v", item, err)
		}
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nExec=\"/opt/My Apps/trove-desktop\" --hidden\n") {
		t.Errorf("entry:\n%s", data)
	}
	if item.Command != `"/opt/My Apps/trove-desktop" --hidden` {
		t.Errorf("command %q", item.Command)
	}
	if path, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(path, want).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("desktop-file-validate: %v %s", err, out)
		}
	} else {
		t.Log("desktop-file-validate is not installed (desktop-file-utils): the entry's syntax is not checked")
	}
	for range 2 {
		if item, err = e.Set(false); err != nil || item.Enabled {
			t.Fatalf("disable: %+v, %v", item, err)
		}
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Errorf("the entry is still there: %v", err)
	}
}

func TestExecQuoting(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/trove-desktop": "/usr/bin/trove-desktop",
		"/opt/a b/trove":         `"/opt/a b/trove"`,
		`/opt/$x"y/100%/t`:       `"/opt/\\$x\\"y/100%%/t"`,
		`/opt/back\slash`:        `"/opt/back\\\\slash"`,
	} {
		if got := quoteExec(in); got != want {
			t.Errorf("quoteExec(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAnUnwritableConfigFolderIsAnError(t *testing.T) {
	conf := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", conf)
	// autostart is a file, so the folder cannot be made.
	if err := os.WriteFile(filepath.Join(conf, "autostart"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := For("/usr/bin/trove-desktop").Set(true); err == nil {
		t.Error("no error")
	}
}
