package api_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

func TestUpdatesStream(t *testing.T) {
	s := testserver.Start(t)
	s.Do("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0})
	root := t.TempDir()
	s.IndexDir(root, 0)
	st := s.Subscribe("heartbeat=1")
	// A new client starts in sync: the queue and every folder.
	st.WaitFor(t, "queue.status", 5*time.Second, nil)
	st.WaitFor(t, "folder.status", 5*time.Second, func(e testserver.Event) bool { return e.Payload()["path"] == root })
	p := filepath.Join(root, "news.txt")
	if err := os.WriteFile(p, []byte("fresh news"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := st.WaitFor(t, "file.indexed", 10*time.Second, func(e testserver.Event) bool { return e.Payload()["path"] == p })
	if e.ID == "" || e.Data["time"] == nil {
		t.Fatalf("event lacks id or time: %+v", e)
	}
	st.WaitFor(t, "scan.progress", 10*time.Second, nil)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	st.WaitFor(t, "file.removed", 10*time.Second, func(e testserver.Event) bool { return e.Payload()["path"] == p })
	testserver.Eventually(t, 5*time.Second, "a heartbeat", func() bool { return st.Comments() > 0 })
}

func TestUpdatesTypeFilterAndBadParameter(t *testing.T) {
	s := testserver.Start(t)
	st := s.Subscribe("types=file.indexed")
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "a")
	s.IndexDir(root, 1)
	st.WaitFor(t, "file.indexed", 10*time.Second, nil)
	if n := len(st.Events("")) - len(st.Events("file.indexed")); n != 0 {
		t.Fatalf("%d events of other kinds passed the filter", n)
	}
	if r := s.Get("/api/updates?heartbeat=0"); r.Status != 400 || r.Field("error.code") != "INVALID_PARAMETER" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}

// An unknown kind in types is a mistake to say, not a filter that lets no
// event through: 400 naming the parameter and the kinds there are.
func TestUpdatesRefuseUnknownTypes(t *testing.T) {
	s := testserver.Start(t)
	for _, q := range []string{"types=nope", "types=file.indexed,nope", "types=File.Indexed", "types=resync"} {
		r := s.Raw("GET", "/api/updates?"+q)
		msg, _ := r.Field("error.message").(string)
		if r.Status != 400 || r.Field("error.code") != "INVALID_PARAMETER" || r.Field("error.field") != "types" ||
			!strings.Contains(msg, "file.indexed") || !strings.Contains(msg, "embedding.status") {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := s.Raw("GET", "/api/updates?types=queue.status,+folder.status,"); r.Status != 200 || r.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("known kinds: %d %s", r.Status, r.Body)
	}
}

func TestUpdatesEndOnShutdown(t *testing.T) {
	s := testserver.Start(t)
	st := s.Subscribe("")
	st.WaitFor(t, "queue.status", 5*time.Second, nil)
	s.Stop()
	testserver.Eventually(t, 10*time.Second, "the stream to end", st.Closed)
}
