package api_test

import (
	"path/filepath"
	"testing"

	"trove/backend/testserver"
)

func TestWatchExpandsTheHomeFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	s := testserver.Start(t)
	testserver.WriteFiles(t, home, "Documents/a.txt", "a")
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": "~/Documents"})
	if want := filepath.Join(home, "Documents"); r.Status != 200 || r.Field("data.directory") != want {
		t.Fatalf("~/Documents: %d %s, want %s", r.Status, r.Body, want)
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": "~other/x"}); r.Status != 400 || r.Field("error.code") != "INVALID_PATH" {
		t.Fatalf("~other/x: %d %s", r.Status, r.Body)
	}
}
