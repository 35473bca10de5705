package api_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"trove/internal/testserver"
)

func TestQueueEndpoints(t *testing.T) {
	s := testserver.Start(t)
	st := s.Get("/api/queue/status")
	for _, k := range []string{"paused", "paused_manually", "paused_by_scheduler", "total", "cooling_down", "ready", "processing"} {
		if _, ok := st.JSON[k]; !ok {
			t.Errorf("queue status lacks %q: %s", k, st.Body)
		}
	}
	root := t.TempDir()
	s.IndexDir(root, 0)
	s.Do("POST", "/api/queue/pause", nil)
	s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 60})
	p := filepath.Join(root, "later.txt")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var item map[string]any
	testserver.Eventually(t, 10*time.Second, "the item to be queued", func() bool {
		list, _ := s.Get("/api/queue/items").Field("items").([]any)
		if len(list) == 1 {
			item = list[0].(map[string]any)
		}
		return item != nil
	})
	if item["file_path"] != p || item["action"] != "index" || item["status"] != "cooling_down" || item["dest_path"] != nil || item["retry_count"] != float64(0) {
		t.Fatalf("item %v", item)
	}
	enq, _ := item["enqueued_at"].(float64)
	exp, _ := item["cooldown_expires_at"].(float64)
	if exp-enq < 59 || exp-enq > 61 || float64(time.Now().Unix())-enq > 30 {
		t.Fatalf("times: enqueued %v expires %v", enq, exp)
	}
	items := s.Get("/api/queue/items?limit=1&offset=0")
	if items.Field("total") != float64(1) {
		t.Fatalf("items %s", items.Body)
	}
	id := item["id"].(string)
	if r := s.Do("DELETE", "/api/queue/items/"+id, nil); r.Status != 200 || r.Field("success") != true {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := s.Do("DELETE", "/api/queue/items/"+id, nil); r.Status != 404 || r.Field("success") != false || r.Field("id") != id {
		t.Fatalf("delete again: %d %s", r.Status, r.Body)
	}
	if r := s.Get("/api/queue/items?limit=x"); r.Status != 400 || r.Field("error.code") != "INVALID_PARAMETER" {
		t.Fatalf("bad limit: %d %s", r.Status, r.Body)
	}
}
