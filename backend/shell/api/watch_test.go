package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"trove/internal/testserver"
)

var zuluTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

func TestWatchDirectory(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "a", "sub/b.md", "b", "node_modules/x.js", "junk")
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": root})
	if r.Status != 200 || r.Field("status") != "success" || r.Field("data.directory") != root ||
		r.Field("data.files_found") != float64(2) || r.Field("data.indexing_started") != true {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	s.WaitIdle(root, 2)
	list := s.Get("/api/watched-directories")
	if list.Field("status") != "success" || list.Field("data.total_directories") != float64(1) {
		t.Fatalf("list: %s", list.Body)
	}
	d := s.Folder(root)
	if d["file_count"] != float64(2) || d["indexed_count"] != float64(2) || d["failed_count"] != float64(0) || d["status"] != "watching" {
		t.Fatalf("summary %v", d)
	}
	if at, _ := d["added_at"].(string); !zuluTime.MatchString(at) {
		t.Fatalf("added_at %q", d["added_at"])
	}
}

func TestWatchDirectoryErrors(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	file := filepath.Join(root, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]any{
		"missing field": map[string]any{},
		"empty":         map[string]any{"path": ""},
		"relative":      map[string]any{"path": "notes"},
		"absent":        map[string]any{"path": filepath.Join(root, "nope")},
		"a file":        map[string]any{"path": file},
		"wrong type":    map[string]any{"path": 42},
	} {
		r := s.Do("POST", "/api/watch/directory", body)
		if r.Status != 400 || r.Field("status") != "error" || r.Field("error.message") == "" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
		if name != "wrong type" && r.Field("error.code") != "INVALID_PATH" {
			t.Errorf("%s: code %v", name, r.Field("error.code"))
		}
	}
}

func TestAlreadyWatchingComparesComponents(t *testing.T) {
	s := testserver.Start(t)
	base := t.TempDir()
	notes, old := filepath.Join(base, "notes"), filepath.Join(base, "notes-old")
	testserver.WriteFiles(t, notes, "sub/a.txt", "a")
	testserver.WriteFiles(t, old, "b.txt", "b")
	s.Watch(notes)
	for _, p := range []string{notes, notes + "/", filepath.Join(notes, "sub")} {
		r := s.Do("POST", "/api/watch/directory", map[string]any{"path": p})
		if r.Status != 409 || r.Field("error.code") != "ALREADY_WATCHING" {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": old}); r.Status != 200 {
		t.Fatalf("notes-old is not inside notes: %d %s", r.Status, r.Body)
	}
}

func TestSymlinkedPathIsResolved(t *testing.T) {
	s := testserver.Start(t)
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": link})
	if r.Status != 200 || r.Field("data.directory") != real {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": real}); r.Status != 409 {
		t.Fatalf("the same folder by its real path: %d", r.Status)
	}
}

func TestParentAbsorbsWatchedChild(t *testing.T) {
	s := testserver.Start(t)
	parent := t.TempDir()
	child := filepath.Join(parent, "child")
	testserver.WriteFiles(t, parent, "child/a.txt", "alpha", "b.txt", "beta")
	childID := s.IndexDir(child, 1)
	id := s.FileID(filepath.Join(child, "a.txt"))
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": parent})
	if r.Status != 200 || r.Field("data.files_found") != float64(2) {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	s.WaitIdle(parent, 2)
	if s.Folder(child) != nil {
		t.Fatal("the absorbed child is still listed")
	}
	if got := s.FileID(filepath.Join(child, "a.txt")); got != id {
		t.Fatalf("the child's file was re-indexed: id %d -> %d", id, got)
	}
	jobs := s.Get("/api/watch/jobs")
	if list, _ := jobs.Field("jobs").([]any); len(list) != 1 {
		t.Fatalf("jobs %s", jobs.Body)
	}
	if r := s.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", childID), nil); r.Status != 404 {
		t.Fatalf("the absorbed job still deletes: %d", r.Status)
	}
}

func TestLegacyWatchEndpoint(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "a")
	r := s.Do("POST", "/api/watch/", map[string]any{"directory_path": root})
	if r.Status != 201 || r.Field("success") != true || r.Field("files_indexed") != float64(0) || r.Field("message") == "" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	r = s.Do("POST", "/api/watch/", map[string]any{"directory_path": root})
	if r.Status != 400 || r.Field("success") != false || r.Field("files_indexed") != float64(0) || !strings.Contains(fmt.Sprint(r.Field("message")), "already") {
		t.Fatalf("again: %d %s", r.Status, r.Body)
	}
	for _, body := range []any{map[string]any{"directory_path": "rel/path"}, map[string]any{}, `{"directory_path": `} {
		r = s.Do("POST", "/api/watch/", body)
		if r.Status != 400 || r.Field("success") != false || r.Field("files_indexed") != float64(0) {
			t.Errorf("%v: %d %s", body, r.Status, r.Body)
		}
	}
}

func TestWatchJobs(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": root, "recursive": false, "file_pattern": "*.md"})
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	jobs := s.Get("/api/watch/jobs")
	list, _ := jobs.Field("jobs").([]any)
	if len(list) != 1 {
		t.Fatalf("jobs %s", jobs.Body)
	}
	j := list[0].(map[string]any)
	if j["path"] != root || j["is_active"] != true || j["recursive"] != false || j["file_pattern"] != "*.md" {
		t.Fatalf("job %v", j)
	}
	for _, k := range []string{"created_at", "updated_at"} {
		if v, _ := j[k].(string); !zuluTime.MatchString(v) {
			t.Errorf("%s = %v", k, j[k])
		}
	}
	if _, ok := j["last_scan"]; !ok {
		t.Error("last_scan missing")
	}
	for _, bad := range []string{"abc", "0", "-1"} {
		if r := s.Do("DELETE", "/api/watch/jobs/"+bad, nil); r.Status != 400 || r.Field("success") != false {
			t.Errorf("delete %q: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": t.TempDir(), "file_pattern": "[bad"}); r.Status != 400 {
		t.Fatalf("bad file_pattern: %d", r.Status)
	}
}

func TestFilePatternAndNonRecursive(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.md", "a", "b.txt", "b", "sub/c.md", "c")
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": root, "recursive": false, "file_pattern": "*.md"})
	if r.Field("data.files_found") != float64(1) {
		t.Fatalf("%s", r.Body)
	}
	s.WaitIdle(root, 1)
}
