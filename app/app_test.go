package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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

// The window's requests for /api go to the API's own handler in process;
// everything else is the UI's.
func TestTheWindowsAPIRequestsGoInProcess(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("tok-window"))
	var log bytes.Buffer
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ui:"+r.URL.Path) })
	h := apiInProcess(s.API.Window(), slog.New(slog.NewTextHandler(&log, nil)))(ui)
	get := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "wails://wails"+path, nil)
		r.Host = "wails"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, p := range []string{"/", "/index.html", "/apis", "/assets/api/x.js"} {
		if w := get(p); w.Body.String() != "ui:"+p {
			t.Errorf("%s went to %q, not the UI", p, w.Body)
		}
	}
	w := get("/api/queue/status")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"paused"`) {
		t.Fatalf("/api/queue/status: %d %s", w.Code, w.Body)
	}
	if w := get("/api"); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"code":"NOT_FOUND"`) {
		t.Errorf("/api: %d %s, want the API's 404", w.Code, w.Body)
	}
	get("/api/status/")
	if n := strings.Count(log.String(), "reaches the API in process"); n != 1 {
		t.Errorf("logged the window's first GET %d times", n)
	}
}
