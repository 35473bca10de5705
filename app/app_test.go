package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"trove/backend/shell/views"
	"trove/internal/testserver"
)

// fakeWindow stands in for the Wails window (it needs a display).
type fakeWindow struct {
	hidden int
	picked string
}

func (w *fakeWindow) Hide()                       { w.hidden++ }
func (w *fakeWindow) PickFolder() (string, error) { return w.picked, nil }

func start(t *testing.T) (*testserver.Server, *App, *fakeWindow) {
	t.Helper()
	s := testserver.Start(t)
	win := &fakeWindow{picked: "/home/someone/notes"}
	return s, New(s.Service, slog.New(slog.NewTextHandler(io.Discard, nil)), win), win
}

// sameJSON fails unless the binding's answer and the API's JSON are equal.
func sameJSON(t *testing.T, what string, binding any, api []byte) {
	t.Helper()
	b, err := json.Marshal(binding)
	if err != nil {
		t.Fatal(err)
	}
	var x, y any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(api, &y); err != nil {
		t.Fatalf("%s: API answered %s", what, api)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("%s differs:\n binding %s\n api     %s", what, b, api)
	}
}

// data is the "data" member of a status-family API answer.
func data(t *testing.T, r testserver.Response) []byte {
	t.Helper()
	var env struct{ Data json.RawMessage }
	if err := json.Unmarshal(r.Body, &env); err != nil || env.Data == nil {
		t.Fatalf("no data in %s", r.Body)
	}
	return env.Data
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestBindingsAnswerAsTheAPIDoes(t *testing.T) {
	s, a, _ := start(t)
	dir := t.TempDir()
	testserver.WriteFiles(t, dir,
		"roof.md", "# Roof\nThe roof leak over the attic was patched in March.",
		"budget.txt", "Budget for 2024: groceries, rent and the roof repair.")

	w, err := a.Watch(raw(`{"path": ` + quote(dir) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if w.FilesFound != 2 || w.JobID == 0 || !w.IndexingStarted {
		t.Fatalf("watch answered %+v", w)
	}
	s.WaitIdle(dir, 2)

	folders, err := a.Folders()
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "folders", folders, data(t, s.Get("/api/watched-directories")))

	res, err := a.Search(raw(`{"query": "roof leak", "limit": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].File.Filename != "roof.md" {
		t.Fatalf("search answered %+v", res)
	}
	sameJSON(t, "search", res, s.Do("POST", "/api/search/", map[string]any{"query": "roof leak", "limit": 5}).Body)

	file, err := a.File(res.Results[0].File.ID)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "file", file, s.Get("/api/files/"+itoa(file.ID)).Body)

	stats, err := a.Stats()
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "stats", stats, s.Get("/api/files/stats").Body)
	sameJSON(t, "settings", must(a.Settings()), s.Get("/api/settings/").Body)
	sameJSON(t, "settings defaults", must(a.SettingsDefaults()), s.Get("/api/settings/defaults").Body)
	sameJSON(t, "filters", must(a.Filters()), s.Get("/api/filters/config").Body)
	sameJSON(t, "filter defaults", must(a.FilterDefaults()), s.Get("/api/filters/defaults").Body)
	sameJSON(t, "queue status", must(a.QueueStatus()), s.Get("/api/queue/status").Body)

	problems, err := a.Problems(w.JobID, 10)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "problems", problems, data(t, s.Get("/api/watched-directories/"+itoa(w.JobID)+"/problems?limit=10")))

	if err := a.Unwatch(w.JobID); err != nil {
		t.Fatal(err)
	}
	if n := s.Get("/api/files/stats").Field("total_files"); n != 0.0 {
		t.Errorf("after unwatch the index still holds %v files", n)
	}
}

func TestBindingsChangeStateLikeTheAPI(t *testing.T) {
	s, a, win := start(t)

	if q := must(a.PauseQueue()); !q.Paused || !q.PausedManually {
		t.Fatalf("pause answered %+v", q)
	}
	if s.Get("/api/queue/status").Field("paused_manually") != true {
		t.Error("the API does not see the pause")
	}
	if q := must(a.ResumeQueue()); q.Paused {
		t.Fatalf("resume answered %+v", q)
	}

	cur, err := a.UpdateSettings(raw(`{"queue.max_retries": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	if cur.Queue.MaxRetries != 5 || s.Get("/api/settings/").Field("queue.max_retries") != 5.0 {
		t.Errorf("max_retries not 5: binding %d, API %v", cur.Queue.MaxRetries, s.Get("/api/settings/").Field("queue.max_retries"))
	}

	ch, err := a.AddPattern(raw(`{"pattern": "**/*.bak", "pattern_type": "exclude"}`))
	if err != nil || !ch.Success {
		t.Fatalf("add pattern: %+v %v", ch, err)
	}
	if _, err := a.RemovePattern(raw(`{"pattern": "**/*.bak", "pattern_type": "exclude"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateFilters(raw(`{"mode": "whitelist", "apply_immediately": false}`)); err != nil {
		t.Fatal(err)
	}
	if s.Get("/api/filters/config").Field("mode") != "whitelist" {
		t.Error("the API does not see the filter mode change")
	}
	if _, err := a.ApplyFilters(); err != nil {
		t.Fatal(err)
	}
	if ch, err := a.ResetFilters(); err != nil || ch.Config.Mode != "blacklist" {
		t.Fatalf("reset: %+v %v", ch.Config.Mode, err)
	}

	snap := must(a.Snapshot())
	if len(snap) == 0 || snap[0].Type != "queue.status" {
		t.Errorf("snapshot starts with %+v, want queue.status", snap)
	}
	if p, _ := a.PickFolder(); p != "/home/someone/notes" {
		t.Errorf("PickFolder = %q", p)
	}
	a.HideWindow()
	if win.hidden != 1 {
		t.Errorf("HideWindow hid the window %d times", win.hidden)
	}
}

// Errors reach the window as the API's status, code, message and field.
func TestBindingErrorsMatchTheAPI(t *testing.T) {
	s, a, _ := start(t)
	cases := []struct {
		name string
		call func() error
		api  testserver.Response
	}{
		{"bad setting", func() error { _, err := a.UpdateSettings(raw(`{"queue.max_concurrency": 0}`)); return err },
			s.Do("PUT", "/api/settings/", `{"queue.max_concurrency": 0}`)},
		{"unknown setting", func() error { _, err := a.UpdateSettings(raw(`{"queue.nope": 1}`)); return err },
			s.Do("PUT", "/api/settings/", `{"queue.nope": 1}`)},
		{"relative path", func() error { _, err := a.Watch(raw(`{"path": "notes"}`)); return err },
			s.Do("POST", "/api/watch/directory", `{"path": "notes"}`)},
		{"bad limit", func() error { _, err := a.Search(raw(`{"query": "roof", "limit": -1}`)); return err },
			s.Do("POST", "/api/search/", `{"query": "roof", "limit": -1}`)},
		{"unknown field", func() error { _, err := a.Search(raw(`{"query": "roof", "bogus": 1}`)); return err },
			s.Do("POST", "/api/search/", `{"query": "roof", "bogus": 1}`)},
		{"bad glob", func() error { _, err := a.AddPattern(raw(`{"pattern": "a[", "pattern_type": "exclude"}`)); return err },
			s.Do("POST", "/api/filters/pattern", `{"pattern": "a[", "pattern_type": "exclude"}`)},
		{"no such file", func() error { _, err := a.File(987654); return err }, s.Get("/api/files/987654")},
		{"no such job", func() error { return a.Unwatch(987654) }, s.Do("DELETE", "/api/watch/jobs/987654", nil)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil {
				t.Fatal("no error")
			}
			info, ok := a.formatError(err).(views.ErrorInfo)
			if !ok {
				t.Fatalf("formatError gave %T", a.formatError(err))
			}
			if info.Status != c.api.Status {
				t.Errorf("status %d, the API says %d (%s)", info.Status, c.api.Status, c.api.Body)
			}
			if msg := apiMessage(c.api); msg != "" && msg != info.Message {
				t.Errorf("message %q, the API says %q", info.Message, msg)
			}
			if code := c.api.Field("error.code"); code != nil && code != info.Code {
				t.Errorf("code %q, the API says %v", info.Code, code)
			}
			if field := c.api.Field("error.field"); field != nil && field != info.Field {
				t.Errorf("field %q, the API says %v", info.Field, field)
			}
		})
	}
}

// apiMessage is the message of an error body of any family.
func apiMessage(r testserver.Response) string {
	for _, k := range []string{"error.message", "message", "error"} {
		if s, ok := r.Field(k).(string); ok {
			return s
		}
	}
	return ""
}

func TestInternalErrorsKeepTheirDetailInTheLog(t *testing.T) {
	var log bytes.Buffer
	a := New(nil, slog.New(slog.NewTextHandler(&log, nil)), nil)
	info := a.formatError(errors.New("disk I/O error at /secret/path")).(views.ErrorInfo)
	if info.Status != 500 || info.Code != "INTERNAL" || info.Message != views.InternalMessage {
		t.Errorf("internal error shown as %+v", info)
	}
	if !strings.Contains(log.String(), "disk I/O error at /secret/path") {
		t.Errorf("the detail is not in the log: %q", log.String())
	}
}

// must is for bindings whose error is always nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Start at login and the hotkey commands, as the Settings screen uses them.
func TestLoginItemAndHotkeyBindings(t *testing.T) {
	_, a, _ := start(t)
	conf := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", conf)
	item, err := a.LoginItem()
	if err != nil || !item.Supported || item.Enabled {
		t.Fatalf("before: %+v, %v", item, err)
	}
	if item, err = a.SetLoginItem(true); err != nil || !item.Enabled || !strings.HasSuffix(item.Command, " --hidden") {
		t.Fatalf("enable: %+v, %v", item, err)
	}
	if !strings.HasPrefix(item.Path, conf+"/autostart/") {
		t.Errorf("entry at %s, not in $XDG_CONFIG_HOME/autostart", item.Path)
	}
	if item, err = a.SetLoginItem(false); err != nil || item.Enabled {
		t.Fatalf("disable: %+v, %v", item, err)
	}
	setups, err := a.HotkeySetups()
	if err != nil || len(setups) != 2 || setups[0].Desktop != "GNOME" || !strings.Contains(setups[0].Commands, " quick") {
		t.Fatalf("hotkey setups: %+v, %v", setups, err)
	}
}
