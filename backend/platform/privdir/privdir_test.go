//go:build unix

package privdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestAMissingFolderIsMadePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "a", "data")
	fixed, err := Ensure(dir)
	if err != nil || fixed != "" {
		t.Fatalf("Ensure: %q %v", fixed, err)
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("mode %04o, want 0700", m)
	}
}

func TestAnOpenFolderOfMineIsMadePrivateAndSaysSo(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fixed, err := Ensure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fixed, "0755") || !strings.Contains(fixed, "0700") {
		t.Errorf("the fix is not described: %q", fixed)
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("mode %04o, want 0700", m)
	}
	if fixed, err := Ensure(dir); fixed != "" || err != nil {
		t.Errorf("a private folder was fixed again: %q %v", fixed, err)
	}
}

func TestAnOpenFolderOfAnotherUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(dir); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("Ensure on another user's open folder: %v, want ErrNotPrivate", err)
	}
}

func TestAFileIsNotAFolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(p); err == nil {
		t.Error("a file was accepted as a folder")
	}
}
