package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"trove/backend/shell/views"
	"trove/internal/testserver"
)

// Every list comes in pages: without limit, a default page; a larger limit
// than the largest page is reduced to it; total counts the whole list.
func TestQueueItemsArePaged(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	s.IndexDir(root, 0)
	s.Do("POST", "/api/queue/pause", nil)
	n := views.MaxQueueItems + 50
	for i := range n {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.txt", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testserver.Eventually(t, 30*time.Second, "the files to be queued", func() bool {
		return s.Get("/api/queue/status").Field("total") == float64(n)
	})
	for _, tc := range []struct {
		query         string
		items, offset int
		limit         int
	}{
		{"", views.DefaultQueueItems, 0, views.DefaultQueueItems},
		{"?limit=0", views.DefaultQueueItems, 0, views.DefaultQueueItems},
		{"?limit=100000", views.MaxQueueItems, 0, views.MaxQueueItems},
		{"?offset=1000&limit=100", 50, 1000, 100},
		{"?offset=5000", 0, 5000, views.DefaultQueueItems},
	} {
		r := s.Get("/api/queue/items" + tc.query)
		list, _ := r.Field("items").([]any)
		if r.Status != 200 || len(list) != tc.items || r.Field("total") != float64(n) || r.Field("offset") != float64(tc.offset) || r.Field("limit") != float64(tc.limit) {
			t.Errorf("%q: %d, %d items, total %v offset %v limit %v", tc.query, r.Status, len(list), r.Field("total"), r.Field("offset"), r.Field("limit"))
		}
	}
	for _, q := range []string{"?limit=-1", "?offset=-1", "?limit=1.5"} {
		if r := s.Get("/api/queue/items" + q); r.Status != 400 || r.Field("error.code") != "INVALID_PARAMETER" {
			t.Errorf("%q: %d %s", q, r.Status, r.Body)
		}
	}
}

func TestFolderListsArePaged(t *testing.T) {
	s := testserver.Start(t)
	for range 3 {
		s.Watch(t.TempDir())
	}
	r := s.Get("/api/watched-directories?limit=2")
	dirs, _ := r.Field("data.directories").([]any)
	if len(dirs) != 2 || r.Field("data.total_directories") != float64(3) || r.Field("data.limit") != float64(2) {
		t.Fatalf("%s", r.Body)
	}
	r = s.Get("/api/watched-directories?offset=2")
	if dirs, _ := r.Field("data.directories").([]any); len(dirs) != 1 || r.Field("data.limit") != float64(views.DefaultFolders) {
		t.Fatalf("%s", r.Body)
	}
	r = s.Get("/api/watch/jobs?offset=1&limit=1")
	if jobs, _ := r.Field("jobs").([]any); len(jobs) != 1 || r.Field("total") != float64(3) || r.Field("offset") != float64(1) {
		t.Fatalf("%s", r.Body)
	}
	if r := s.Get("/api/watch/jobs?limit=999999"); r.Field("limit") != float64(views.MaxFolders) {
		t.Fatalf("%s", r.Body)
	}
	if r := s.Get("/api/watch/jobs?limit=-3"); r.Status != 400 || r.Field("success") != false || r.Field("code") != "INVALID_PARAMETER" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}
