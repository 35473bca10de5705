package service_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// System folders and Trove's own folders are refused, however the path is
// written, unless the request says force.
func TestWatchRefusesSystemFolders(t *testing.T) {
	s := testserver.Start(t)
	// If a folder were accepted, nothing of it may be read.
	if r := s.Do("POST", "/api/queue/pause", nil); r.Status != 200 {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	if err := os.MkdirAll(s.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	for name, target := range map[string]string{"proc": "/proc", "kernel": "/sys/kernel", "data": s.DataDir, "etc": "/etc"} {
		if err := os.Symlink(target, filepath.Join(links, name)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		s.ConfigDir, s.ConfigDir + "/", s.DataDir, filepath.Join(links, "data"),
		"/proc", "/proc/", "/proc/../proc", "/proc/self", "/proc/1/task", "//sys", "/sys/kernel/", "/sys/./class",
		"/dev", "/dev/shm", "/run", "/var/run", "/boot", "/etc", "/var/lib",
		filepath.Join(links, "proc"), filepath.Join(links, "kernel") + "/", filepath.Join(links, "etc"),
		"/", "//", "/.", "/tmp/..",
	}
	checked := 0
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue // not on this machine
		}
		checked++
		r := s.Do("POST", "/api/watch/directory", map[string]any{"path": p})
		msg, _ := r.Field("error.message").(string)
		if r.Status == 200 {
			t.Fatalf("%s was accepted: %s", p, r.Body)
		}
		if r.Status != 400 || r.Field("status") != "error" || r.Field("error.code") != "INVALID_PATH" ||
			!strings.Contains(msg, `"force": true`) {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
		legacy := s.Do("POST", "/api/watch/", map[string]any{"directory_path": p})
		if legacy.Status != 400 || legacy.Field("success") != false || legacy.Field("code") != "INVALID_PATH" {
			t.Errorf("%s by the older endpoint: %d %s", p, legacy.Status, legacy.Body)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d of the paths exist here", checked)
	}
	if jobs := s.Get("/api/watch/jobs"); len(jobs.Field("jobs").([]any)) != 0 {
		t.Fatalf("a refused folder was recorded: %s", jobs.Body)
	}
	// An ordinary folder is fine, and so is a system folder with force;
	// Trove's own folders stay refused even then (it would index itself).
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": t.TempDir()}); r.Status != 200 {
		t.Fatalf("an ordinary folder: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": "/etc/apt/", "force": true}); r.Status != 200 || r.Field("data.directory") != "/etc/apt" {
		t.Fatalf("forced: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": s.ConfigDir, "force": true}); r.Status != 400 {
		t.Fatalf("Trove's own folder, forced: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": t.TempDir(), "force": "yes"}); r.Status != 400 {
		t.Fatalf("force must be a boolean: %d %s", r.Status, r.Body)
	}
}
