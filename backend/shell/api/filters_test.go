package api_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"trove/internal/testserver"
)

func TestFilterConfigShape(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/filters/config")
	if r.Status != 200 {
		t.Fatalf("status %d", r.Status)
	}
	for _, k := range []string{"version", "mode", "exclude", "include", "blacklist_exclude", "blacklist_include",
		"whitelist_include", "whitelist_exclude", "config_path"} {
		if _, ok := r.JSON[k]; !ok {
			t.Errorf("field %q missing", k)
		}
	}
	path, _ := r.Field("config_path").(string)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("config_path %q: %v", path, err)
	}
	if !slices.Equal(testserver.Strings(r.Field("exclude")), testserver.Strings(r.Field("blacklist_exclude"))) {
		t.Fatal("exclude must mirror blacklist_exclude in blacklist mode")
	}
}

func TestFilterModeSwitchKeepsPatterns(t *testing.T) {
	s := testserver.Start(t)
	r := s.Do("PUT", "/api/filters/config", map[string]any{
		"blacklist_exclude": []string{"*.log"}, "whitelist_include": []string{"**/*.md"}, "apply_immediately": false,
	})
	if r.Status != 200 || r.Field("success") != true {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	v1 := r.Field("config.version").(float64)
	r = s.Do("PUT", "/api/filters/config", map[string]any{"mode": "whitelist"})
	if got := testserver.Strings(r.Field("config.include")); !slices.Equal(got, []string{"**/*.md"}) {
		t.Fatalf("whitelist include = %v", got)
	}
	r = s.Do("PUT", "/api/filters/config", map[string]any{"mode": "blacklist"})
	if got := testserver.Strings(r.Field("config.exclude")); !slices.Equal(got, []string{"*.log"}) {
		t.Fatalf("blacklist exclude after round trip = %v", got)
	}
	if v := r.Field("config.version").(float64); v != v1+2 {
		t.Fatalf("version %v, want %v", v, v1+2)
	}
	r = s.Restart().Get("/api/filters/config")
	if !slices.Equal(testserver.Strings(r.Field("whitelist_include")), []string{"**/*.md"}) || r.Field("mode") != "blacklist" {
		t.Fatalf("not persisted: %s", r.Body)
	}
}

func TestFilterValidation(t *testing.T) {
	s := testserver.Start(t)
	before := s.Get("/api/filters/config").Field("version")
	for _, body := range []any{
		map[string]any{"mode": "greylist"},
		map[string]any{"blacklist_exclude": []string{"[oops"}},
		map[string]any{"whitelist_include": []string{"ok", "a{b"}},
		map[string]any{"blacklist_exclude": "*.log"},
		map[string]any{"colour": "blue"},
		`{"mode": `,
	} {
		r := s.Do("PUT", "/api/filters/config", body)
		if r.Status != 400 || r.Field("success") != false || r.Field("message") == "" {
			t.Errorf("%v: %d %s", body, r.Status, r.Body)
		}
	}
	if v := s.Get("/api/filters/config").Field("version"); v != before {
		t.Fatalf("version moved %v -> %v on rejected updates", before, v)
	}
	for _, body := range []any{map[string]any{"pattern": "[x"}, map[string]any{"pattern": "*.x", "pattern_type": "sideways"}, map[string]any{}} {
		if r := s.Do("POST", "/api/filters/pattern", body); r.Status != 400 || r.Field("success") != false {
			t.Errorf("add %v: %d %s", body, r.Status, r.Body)
		}
	}
}

func TestApplyImmediatelyRemovesNewlyExcluded(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.log", "one", "b.log", "two", "keep.txt", "three")
	s.IndexDir(root, 3)
	r := s.Do("PUT", "/api/filters/config", map[string]any{"blacklist_exclude": []string{"*.log"}})
	if r.Status != 200 || r.Field("removed_count") != float64(2) {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if n := s.Get("/api/files/stats").Field("total_files"); n != float64(1) {
		t.Fatalf("total_files = %v", n)
	}
}

func TestApplyLaterThroughApplyEndpoint(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.log", "one", "keep.txt", "two")
	s.IndexDir(root, 2)
	r := s.Do("PUT", "/api/filters/config", map[string]any{"blacklist_exclude": []string{"*.log"}, "apply_immediately": false})
	if r.Status != 200 || r.Field("removed_count") != float64(0) {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	// The filter change triggers a rescan for newly included files; it must
	// not remove the excluded one before apply.
	s.WaitIdle(root, -1)
	if n := s.Get("/api/files/stats").Field("total_files"); n != float64(2) {
		t.Fatalf("deferred removal happened early: %v", n)
	}
	r = s.Do("POST", "/api/filters/apply", nil)
	if r.Status != 200 || r.Field("removed_count") != float64(1) || r.Field("success") != true {
		t.Fatalf("apply: %d %s", r.Status, r.Body)
	}
	if n := s.Get("/api/files/stats").Field("total_files"); n != float64(1) {
		t.Fatalf("after apply total_files = %v", n)
	}
}

func TestPatternAddRemove(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "x.bak", "old", "y.txt", "new")
	s.IndexDir(root, 2)
	r := s.Do("POST", "/api/filters/pattern", map[string]any{"pattern": "*.bak", "pattern_type": "exclude"})
	msg, _ := r.Field("message").(string)
	if r.Status != 200 || r.Field("removed_count") != float64(1) || !strings.Contains(msg, "*.bak") || !strings.Contains(msg, "exclude") {
		t.Fatalf("add: %d %s", r.Status, r.Body)
	}
	r = s.Do("DELETE", "/api/filters/pattern", map[string]any{"pattern": "*.bak", "pattern_type": "exclude"})
	msg, _ = r.Field("message").(string)
	if r.Status != 200 || r.Field("success") != true || !strings.Contains(msg, "*.bak") {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	r = s.Do("DELETE", "/api/filters/pattern", map[string]any{"pattern": "*.bak", "pattern_type": "exclude"})
	if r.Status != 404 || r.Field("success") != false {
		t.Fatalf("remove absent: %d %s", r.Status, r.Body)
	}
}

func TestDefaultsAndReset(t *testing.T) {
	s := testserver.Start(t)
	d := s.Get("/api/filters/defaults")
	if d.Status != 200 || d.Field("mode") != "blacklist" || len(testserver.Strings(d.Field("blacklist_exclude"))) == 0 {
		t.Fatalf("defaults: %s", d.Body)
	}
	root := t.TempDir()
	s.Do("PUT", "/api/filters/config", map[string]any{"mode": "whitelist", "whitelist_include": []string{"**/*"}, "whitelist_exclude": []string{}})
	testserver.WriteFiles(t, root, "node_modules/x.js", "js", "notes.md", "md")
	s.IndexDir(root, 2)
	r := s.Do("POST", "/api/filters/reset", nil)
	if r.Status != 200 || r.Field("success") != true || r.Field("config.mode") != "blacklist" || r.Field("removed_count") != float64(1) {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	if !slices.Equal(testserver.Strings(r.Field("config.whitelist_include")), testserver.Strings(d.Field("whitelist_include"))) {
		t.Fatal("reset did not restore the whitelist preset")
	}
}
