package testserver

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// WriteFiles creates files below root: pairs of relative path and content.
func WriteFiles(t testing.TB, root string, pairs ...string) {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		p := filepath.Join(root, pairs[i])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pairs[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Watch adds a folder through the API and returns its job id.
func (s *Server) Watch(dir string) int64 {
	s.t.Helper()
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": dir})
	if r.Status != 200 {
		s.t.Fatalf("watch %s: %d %s", dir, r.Status, r.Body)
	}
	id, _ := r.Field("data.job_id").(float64)
	return int64(id)
}

// Folder returns the watched-directories entry for dir, or nil.
func (s *Server) Folder(dir string) map[string]any {
	s.t.Helper()
	r := s.Get("/api/watched-directories")
	list, _ := r.Field("data.directories").([]any)
	for _, d := range list {
		if m, _ := d.(map[string]any); m["path"] == dir {
			return m
		}
	}
	return nil
}

// WaitIdle polls until the folder is watched, nothing of it is queued, and
// its indexed plus failed counts equal want (a negative want skips that).
func (s *Server) WaitIdle(dir string, want int) map[string]any {
	s.t.Helper()
	var last map[string]any
	var queue []byte
	deadline := time.Now().Add(30 * time.Second)
	for {
		last = s.Folder(dir)
		q := s.Get("/api/queue/status")
		queue = q.Body
		if last != nil && last["status"] == "watching" && q.Field("total") == float64(0) {
			done, _ := last["indexed_count"].(float64)
			failed, _ := last["failed_count"].(float64)
			if want < 0 || int(done+failed) == want {
				return last
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s did not settle at %d files within 30s: folder %v, queue %s", dir, want, last, queue)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// IndexDir watches dir and waits until its want files are processed.
func (s *Server) IndexDir(dir string, want int) int64 {
	s.t.Helper()
	id := s.Watch(dir)
	s.WaitIdle(dir, want)
	return id
}

// FileID returns the id of an indexed path, or fails the test.
func (s *Server) FileID(path string) int64 {
	s.t.Helper()
	r := s.Get("/api/files/lookup?path=" + url.QueryEscape(path))
	id, _ := r.Field("id").(float64)
	if r.Status != 200 || id == 0 {
		s.t.Fatalf("lookup %s: %d %s", path, r.Status, r.Body)
	}
	return int64(id)
}

// Screenshot renders a line of text as a PNG at path with Ghostscript, for
// OCR to read; the test is skipped without Ghostscript or tesseract.
func Screenshot(t testing.TB, path, text string) {
	t.Helper()
	for _, tool := range []string{"gs", "tesseract"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (make go-test installs it)", tool)
		}
	}
	ps := filepath.Join(t.TempDir(), "page.ps")
	page := fmt.Sprintf("%%!PS\n/Helvetica findfont 28 scalefont setfont\n40 700 moveto (%s) show\nshowpage\n", text)
	if err := os.WriteFile(ps, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gs", "-q", "-sDEVICE=png16m", "-r100", "-dTextAlphaBits=4", "-o", path, ps).CombinedOutput(); err != nil {
		t.Fatalf("gs: %v: %s", err, out)
	}
}
