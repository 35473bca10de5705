package indexer_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/engine/extract"
	"trove/internal/testserver"
)

const settle = 30 * time.Second

// fast makes watcher events ready at once, so tests wait on work, not time.
func fast(t *testing.T, s *testserver.Server) {
	t.Helper()
	if r := s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0}); r.Status != 200 {
		t.Fatalf("settings: %d %s", r.Status, r.Body)
	}
}

func lookup(s *testserver.Server, path string) testserver.Response {
	return s.Get("/api/files/lookup?path=" + url.QueryEscape(path))
}

// waitIndexed polls until path is indexed and, if want is set, its summary
// contains want.
func waitIndexed(t *testing.T, s *testserver.Server, path, want string) testserver.Response {
	t.Helper()
	var r testserver.Response
	testserver.Eventually(t, settle, path+" indexed with "+want, func() bool {
		r = lookup(s, path)
		sum, _ := r.Field("summary").(string)
		return r.Status == 200 && r.Field("status") == "indexed" && strings.Contains(sum, want)
	})
	return r
}

// barrier returns once every file event that happened before it has been
// handled: events go through one watcher in order, so when a fresh file in
// a new watched folder is indexed, earlier events have been processed too.
func barrier(t *testing.T, s *testserver.Server) {
	t.Helper()
	dir := t.TempDir()
	s.IndexDir(dir, 0)
	p := filepath.Join(dir, "barrier.txt")
	if err := os.WriteFile(p, []byte("barrier marker"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitIndexed(t, s, p, "barrier")
	testserver.Eventually(t, settle, "an empty queue", func() bool { return s.Get("/api/queue/status").Field("total") == float64(0) })
}

func waitGone(t *testing.T, s *testserver.Server, path string) {
	t.Helper()
	testserver.Eventually(t, settle, path+" removed from the index", func() bool { return lookup(s, path).Status == 404 })
}

func TestCreateModifyDelete(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	s.IndexDir(root, 0)
	p := filepath.Join(root, "roof.txt")
	if err := os.WriteFile(p, []byte("The roof leaks above the bedroom."), 0o644); err != nil {
		t.Fatal(err)
	}
	first := waitIndexed(t, s, p, "bedroom")
	if err := os.WriteFile(p, []byte("Fixed: the roofer replaced the shingles."), 0o644); err != nil {
		t.Fatal(err)
	}
	second := waitIndexed(t, s, p, "shingles")
	if first.Field("id") != second.Field("id") || first.Field("content_hash") == second.Field("content_hash") {
		t.Fatalf("modify: id %v -> %v, hash %v -> %v", first.Field("id"), second.Field("id"), first.Field("content_hash"), second.Field("content_hash"))
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	waitGone(t, s, p)
}

func TestRenameKeepsTheRecord(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "draft.md", "# Plan\n\nBuild the shed in spring.")
	s.IndexDir(root, 1)
	before := lookup(s, filepath.Join(root, "draft.md"))
	if err := os.Rename(filepath.Join(root, "draft.md"), filepath.Join(root, "shed-plan.md")); err != nil {
		t.Fatal(err)
	}
	after := waitIndexed(t, s, filepath.Join(root, "shed-plan.md"), "shed")
	waitGone(t, s, filepath.Join(root, "draft.md"))
	if after.Field("id") != before.Field("id") || after.Field("indexed_at") != before.Field("indexed_at") || after.Field("filename") != "shed-plan.md" {
		t.Fatalf("a rename must move the record without re-indexing:\nbefore %s\nafter  %s", before.Body, after.Body)
	}
}

func TestRenameFolderMovesItsFiles(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "old/a.txt", "alpha text", "old/deep/b.txt", "beta text")
	s.IndexDir(root, 2)
	idA := lookup(s, filepath.Join(root, "old/a.txt")).Field("id")
	if err := os.Rename(filepath.Join(root, "old"), filepath.Join(root, "new")); err != nil {
		t.Fatal(err)
	}
	a := waitIndexed(t, s, filepath.Join(root, "new/a.txt"), "alpha")
	waitIndexed(t, s, filepath.Join(root, "new/deep/b.txt"), "beta")
	waitGone(t, s, filepath.Join(root, "old/a.txt"))
	if a.Field("id") != idA {
		t.Fatalf("folder rename re-indexed instead of moving: id %v -> %v", idA, a.Field("id"))
	}
	// The renamed folder is watched under its new name.
	testserver.WriteFiles(t, root, "new/deep/c.txt", "gamma text")
	waitIndexed(t, s, filepath.Join(root, "new/deep/c.txt"), "gamma")
}

func TestMoveBetweenWatchedFolders(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	a, b := t.TempDir(), t.TempDir()
	testserver.WriteFiles(t, a, "report.txt", "quarterly numbers")
	s.IndexDir(a, 1)
	s.IndexDir(b, 0)
	id := lookup(s, filepath.Join(a, "report.txt")).Field("id")
	if err := os.Rename(filepath.Join(a, "report.txt"), filepath.Join(b, "report.txt")); err != nil {
		t.Fatal(err)
	}
	moved := waitIndexed(t, s, filepath.Join(b, "report.txt"), "quarterly")
	waitGone(t, s, filepath.Join(a, "report.txt"))
	if moved.Field("id") != id {
		t.Fatalf("moved file re-indexed: %v -> %v", id, moved.Field("id"))
	}
	s.WaitIdle(a, 0)
	s.WaitIdle(b, 1)
}

func TestMoveOutAndIn(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root, outside := t.TempDir(), t.TempDir()
	testserver.WriteFiles(t, root, "leaving.txt", "goodbye")
	testserver.WriteFiles(t, outside, "arriving.txt", "hello there")
	s.IndexDir(root, 1)
	if err := os.Rename(filepath.Join(root, "leaving.txt"), filepath.Join(outside, "leaving.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(outside, "arriving.txt"), filepath.Join(root, "arriving.txt")); err != nil {
		t.Fatal(err)
	}
	waitGone(t, s, filepath.Join(root, "leaving.txt"))
	waitIndexed(t, s, filepath.Join(root, "arriving.txt"), "hello")
}

func TestNewSubfoldersAreWatched(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	s.IndexDir(root, 0)
	// mkdir -p and write at once: files may land before the watch does; the
	// scan of the new folder finds them.
	testserver.WriteFiles(t, root, "x/y/z/deep.txt", "deep content", "x/top.txt", "top content")
	waitIndexed(t, s, filepath.Join(root, "x/y/z/deep.txt"), "deep")
	waitIndexed(t, s, filepath.Join(root, "x/top.txt"), "top")
	testserver.WriteFiles(t, root, "x/y/later.txt", "later content")
	waitIndexed(t, s, filepath.Join(root, "x/y/later.txt"), "later")
}

func TestBurstOfWritesIsIndexedOnceAfterTheCooldown(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	s.IndexDir(root, 0)
	const cooldown = 3.0 // far above any scheduling stall between two of the writes
	s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": cooldown})
	events := s.Subscribe("types=file.indexed")
	p := filepath.Join(root, "hot.txt")
	var last time.Time
	for i := range 1000 {
		if err := os.WriteFile(p, []byte(fmt.Sprintf("version %d of the hot file", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		last = time.Now()
	}
	r := waitIndexed(t, s, p, "version 999")
	s.WaitIdle(root, 1)
	got := events.Events("file.indexed")
	if len(got) != 1 {
		t.Fatalf("indexed %d times, want once", len(got))
	}
	at, _ := time.Parse(time.RFC3339Nano, got[0].Data["time"].(string))
	if at.Before(last.Add(time.Duration(cooldown * float64(time.Second)))) {
		t.Fatalf("indexed at %v, before the cooldown after the last write (%v)", at, last)
	}
	_ = r
}

func TestExcludedFilesAreNeverIndexed(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	events := s.Subscribe("types=file.indexed")
	testserver.WriteFiles(t, root, "keep.txt", "kept", "node_modules/lib/index.js", "junk", ".git/HEAD", "ref", "notes.txt.swp", "swap")
	s.IndexDir(root, 1)
	testserver.WriteFiles(t, root, "node_modules/lib/more.js", "junk", "late.tmp", "temp", "later.txt", "kept too")
	waitIndexed(t, s, filepath.Join(root, "later.txt"), "kept")
	s.WaitIdle(root, 2)
	for _, e := range events.Events("file.indexed") {
		if p, _ := e.Payload()["path"].(string); !strings.HasSuffix(p, "keep.txt") && !strings.HasSuffix(p, "later.txt") {
			t.Errorf("excluded file indexed: %s", p)
		}
	}
}

func TestPauseAndResume(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	s.IndexDir(root, 0)
	if r := s.Do("POST", "/api/queue/pause", nil); r.Status != 200 || r.Field("paused") != true || r.Field("paused_manually") != true {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	p := filepath.Join(root, "waiting.txt")
	if err := os.WriteFile(p, []byte("waits for resume"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.Eventually(t, settle, "the change to reach the queue", func() bool {
		return s.Get("/api/queue/status").Field("ready") == float64(1)
	})
	if lookup(s, p).Status != 404 {
		t.Fatal("indexed while paused")
	}
	if f := s.Folder(root); f["status"] != "indexing" {
		t.Fatalf("folder status while work waits: %v", f["status"])
	}
	r := s.Do("POST", "/api/queue/resume", nil)
	if r.Status != 200 || r.Field("paused") != false {
		t.Fatalf("resume: %d %s", r.Status, r.Body)
	}
	waitIndexed(t, s, p, "resume")
	s.WaitIdle(root, 1)
}

// flaky fails extraction of files named flaky* a number of times.
type flaky struct {
	mu    sync.Mutex
	calls map[string]int
	fails int
}

func (f *flaky) extract(ctx context.Context, path string, opt extract.Options) (extract.Document, error) {
	if strings.HasPrefix(filepath.Base(path), "flaky") {
		f.mu.Lock()
		f.calls[path]++
		n := f.calls[path]
		f.mu.Unlock()
		if n <= f.fails {
			return extract.Document{}, fmt.Errorf("read %s: %w", path, errors.New("input/output error"))
		}
	}
	return extract.Extract(ctx, path, opt)
}

func TestRetriesThenSuccess(t *testing.T) {
	fl := &flaky{calls: map[string]int{}, fails: 2}
	s := testserver.Start(t, testserver.WithExtract(fl.extract))
	fast(t, s)
	root := t.TempDir()
	s.IndexDir(root, 0)
	p := filepath.Join(root, "flaky.txt")
	if err := os.WriteFile(p, []byte("eventually readable"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.Eventually(t, settle, "a retry to show in the queue", func() bool {
		items := s.Get("/api/queue/items")
		list, _ := items.Field("items").([]any)
		for _, it := range list {
			if m := it.(map[string]any); m["file_path"] == p && m["retry_count"].(float64) >= 1 && m["last_error"] != nil {
				return true
			}
		}
		return lookup(s, p).Status == 200 // already past it
	})
	waitIndexed(t, s, p, "readable")
	fl.mu.Lock()
	calls := fl.calls[p]
	fl.mu.Unlock()
	if calls != 3 {
		t.Fatalf("extract called %d times, want 3 (two failures, one success)", calls)
	}
}

func TestRetriesExhaustedRecordTheFailure(t *testing.T) {
	fl := &flaky{calls: map[string]int{}, fails: 100}
	s := testserver.Start(t, testserver.WithExtract(fl.extract))
	s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0, "queue.max_retries": 1})
	root := t.TempDir()
	testserver.WriteFiles(t, root, "flaky.bin", "never readable", "fine.txt", "fine")
	f := s.IndexDir(root, 2)
	_ = f
	dir := s.Folder(root)
	if dir["failed_count"] != float64(1) || dir["indexed_count"] != float64(1) {
		t.Fatalf("folder counts: %v", dir)
	}
	r := lookup(s, filepath.Join(root, "flaky.bin"))
	if r.Field("status") != "failed" || !strings.Contains(fmt.Sprint(r.Field("error")), "input/output error") {
		t.Fatalf("failed record: %s", r.Body)
	}
	if n := s.Get("/api/files/stats").Field("total_files"); n != float64(1) {
		t.Fatalf("a failed file counts as indexed: %v", n)
	}
}

func TestSpecialFilesFailWithAReason(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "ok.txt", "fine")
	s.IndexDir(root, 2)
	r := lookup(s, filepath.Join(root, "pipe"))
	if r.Field("status") != "failed" || !strings.Contains(fmt.Sprint(r.Field("error")), "named pipe") {
		t.Fatalf("fifo: %s", r.Body)
	}
}

func TestDeleteJob(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "alpha", "b/c.txt", "gamma")
	id := s.IndexDir(root, 2)
	r := s.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", id), nil)
	if r.Status != 200 || r.Field("success") != true || r.Field("job_id") != float64(id) {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if st := s.Get("/api/files/stats"); st.Field("total_files") != float64(0) {
		t.Fatalf("files left: %s", st.Body)
	}
	if s.Folder(root) != nil {
		t.Fatal("folder still listed")
	}
	// The watcher is gone: changes are not indexed.
	testserver.WriteFiles(t, root, "after.txt", "ignored")
	barrier(t, s)
	if lookup(s, filepath.Join(root, "after.txt")).Status != 404 {
		t.Fatal("a file of a removed folder was indexed")
	}
	r = s.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", id), nil)
	if r.Status != 404 || r.Field("success") != false || r.Field("job_id") != float64(id) || !strings.Contains(fmt.Sprint(r.Field("message")), fmt.Sprint(id)) {
		t.Fatalf("second delete: %d %s", r.Status, r.Body)
	}
}

func TestRestartReconcilesChangesMadeWhileOff(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "keep.txt", "unchanged", "edit.txt", "before the edit", "gone.txt", "to be deleted",
		"sub/inner.txt", "its folder becomes a file")
	s.IndexDir(root, 4)
	keepID := lookup(s, filepath.Join(root, "keep.txt")).Field("id")
	s.Stop()
	if err := os.Remove(filepath.Join(root, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	// A folder replaced by a file: below it, the stat says ENOTDIR.
	if err := os.RemoveAll(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "edit.txt", "after the edit, longer", "new/born.txt", "born while off", "sub", "a file now")
	s = s.Restart()
	waitIndexed(t, s, filepath.Join(root, "edit.txt"), "after the edit")
	waitIndexed(t, s, filepath.Join(root, "new/born.txt"), "born")
	waitGone(t, s, filepath.Join(root, "gone.txt"))
	waitGone(t, s, filepath.Join(root, "sub/inner.txt"))
	s.WaitIdle(root, 4)
	if lookup(s, filepath.Join(root, "keep.txt")).Field("id") != keepID {
		t.Fatal("an unchanged file changed identity across a restart")
	}
	// Live watching resumes after the restart.
	testserver.WriteFiles(t, root, "live.txt", "still live")
	waitIndexed(t, s, filepath.Join(root, "live.txt"), "still live")
}

func TestVanishedRootIsAnError(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := filepath.Join(t.TempDir(), "usb")
	testserver.WriteFiles(t, root, "a.txt", "a")
	s.IndexDir(root, 1)
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	testserver.Eventually(t, settle, "status error", func() bool {
		f := s.Folder(root)
		return f != nil && f["status"] == "error" && strings.Contains(fmt.Sprint(f["status_message"]), "no longer exists")
	})
}

func TestSchedulerPausesOutsideItsWindow(t *testing.T) {
	s := testserver.Start(t)
	now := time.Now()
	window := func(from, to time.Duration) map[string]any {
		return map[string]any{"type": "time_window", "start": now.Add(from).Format("15:04"), "end": now.Add(to).Format("15:04")}
	}
	r := s.Do("PUT", "/api/settings/", map[string]any{"scheduler": map[string]any{
		"enabled": true, "check_interval_seconds": 1, "rules": []any{window(2*time.Hour, 3*time.Hour)},
	}})
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, settle, "a scheduler pause", func() bool {
		q := s.Get("/api/queue/status")
		return q.Field("paused") == true && q.Field("paused_by_scheduler") == true && q.Field("paused_manually") == false &&
			strings.HasPrefix(fmt.Sprint(q.Field("scheduler_reason")), "outside ")
	})
	// Resuming by hand does not override the scheduler.
	if q := s.Do("POST", "/api/queue/resume", nil); q.Field("paused") != true {
		t.Fatalf("manual resume overrode the scheduler: %s", q.Body)
	}
	s.Do("PUT", "/api/settings/", map[string]any{"scheduler.rules": []any{window(-time.Hour, time.Hour)}})
	testserver.Eventually(t, settle, "the scheduler to release", func() bool {
		return s.Get("/api/queue/status").Field("paused") == false
	})
}

func paths(r testserver.Response) []string {
	list, _ := r.Field("results").([]any)
	var out []string
	for _, x := range list {
		out = append(out, x.(map[string]any)["file"].(map[string]any)["file_path"].(string))
	}
	return out
}

func TestWatchLimitFallsBackToRescans(t *testing.T) {
	s := testserver.Start(t, testserver.WithMaxWatches(2))
	fast(t, s)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a/1.txt", "one", "b/2.txt", "two", "c/3.txt", "three")
	s.Watch(root)
	testserver.Eventually(t, settle, "the folder to report periodic rescans", func() bool {
		f := s.Folder(root)
		return f != nil && f["status"] == "complete" && strings.Contains(fmt.Sprint(f["status_message"]), "watch limit") &&
			f["indexed_count"] == float64(3)
	})
	// The interval reads as people write it, not as Go prints a Duration.
	if msg := fmt.Sprint(s.Folder(root)["status_message"]); !strings.Contains(msg, "rescanning every 5 minutes") {
		t.Fatalf("status message %q", msg)
	}
}

// A folder removed and made again while its removal waits is brought up to
// date file by file; a file below it that can no longer be indexed (now a
// FIFO) fails on its own path. It used to fail the whole item, recorded as
// a failed file at the folder's path, which no rescan ever cleared.
func TestFileBelowAReplacedFolderFailsOnItsOwnPath(t *testing.T) {
	s := testserver.Start(t)
	fast(t, s)
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	testserver.WriteFiles(t, root, "sub/a.txt", "alpha notes", "sub/b.txt", "beta notes")
	s.IndexDir(root, 2)
	if r := s.Do("POST", "/api/queue/pause", nil); r.Status != 200 {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	testserver.Eventually(t, settle, "the folder's removal to reach the queue", func() bool {
		items := s.Get("/api/queue/items?limit=50").Field("items")
		return strings.Contains(fmt.Sprint(items), "delete")
	})
	testserver.WriteFiles(t, root, "sub/a.txt", "alpha notes again")
	if err := mkfifo(filepath.Join(sub, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if r := s.Do("POST", "/api/queue/resume", nil); r.Status != 200 {
		t.Fatalf("resume: %d %s", r.Status, r.Body)
	}
	waitIndexed(t, s, filepath.Join(sub, "a.txt"), "again")
	testserver.Eventually(t, settle, "b.txt failed as the FIFO it is", func() bool {
		r := lookup(s, filepath.Join(sub, "b.txt"))
		return r.Field("status") == "failed" && strings.Contains(fmt.Sprint(r.Field("error")), "named pipe")
	})
	s.WaitIdle(root, 2)
	if r := lookup(s, sub); r.Status != 404 {
		t.Fatalf("the folder's own path is in the index: %s", r.Body)
	}
}
