package api_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
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

// A folder's problem count covers every file its Problems list shows:
// failed files and files indexed with a note (text cut at the limit).
func TestFolderCountsEveryProblem(t *testing.T) {
	s := testserver.Start(t)
	if r := s.Do("PUT", "/api/settings/", map[string]any{"extraction.max_text_mb": 0.001}); r.Status != 200 {
		t.Fatalf("settings: %d %s", r.Status, r.Body)
	}
	root := t.TempDir()
	long := strings.Repeat("harbour ferry tide ", 200) // 3,800 bytes: cut at 1,000
	testserver.WriteFiles(t, root, "a.txt", "short", "b.txt", long, "c.txt", long)
	s.IndexDir(root, 3)
	f := s.Folder(root)
	if f["problem_count"] != float64(2) || f["failed_count"] != float64(0) || f["file_count"] != float64(3) {
		t.Fatalf("folder %v", f)
	}
	r := s.Get(fmt.Sprintf("/api/watched-directories/%v/problems", f["id"]))
	if num(r, "data.total") != 2 {
		t.Fatalf("problems: %s", r.Body)
	}
	// The text that was read is searchable.
	if r := post(t, s, map[string]any{"query": "ferry"}); num(r, "total") != 2 {
		t.Fatalf("cut files not searchable: %s", r.Body)
	}
}

// Files added while the folder is watched count in its total at once, not
// at the next scan ("7 of 5 indexed" never shows).
func TestFolderTotalFollowsLiveAdditions(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "one")
	s.IndexDir(root, 1)
	testserver.WriteFiles(t, root, "b.txt", "two", "c.txt", "three")
	testserver.Eventually(t, 20*time.Second, "the new files to be indexed", func() bool {
		return s.Folder(root)["indexed_count"] == float64(3)
	})
	if f := s.Folder(root); f["file_count"] != float64(3) {
		t.Fatalf("folder %v", f)
	}
}
