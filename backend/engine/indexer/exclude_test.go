package indexer_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"trove/backend/engine/scan"
	"trove/internal/testserver"
)

// The default layout puts the data dir (~/.local/share/trove) and the
// config dir (~/.config/trove) inside a watched home. Trove must never
// queue or index a file of its own: the index's WAL changes with every
// write, so it would cycle through the queue for ever.
func TestOwnDataAndConfigDirsAreNeverQueuedOrIndexed(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, ".local", "share", "trove")
	conf := filepath.Join(home, ".config", "trove")
	testserver.WriteFiles(t, home, "notes/a.txt", "alpha notes", "notes/b.txt", "beta notes")
	s := testserver.Start(t, testserver.WithDirs(data, conf))
	// A settings change writes settings.json in the watched tree.
	if r := s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0.3}); r.Status != 200 {
		t.Fatalf("settings: %d %s", r.Status, r.Body)
	}
	ours := func(p string) bool { return scan.Within(data, p) || scan.Within(conf, p) }

	var mu sync.Mutex
	var queued []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			var page struct {
				Items []struct {
					FilePath string `json:"file_path"`
				} `json:"items"`
			}
			if resp, err := http.Get(s.URL + "/api/queue/items"); err == nil {
				json.NewDecoder(resp.Body).Decode(&page)
				resp.Body.Close()
			}
			for _, it := range page.Items {
				if p := it.FilePath; ours(p) {
					mu.Lock()
					queued = append(queued, p)
					mu.Unlock()
				}
			}
			time.Sleep(5 * time.Millisecond) // sampling rate, not synchronisation
		}
	}()

	t.Cleanup(func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	})
	s.Watch(home)
	// Indexing writes the index; more files make more writes.
	for i := range 20 {
		testserver.WriteFiles(t, home, fmt.Sprintf("notes/new-%02d.txt", i), fmt.Sprintf("fresh note number %d", i))
	}
	s.WaitIdle(home, 22)
	close(stop)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(queued) > 0 {
		t.Fatalf("files of Trove's own directories entered the queue: %v", unique(queued))
	}
	for _, p := range []string{filepath.Join(data, "index.db"), filepath.Join(data, "index.db-wal"), filepath.Join(conf, "settings.json")} {
		if r := s.Get("/api/files/lookup?path=" + url.QueryEscape(p)); r.Status != 404 {
			t.Errorf("%s is in the index: %d %s", p, r.Status, r.Body)
		}
	}
	if st := s.Get("/api/files/stats"); st.Field("total_files") != float64(22) {
		t.Fatalf("indexed %v files, want the 22 notes: %s", st.Field("total_files"), st.Body)
	}
	// Nor can Trove's own folder be watched on its own.
	if r := s.Do("POST", "/api/watch/directory", map[string]any{"path": data}); r.Status != 400 || r.Field("error.code") != "INVALID_PATH" {
		t.Fatalf("watching the data dir: %d %s", r.Status, r.Body)
	}
}

func unique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
