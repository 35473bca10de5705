package daemon_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"trove/backend/store"
	"trove/internal/testserver"
)

var notes = []string{
	"garden/roses.txt", "Pruning roses in early spring keeps the shrubs healthy.",
	"garden/tomatoes.txt", "Tomatoes need sun, water and a stake to climb.",
	"house/roof.txt", "The roofer replaced the shingles after the storm.",
	"house/boiler.md", "# Boiler\n\nService the boiler before winter; check the pressure.",
	"trips/lisbon.txt", "Lisbon trip: trams, pastries and the castle at sunset.",
	"trips/alps.txt", "Alps hike: pack boots, water and a map of the trails.",
}

var queries = []string{"roses", "water", "shingles storm", "boiler pressure", "lisbon castle", "trails"}

// results maps each query to the paths it finds, sorted.
func results(t *testing.T, s *testserver.Server) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, q := range queries {
		r := s.Do("POST", "/api/search/", map[string]any{"query": q})
		if r.Status != 200 {
			t.Fatalf("search %q: %d %s", q, r.Status, r.Body)
		}
		var paths []string
		for _, x := range r.Field("results").([]any) {
			paths = append(paths, x.(map[string]any)["file"].(map[string]any)["file_path"].(string))
		}
		sort.Strings(paths)
		out[q] = paths
	}
	return out
}

// corruptFullText tears a leaf page of the content index: the page's
// stated size (bytes 2-3 of an FTS5 leaf) is overwritten in the database
// file itself, as a bad sector or a torn write would leave it. The b-tree
// around it stays valid, so quick_check alone cannot see it.
func corruptFullText(t *testing.T, dataDir string) {
	t.Helper()
	path := filepath.Join(dataDir, store.FileName)
	db, err := driver.Open("file:"+path, func(c *sqlite3.Conn) error { return fts5.Register(c) })
	if err != nil {
		t.Fatal(err)
	}
	// One segment, so that every search reads the torn page.
	if _, err := db.Exec(`INSERT INTO fts_content(fts_content) VALUES('optimize')`); err != nil {
		t.Fatal(err)
	}
	var block []byte
	if err := db.QueryRow(`SELECT block FROM fts_content_data WHERE id > 10 ORDER BY length(block) DESC LIMIT 1`).Scan(&block); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(raw, block)
	if at < 0 || len(block) < 64 || bytes.Count(raw, block) != 1 {
		t.Fatalf("the leaf page (%d bytes) is not stored once, whole, in the file", len(block))
	}
	raw[at+2], raw[at+3] = 0xff, 0xff
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedIndexIsReportedAndRebuiltFromTheFiles(t *testing.T) {
	root := t.TempDir()
	testserver.WriteFiles(t, root, notes...)
	s := testserver.Start(t)
	s.IndexDir(root, len(notes)/2)
	before := results(t, s)
	if len(before["water"]) != 2 {
		t.Fatalf("before: %v", before)
	}
	s.Stop()
	corruptFullText(t, s.DataDir)

	s2 := s.Restart()
	testserver.Eventually(t, 30*time.Second, "the integrity check to report the damage", func() bool {
		return s2.Get("/api/status/").Field("index.status") == "damaged"
	})
	if msg, _ := s2.Get("/api/status/").Field("index.message").(string); !strings.Contains(msg, "rebuild") {
		t.Errorf("the status must offer the rebuild: %q", msg)
	}
	r := s2.Do("POST", "/api/search/", map[string]any{"query": "water"})
	if r.Status != 503 || r.Field("error.code") != "INDEX_DAMAGED" {
		t.Fatalf("search over the damaged index: %d %s", r.Status, r.Body)
	}
	if r := s2.Get("/api/search/stream?query=roses"); r.Status != 503 || r.Field("error.code") != "INDEX_DAMAGED" {
		t.Fatalf("stream search over the damaged index: %d %s", r.Status, r.Body)
	}

	rb := s2.Do("POST", "/api/index/rebuild", nil)
	if rb.Status != 202 || rb.Field("data.folders") != float64(1) {
		t.Fatalf("rebuild: %d %s", rb.Status, rb.Body)
	}
	s2.WaitIdle(root, len(notes)/2)
	if st := s2.Get("/api/status/"); st.Field("index.status") != "ok" {
		t.Fatalf("status after the rebuild: %s", st.Body)
	}
	if after := results(t, s2); !reflect.DeepEqual(after, before) {
		t.Fatalf("search after the rebuild differs:\nbefore %v\nafter  %v", before, after)
	}
	// The watched folder kept its job id.
	if jobs := s2.Get("/api/watch/jobs"); len(jobs.Field("jobs").([]any)) != 1 {
		t.Fatalf("jobs after the rebuild: %s", jobs.Body)
	}
}

func TestEmptyIndexFileRestoresTheWatchedFolders(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	testserver.WriteFiles(t, a, notes[:4]...)
	testserver.WriteFiles(t, b, notes[4:]...)
	s := testserver.Start(t)
	s.IndexDir(a, 2)
	s.IndexDir(b, 4)
	s.Stop()
	if err := os.Truncate(filepath.Join(s.DataDir, store.FileName), 0); err != nil {
		t.Fatal(err)
	}
	s2 := s.Restart()
	testserver.Eventually(t, 30*time.Second, "both folders back", func() bool {
		return s2.Folder(a) != nil && s2.Folder(b) != nil
	})
	s2.WaitIdle(a, 2)
	s2.WaitIdle(b, 4)
	st := s2.Get("/api/status/")
	if notice, _ := st.Field("index.notice").(string); !strings.Contains(notice, "restored") || !strings.Contains(notice, "2 watched folders") {
		t.Fatalf("the status must say the folders were restored: %s", st.Body)
	}
	if r := s2.Do("POST", "/api/search/", map[string]any{"query": "lisbon"}); len(r.Field("results").([]any)) != 1 {
		t.Fatalf("search after the restore: %s", r.Body)
	}
}
