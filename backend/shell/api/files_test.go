package api_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"trove/internal/testserver"
)

var naiveTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`)

func TestFileLookup(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "Reports/Q3-quarterly_report.txt", "Revenue grew in the third quarter.")
	s.IndexDir(root, 1)
	id := s.FileID(root + "/Reports/Q3-quarterly_report.txt")
	r := s.Get(fmt.Sprintf("/api/files/%d", id))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r.Field("id") != float64(id) || r.Field("filename") != "Q3-quarterly_report.txt" || r.Field("extension") != ".txt" {
		t.Fatalf("record %s", r.Body)
	}
	for _, k := range []string{"created", "modified"} {
		if v, _ := r.Field(k).(string); !naiveTime.MatchString(v) {
			t.Errorf("%s = %q, want a timestamp without zone suffix", k, v)
		}
	}
	if _, ok := r.JSON["keywords"]; !ok {
		t.Errorf("keywords missing: %s", r.Body)
	}
	if sum, _ := r.JSON["summary"].(string); !strings.Contains(sum, "third quarter") {
		t.Errorf("summary %q", sum)
	}
}

func TestFileLookupErrors(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/files/999")
	if msg, _ := r.Field("error").(string); r.Status != 404 || msg == "" {
		t.Fatalf("absent: %d %s", r.Status, r.Body)
	}
	for _, bad := range []string{"abc", "1.5", "-3", "0", "99999999999999999999999"} {
		r := s.Get("/api/files/" + bad)
		if msg, _ := r.Field("error").(string); r.Status != 400 || msg == "" {
			t.Errorf("%q: %d %s", bad, r.Status, r.Body)
		}
	}
}

func TestFileStats(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/files/stats")
	if r.Status != 200 || r.Field("total_files") != float64(0) || r.Field("last_indexed") != nil {
		t.Fatalf("empty: %s", r.Body)
	}
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "alpha", "b.txt", "beta", "c.md", "# gamma")
	s.IndexDir(root, 3)
	r = s.Get("/api/files/stats")
	types, _ := r.Field("file_types").(map[string]any)
	if r.Field("total_files") != float64(3) || types[".txt"] != float64(2) || types[".md"] != float64(1) {
		t.Fatalf("stats: %s", r.Body)
	}
	if size, _ := r.Field("total_size").(float64); size != float64(len("alpha")+len("beta")+len("# gamma")) {
		t.Fatalf("total_size = %v, want the real sum", size)
	}
	if v, _ := r.Field("last_indexed").(string); !naiveTime.MatchString(v) {
		t.Fatalf("last_indexed = %v", r.Field("last_indexed"))
	}
}

func TestStatus(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/status/")
	if r.Status != 200 || r.Field("jobs") != float64(0) {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	s.Watch(t.TempDir())
	if r := s.Get("/api/status/"); r.Field("jobs") != float64(1) {
		t.Fatalf("jobs after adding a folder: %s", r.Body)
	}
}
