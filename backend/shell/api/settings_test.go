package api_test

import (
	"strings"
	"testing"

	"trove/internal/testserver"
)

func TestSettingsGetHasSections(t *testing.T) {
	s := testserver.Start(t)
	r := s.Get("/api/settings/")
	if r.Status != 200 {
		t.Fatalf("status %d", r.Status)
	}
	for _, sec := range []string{"summarizer", "queue", "scheduler", "embedding"} {
		if _, ok := r.JSON[sec].(map[string]any); !ok {
			t.Errorf("section %q missing: %s", sec, r.Body)
		}
	}
	if r.Field("queue.max_concurrency") == nil || r.Field("scheduler.combine_mode") != "ALL" {
		t.Fatalf("body %s", r.Body)
	}
}

func TestSettingsDefaults(t *testing.T) {
	s := testserver.Start(t)
	s.Do("PUT", "/api/settings/", map[string]any{"queue.max_retries": 9})
	r := s.Get("/api/settings/defaults")
	if r.Status != 200 || r.Field("queue.max_retries") != float64(3) {
		t.Fatalf("defaults: %d %s", r.Status, r.Body)
	}
}

func TestSettingsPartialUpdatePersistsAcrossRestart(t *testing.T) {
	s := testserver.Start(t)
	r := s.Do("PUT", "/api/settings/", map[string]any{
		"queue.cooldown_seconds": 7.5, "queue.max_concurrency": 4,
		"scheduler.rules": []any{map[string]any{"type": "time_window", "start": "22:00", "end": "06:30"}},
	})
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if r.Field("queue.cooldown_seconds") != 7.5 || r.Field("queue.max_retries") != float64(3) || r.Field("summarizer.provider") != "builtin" {
		t.Fatalf("want the full object after update, got %s", r.Body)
	}
	s2 := s.Restart()
	r = s2.Get("/api/settings/")
	rules, _ := r.Field("scheduler.rules").([]any)
	if r.Field("queue.cooldown_seconds") != 7.5 || r.Field("queue.max_concurrency") != float64(4) || len(rules) != 1 {
		t.Fatalf("after restart: %s", r.Body)
	}
}

func TestSettingsValidation(t *testing.T) {
	s := testserver.Start(t)
	cases := []struct {
		body any
		key  string
	}{
		{map[string]any{"queue.cooldown_seconds": -1}, "queue.cooldown_seconds"},
		{map[string]any{"queue.max_concurrency": 0}, "queue.max_concurrency"},
		{map[string]any{"queue.max_retries": -2}, "queue.max_retries"},
		{map[string]any{"queue.max_retries": "3"}, "queue.max_retries"},
		{map[string]any{"scheduler.combine_mode": "MOST"}, "scheduler.combine_mode"},
		{map[string]any{"scheduler.rules": []any{map[string]any{"type": "cpu_below", "percent": 150}}}, "scheduler.rules[0].percent"},
		{map[string]any{"scheduler.rules": []any{map[string]any{"type": "time_window", "start": "7pm", "end": "08:00"}}}, "scheduler.rules[0].start"},
		{map[string]any{"scheduler.rules": "nightly"}, "scheduler.rules"},
		{map[string]any{"queue.unknown": 1}, "queue.unknown"},
		{map[string]any{"gpu.enabled": true}, "gpu.enabled"},
		{map[string]any{"queue.max_retries": 5, "queue.max_concurrency": -1}, "queue.max_concurrency"},
	}
	before := s.Get("/api/settings/").Body
	for _, c := range cases {
		r := s.Do("PUT", "/api/settings/", c.body)
		if r.Status != 400 || r.Field("status") != "error" {
			t.Errorf("%v: status %d body %s", c.body, r.Status, r.Body)
			continue
		}
		msg, _ := r.Field("error.message").(string)
		if !strings.Contains(msg, c.key) || r.Field("error.field") != c.key {
			t.Errorf("%v: message %q does not name %q", c.body, msg, c.key)
		}
	}
	if after := s.Get("/api/settings/").Body; string(after) != string(before) {
		t.Fatalf("rejected updates changed settings:\n%s\n%s", before, after)
	}
}

func TestSettingsBadBodies(t *testing.T) {
	s := testserver.Start(t)
	for _, body := range []string{`{"queue.max_retries": `, `[1, 2]`, `"x"`, `{}`, ``, `{"queue.max_retries": 1} trailing`, `null`} {
		r := s.Do("PUT", "/api/settings/", body)
		if r.Status != 400 || r.Field("error.code") == nil {
			t.Errorf("body %q: status %d %s", body, r.Status, r.Body)
		}
	}
}

// A number too large for its setting is a 400 INVALID_NUMBER naming the
// setting, as in every other JSON body, and changes nothing.
func TestSettingsNumberOutOfRange(t *testing.T) {
	s := testserver.Start(t)
	before := s.Get("/api/settings/").Body
	for body, key := range map[string]string{
		`{"queue.cooldown_seconds": 1e999}`:                              "queue.cooldown_seconds",
		`{"queue.max_retries": 1e999}`:                                   "queue.max_retries",
		`{"scheduler.rules": [{"type": "cpu_below", "percent": 1e999}]}`: "scheduler.rules[0].percent",
	} {
		r := s.Do("PUT", "/api/settings/", body)
		msg, _ := r.Field("error.message").(string)
		if r.Status != 400 || r.Field("error.code") != "INVALID_NUMBER" || r.Field("error.field") != key || !strings.Contains(msg, key) {
			t.Errorf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	if after := s.Get("/api/settings/").Body; string(after) != string(before) {
		t.Fatalf("refused updates changed settings:\n%s\n%s", before, after)
	}
}
