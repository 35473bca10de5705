package indexer_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"trove/internal/poll"

	"trove/backend/core"
	"trove/backend/store"
	"trove/internal/testserver"
)

// smallDisk mounts a tmpfs of the given size on a fresh folder, or skips
// the test when that is not possible (mounting needs root).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs for the data dir (CI runs as root)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs for the data dir: %v: %s", err, out)
	}
	// Registered before the server starts, so it runs after the server stops.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file in dir until the disk is full, then gives back
// spare bytes, and returns the file's path.
func fillDisk(t *testing.T, dir string, spare int64) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	var n int64
	for {
		w, err := f.Write(block)
		n += int64(w)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(n-spare, 0)); err != nil {
		t.Fatal(err)
	}
	return p
}

// wordyFiles writes n files of distinct random words, so that indexing them
// needs a few megabytes of index.
func wordyFiles(t *testing.T, root string, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(6, 7))
	letters := "abcdefghijklmnopqrstuvwxyz"
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "document %d\n", i)
		for b.Len() < 6000 {
			w := make([]byte, 4+r.IntN(8))
			for j := range w {
				w[j] = letters[r.IntN(len(letters))]
			}
			b.Write(w)
			b.WriteByte(' ')
		}
		testserver.WriteFiles(t, root, fmt.Sprintf("d%d/file-%03d.txt", i%7, i), b.String())
	}
}

// verifyIndexed checks that every file below root is indexed with the
// content hash of its bytes, and that the folder counts want files, none
// failed.
func verifyIndexed(t *testing.T, s *testserver.Server, root string, want int) {
	t.Helper()
	n := 0
	if err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, _ := os.ReadFile(path)
		sum := sha256.Sum256(b)
		if r := lookup(s, path); r.Status != 200 || r.Field("status") != "indexed" || r.Field("content_hash") != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f := s.Folder(root)
	if n != want || f["indexed_count"] != float64(want) || f["failed_count"] != float64(0) {
		t.Fatalf("on disk %d, folder %v; want %d indexed, none failed", n, f, want)
	}
}

// A full disk is a condition of the index, not of the files: the queue
// holds its items (no retries burnt, nothing recorded as failed), the
// folder and the status say so, and once space is freed everything is
// indexed without a restart.
func TestDiskFullHoldsTheQueueAndLosesNothing(t *testing.T) {
	// Large enough for the index and its WAL (checkpointed every ~64 MB)
	// once the filler is gone.
	data := smallDisk(t, "128m")
	root := t.TempDir()
	const n = 120
	wordyFiles(t, root, n)
	s := testserver.Start(t, testserver.WithDirs(data, t.TempDir()))
	s.Do("POST", "/api/queue/pause", nil)
	s.Watch(root)
	filler := fillDisk(t, data, 256<<10)
	s.Do("POST", "/api/queue/resume", nil)

	var folder map[string]any
	testserver.Eventually(t, 60*time.Second, "the folder to show the full disk", func() bool {
		folder = s.Folder(root)
		return folder["status"] == core.DirError
	})
	if msg, _ := folder["status_message"].(string); !strings.Contains(msg, "full") || !strings.Contains(msg, "MB free") {
		t.Errorf("the folder's message must say the index's disk is full and how much is free: %q", msg)
	}
	q := s.Get("/api/queue/status")
	if q.Field("paused_by_storage") != true || q.Field("paused") != true || !strings.Contains(fmt.Sprint(q.Field("storage_reason")), "full") {
		t.Errorf("queue status while the disk is full: %s", q.Body)
	}
	if st := s.Get("/api/status/"); st.Field("index.status") != "storage_error" || !strings.Contains(fmt.Sprint(st.Field("index.message")), "full") {
		t.Errorf("status while the disk is full: %s", st.Body)
	}
	if total, _ := q.Field("total").(float64); total == 0 {
		t.Errorf("the queue dropped its items: %s", q.Body)
	}
	if folder["failed_count"] != float64(0) {
		t.Errorf("files recorded as failed because the index's disk is full: %v", folder)
	}
	items := s.Get("/api/queue/items?limit=1000")
	for _, it := range items.Field("items").([]any) {
		if rc := it.(map[string]any)["retry_count"]; rc != float64(0) {
			t.Fatalf("an item burnt retries on the full disk: %v", it)
		}
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	converged := func() bool {
		f := s.Folder(root)
		return f["status"] == core.DirWatching && s.Get("/api/queue/status").Field("total") == float64(0) && f["indexed_count"] == float64(n)
	}
	if !poll.Until(90*time.Second, converged) {
		t.Fatalf("the index did not converge after space was freed: folder %v, queue %s", s.Folder(root), s.Get("/api/queue/status").Body)
	}
	verifyIndexed(t, s, root, n)
	if st := s.Get("/api/status/"); st.Field("index.status") != "ok" {
		t.Errorf("status after space returned: %s", st.Body)
	}
}

// Files an earlier Trove recorded as failed because the index could not be
// written are tried again by the next scan, though they did not change.
func TestFilesFailedForAStorageReasonAreRetried(t *testing.T) {
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "alpha survives", "b.txt", "beta survives")
	s := testserver.Start(t)
	s.IndexDir(root, 2)
	s.Stop()
	st, err := store.Open(s.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "a.txt")
	info, _ := os.Stat(p)
	dirs, _ := st.Directories(t.Context())
	_, err = st.PutFailed(t.Context(), core.File{DirID: dirs[0].ID, Path: p, Filename: "a.txt", Extension: ".txt",
		Size: info.Size(), Modified: info.ModTime(), Created: info.ModTime(), Accessed: info.ModTime(),
		Error: "record failure of " + p + ": disk I/O error", IndexedAt: time.Now()})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	s2 := s.Restart()
	waitIndexed(t, s2, p, "alpha")
	s2.WaitIdle(root, 2)
	if f := s2.Folder(root); f["failed_count"] != float64(0) {
		t.Fatalf("folder after restart: %v", f)
	}
}
