package daemon_test

import (
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"trove/internal/hangfs"
	"trove/internal/testserver"
)

// Removing a queue item, or its folder, while its worker is inside a read
// that hangs frees the worker at once: the only CPU slot goes to the next
// file, which is indexed long before the hour-long time limit.
func TestRemovingAStuckItemFreesItsWorker(t *testing.T) {
	for _, how := range []string{"item", "folder"} {
		t.Run("remove the "+how, func(t *testing.T) {
			h := hangfs.Mount(t)
			dead := h.AddHanging("report.pdf", 64<<10)
			// The read stays in the kernel after its item is removed, in a
			// goroutine of its own, until the mount answers (fileread).
			s := testserver.Start(t, testserver.WithStuckReads())
			s.Do("PUT", "/api/settings/", map[string]any{"queue.max_concurrency": 1, "extraction.timeout_seconds": 3600, "queue.cooldown_seconds": 0})
			job := s.Watch(h.Dir)
			select {
			case <-dead.Reads(): // the one CPU slot is held inside the read
			case <-time.After(30 * time.Second):
				t.Fatal("no worker reached the file")
			}
			other := t.TempDir()
			s.Watch(other)
			good := filepath.Join(other, "garden.txt")
			testserver.WriteFiles(t, other, "garden.txt", "zucchini and beans")

			stuck := filepath.Join(h.Dir, "report.pdf")
			switch how {
			case "item":
				id := itemID(t, s, stuck)
				if r := s.Do("DELETE", "/api/queue/items/"+id, nil); r.Status != 200 {
					t.Fatalf("remove item: %d %s", r.Status, r.Body)
				}
			case "folder":
				if r := s.Do("DELETE", fmt.Sprintf("/api/watch/jobs/%d", job), nil); r.Status != 200 {
					t.Fatalf("remove folder: %d %s", r.Status, r.Body)
				}
			}
			testserver.Eventually(t, 15*time.Second, "the next file to be indexed", func() bool {
				return s.Get("/api/files/lookup?path="+url.QueryEscape(good)).Field("status") == "indexed"
			})
		})
	}
}

// itemID finds the queue item of path.
func itemID(t *testing.T, s *testserver.Server, path string) string {
	t.Helper()
	list, _ := s.Get("/api/queue/items").Field("items").([]any)
	for _, x := range list {
		if m, _ := x.(map[string]any); m["file_path"] == path {
			id, _ := m["id"].(string)
			return id
		}
	}
	t.Fatalf("%s is not queued: %v", path, list)
	return ""
}
