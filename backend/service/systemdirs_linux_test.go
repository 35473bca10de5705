package service

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestVirtualFileSystemsAreKnownByType(t *testing.T) {
	if got := virtualFS("/proc/self"); got != "proc" {
		t.Errorf("/proc: %q", got)
	}
	if got := virtualFS("/sys/kernel"); got != "sysfs" {
		t.Errorf("/sys: %q", got)
	}
	if got := virtualFS(t.TempDir()); got != "" {
		t.Errorf("a temporary folder: %q", got)
	}
}

// /proc mounted elsewhere is refused by its type, not its name.
func TestABindMountOfProcIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("/proc", dir, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount here: %v", err)
	}
	defer unix.Unmount(dir, unix.MNT_DETACH)
	s := &Service{}
	err := s.refuseSystemFolder(dir, false)
	if err == nil || !strings.Contains(err.Error(), "virtual file system (proc)") {
		t.Fatalf("got %v", err)
	}
}
