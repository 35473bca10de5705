package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"trove/internal/testserver"
)

func TestFolderProblemsListsFailuresAndWarnings(t *testing.T) {
	s := testserver.Start(t)
	s.Do("PUT", "/api/settings/", map[string]any{"extraction.max_file_size_mb": 0.001})
	root := t.TempDir()
	testserver.WriteFiles(t, root, "small.txt", "fine", "big.txt", strings.Repeat("large text ", 500))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := s.IndexDir(root, 3)
	r := s.Get(fmt.Sprintf("/api/watched-directories/%d/problems", id))
	list, _ := r.Field("data.problems").([]any)
	if r.Status != 200 || r.Field("data.total") != float64(2) || len(list) != 2 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	pipe, big := list[0].(map[string]any), list[1].(map[string]any)
	if pipe["status"] != "failed" || !strings.Contains(pipe["error"].(string), "named pipe") {
		t.Errorf("pipe: %v", pipe)
	}
	if big["status"] != "indexed" || !strings.Contains(big["error"].(string), "name only") {
		t.Errorf("big file: %v", big)
	}
	if r := s.Get("/api/watched-directories/999/problems"); r.Status != 404 {
		t.Fatalf("unknown folder: %d", r.Status)
	}
}

func TestOpenAndRevealAnIndexedFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "opener")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TROVE_OPENER", script)
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "notes/roof.txt", "roof")
	s.IndexDir(root, 1)
	path := filepath.Join(root, "notes/roof.txt")
	id := s.FileID(path)
	if r := s.Do("POST", fmt.Sprintf("/api/files/%d/open", id), nil); r.Status != 200 || r.Field("path") != path {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", fmt.Sprintf("/api/files/%d/reveal", id), nil); r.Status != 200 {
		t.Fatalf("reveal: %d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, 5*time.Second, "the opener to get the file and its folder", func() bool {
		b, _ := os.ReadFile(out)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		return slices.Equal(lines, []string{filepath.Join(root, "notes"), path})
	})
	if r := s.Do("POST", "/api/files/9999/open", nil); r.Status != 404 || r.Field("error") == nil {
		t.Fatalf("unknown id: %d %s", r.Status, r.Body)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if r := s.Do("POST", fmt.Sprintf("/api/files/%d/open", id), nil); r.Status != 404 {
		t.Fatalf("deleted file: %d %s", r.Status, r.Body)
	}
}
