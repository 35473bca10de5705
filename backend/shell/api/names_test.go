package api_test

import (
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// streamHits runs a stream search and returns its results.
func streamHits(s *testserver.Server, q string) []map[string]any {
	r := s.Get("/api/search/stream?query=" + url.QueryEscape(q))
	arr, _ := r.Field("data.results").([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// Names first: a watched folder's files are found by name before the
// content pass reads them (here, with the queue paused, it does not run),
// marked content_indexed false; the folder shows both passes. Once the
// queue runs, their content is found too.
func TestNamesAreFoundBeforeTheirContent(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof-report.txt", "the wombat under the stairs", "notes/garden.md", "a quiet pond")
	s.Do("POST", "/api/queue/pause", nil)
	s.Watch(root)
	var hits []map[string]any
	testserver.Eventually(t, 10*time.Second, "the file found by name", func() bool {
		hits = streamHits(s, "roof")
		return len(hits) == 1
	})
	if hits[0]["content_indexed"] != false || hits[0]["offline"] != false {
		t.Fatalf("found by name: %v", hits[0])
	}
	if got := streamHits(s, "wombat"); len(got) != 0 {
		t.Fatalf("content found before it was read: %v", got)
	}
	f := s.Folder(root)
	progress := fmt.Sprint(f["progress"])
	if f["pending_count"] != float64(2) || progress != "map[content:map[done:0 eta_seconds:-1 rate:0 state:paused total:2] names:map[done:2 eta_seconds:0 rate:0 state:done total:2]]" {
		t.Fatalf("folder while the content waits: pending %v, progress %s", f["pending_count"], progress)
	}
	s.Do("POST", "/api/queue/resume", nil)
	s.WaitIdle(root, 2)
	if got := streamHits(s, "wombat"); len(got) != 1 || got[0]["content_indexed"] != true {
		t.Fatalf("content once read: %v", got)
	}
}

// A names-only folder is found by name and never read: its content pass
// is off, and a word of its content finds nothing.
func TestNamesOnlyFolderIsNeverRead(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof-report.txt", "the wombat under the stairs")
	r := s.Do("POST", "/api/watch/directory", map[string]any{"path": root, "names_only": true})
	if r.Status != 200 {
		t.Fatalf("watch names only: %d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, 10*time.Second, "the folder settled", func() bool {
		f := s.Folder(root)
		return f != nil && f["status"] == "watching"
	})
	hits := streamHits(s, "roof")
	if len(hits) != 1 || hits[0]["content_indexed"] != false {
		t.Fatalf("found by name: %v", hits)
	}
	if got := streamHits(s, "wombat"); len(got) != 0 {
		t.Fatalf("a names-only file's content was read: %v", got)
	}
	f := s.Folder(root)
	if f["names_only"] != true || fmt.Sprint(f["progress"].(map[string]any)["content"]) != "map[done:0 eta_seconds:0 rate:0 state:off total:0]" {
		t.Fatalf("folder: %v", f)
	}
	r = s.Do("POST", "/api/watch/directory", map[string]any{"path": t.TempDir(), "rescan_seconds": 5})
	if r.Status != 400 || r.Field("error.code") != "INVALID_NUMBER" || r.Field("error.field") != "rescan_seconds" {
		t.Fatalf("a rescan too often: %d %s", r.Status, r.Body)
	}
}

// A folder whose drive goes (a bind mount unmounted here) is offline, not
// deleted: its files are still found, marked offline, and cannot be
// opened; when it returns it catches up without reading unchanged files
// again.
func TestUnmountedFolderIsOfflineNotDeleted(t *testing.T) {
	src, mnt := t.TempDir(), t.TempDir()
	testserver.WriteFiles(t, src, "garden.txt", "the garden plan")
	if out, err := exec.Command("mount", "--bind", src, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount here (needs root): %v %s", err, out)
	}
	mounted := true
	t.Cleanup(func() {
		if mounted {
			exec.Command("umount", mnt).Run()
		}
	})
	s := testserver.Start(t, testserver.WithMountCheck(50*time.Millisecond))
	s.IndexDir(mnt, 1)
	path := filepath.Join(mnt, "garden.txt")
	id := s.FileID(path)
	indexedAt := s.Get(fmt.Sprintf("/api/files/%d", id)).Field("indexed_at")

	if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
		t.Fatalf("umount: %v %s", err, out)
	}
	mounted = false
	testserver.Eventually(t, 10*time.Second, "the folder offline", func() bool {
		w, _ := s.Folder(mnt)["watching"].(map[string]any)
		return w["offline"] == true
	})
	hits := streamHits(s, "garden")
	if len(hits) != 1 || hits[0]["offline"] != true {
		t.Fatalf("an offline file is not found as offline: %v", hits)
	}
	r := s.Do("POST", fmt.Sprintf("/api/files/%d/open", id), nil)
	if r.Status != 503 || r.Field("code") != "FOLDER_OFFLINE" {
		t.Fatalf("open offline: %d %s", r.Status, r.Body)
	}
	testserver.WriteFiles(t, src, "pond.txt", "a quiet pond")

	if out, err := exec.Command("mount", "--bind", src, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount again: %v %s", err, out)
	}
	mounted = true
	testserver.Eventually(t, 10*time.Second, "the folder back and caught up", func() bool {
		f := s.Folder(mnt)
		w, _ := f["watching"].(map[string]any)
		return w["offline"] == false && f["status"] == "watching" && f["indexed_count"] == float64(2)
	})
	if got := s.FileID(path); got != id {
		t.Fatalf("the file came back as another record: %d, was %d", got, id)
	}
	if at := s.Get(fmt.Sprintf("/api/files/%d", id)).Field("indexed_at"); at != indexedAt {
		t.Fatalf("an unchanged file was read again: indexed at %v, was %v", at, indexedAt)
	}
	if hits := streamHits(s, "garden"); len(hits) != 1 || hits[0]["offline"] != false {
		t.Fatalf("back online: %v", hits)
	}
}

// A folder on a FUSE mount (bindfs over a local folder) gets no events
// from the kernel for changes made beside it: Trove tells from its file
// system, says so, and picks the changes up by its scheduled rescan. An
// unmount takes it offline and a remount brings it back caught up.
func TestFUSEFolderIsRescannedOnSchedule(t *testing.T) {
	for _, tool := range []string{"bindfs", "fusermount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; make go-test installs it (bindfs)", tool)
		}
	}
	src, mnt := t.TempDir(), t.TempDir()
	testserver.WriteFiles(t, src, "garden.txt", "the garden plan")
	mount := func() error {
		out, err := exec.Command("bindfs", "--no-allow-other", src, mnt).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if err := mount(); err != nil {
		t.Skipf("cannot mount through FUSE here: %v", err)
	}
	mounted := true
	unmount := func() {
		if out, err := exec.Command("fusermount", "-u", mnt).CombinedOutput(); err != nil {
			t.Fatalf("fusermount -u: %v %s", err, out)
		}
		mounted = false
	}
	t.Cleanup(func() {
		if mounted {
			exec.Command("fusermount", "-u", mnt).Run()
		}
	})
	s := testserver.Start(t, testserver.WithMountCheck(50*time.Millisecond), testserver.WithNetworkRescan(time.Second))
	s.IndexDir(mnt, 1)
	w, _ := s.Folder(mnt)["watching"].(map[string]any)
	if fs, _ := w["file_system"].(string); !strings.HasPrefix(fs, "fuse") || w["live_events"] != false || w["rescan_every_seconds"] != float64(1) {
		t.Fatalf("a FUSE folder: %v; want its file system, no live events and scheduled rescans", w)
	}

	// Written beside the mount: no event reaches the folder's watch.
	testserver.WriteFiles(t, src, "pond.txt", "a quiet pond")
	testserver.Eventually(t, 20*time.Second, "the new file found by the scheduled rescan", func() bool {
		return len(streamHits(s, "pond")) == 1
	})

	unmount()
	testserver.Eventually(t, 10*time.Second, "the folder offline", func() bool {
		w, _ := s.Folder(mnt)["watching"].(map[string]any)
		return w["offline"] == true
	})
	if hits := streamHits(s, "garden"); len(hits) != 1 || hits[0]["offline"] != true {
		t.Fatalf("an offline file is not found as offline: %v", hits)
	}
	testserver.WriteFiles(t, src, "shed.txt", "the shed roof")
	if err := mount(); err != nil {
		t.Fatalf("mount again: %v", err)
	}
	mounted = true
	testserver.Eventually(t, 20*time.Second, "the folder back and caught up", func() bool {
		f := s.Folder(mnt)
		w, _ := f["watching"].(map[string]any)
		return w["offline"] == false && f["indexed_count"] == float64(3)
	})
	if hits := streamHits(s, "shed"); len(hits) != 1 || hits[0]["offline"] != false {
		t.Fatalf("back online: %v", hits)
	}
}
