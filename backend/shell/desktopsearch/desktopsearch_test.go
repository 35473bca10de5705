package desktopsearch_test

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"trove/backend/core"
	"trove/backend/shell/desktopsearch"
	"trove/internal/desktoptest"
	"trove/internal/pdftest"
	"trove/internal/testserver"
)

// desk is a real backend offering desktop search on a private session
// bus, with indexed files and an opener that records what it was asked
// to open instead of opening it.
type desk struct {
	srv    *testserver.Server
	bus    string     // the private session bus's address
	conn   *dbus.Conn // a client of the bus: the shell, KRunner
	dir    string
	opened string // the file the opener writes each argument to
}

func start(t *testing.T) *desk {
	t.Helper()
	addr := desktoptest.Bus(t)
	root := t.TempDir()
	opened := filepath.Join(root, "opened.txt")
	opener := filepath.Join(root, "opener.sh")
	if err := os.WriteFile(opener, []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '"+opened+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TROVE_OPENER", opener)
	dir := filepath.Join(root, "docs")
	testserver.WriteFiles(t, dir,
		"roof-leak-report.md", "# Roof\n\nWater came through the bedroom ceiling after the storm.",
		"notes/budget plan 2024.txt", "Groceries, rent and the new bicycle.",
		"letters/landlord.html", "<html><body><p>Dear landlord, the roof leaks again.</p></body></html>",
	)
	srv := testserver.Start(t, testserver.WithSessionBus(addr))
	srv.IndexDir(dir, 3)
	conn := desktoptest.Connect(t, addr)
	testserver.Eventually(t, 10*time.Second, desktopsearch.BusName+" on the bus", func() bool {
		var has bool
		conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, desktopsearch.BusName).Store(&has)
		return has
	})
	return &desk{srv: srv, bus: addr, conn: conn, dir: dir, opened: opened}
}

func (d *desk) gnome(method string, args ...any) *dbus.Call {
	return d.conn.Object(desktopsearch.BusName, desktopsearch.GNOMEPath).Call("org.gnome.Shell.SearchProvider2."+method, 0, args...)
}

func (d *desk) krunner(method string, args ...any) *dbus.Call {
	return d.conn.Object(desktopsearch.BusName, desktopsearch.KRunnerPath).Call("org.kde.krunner1."+method, 0, args...)
}

// openedLines waits for the opener to have been run n times, and returns
// its arguments.
func (d *desk) openedLines(t *testing.T, n int) []string {
	t.Helper()
	var lines []string
	testserver.Eventually(t, 10*time.Second, "the opener to run", func() bool {
		b, _ := os.ReadFile(d.opened)
		lines = strings.Fields(strings.TrimSpace(string(b)))
		return len(lines) >= n
	})
	return lines
}

func TestGNOMEProviderFindsAFileByName(t *testing.T) {
	d := start(t)
	roof := filepath.Join(d.dir, "roof-leak-report.md")
	want := strconv.FormatInt(d.srv.FileID(roof), 10)

	var ids []string
	if err := d.gnome("GetInitialResultSet", []string{"roof", "leak"}).Store(&ids); err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 || ids[0] != want {
		t.Fatalf("GetInitialResultSet(roof leak) = %v, want %s first", ids, want)
	}
	// Typing on: the shell refines the results it has.
	var sub []string
	if err := d.gnome("GetSubsearchResultSet", ids, []string{"budget", "pla"}).Store(&sub); err != nil {
		t.Fatal(err)
	}
	budget := strconv.FormatInt(d.srv.FileID(filepath.Join(d.dir, "notes", "budget plan 2024.txt")), 10)
	if len(sub) == 0 || sub[0] != budget {
		t.Fatalf("GetSubsearchResultSet(budget pla) = %v, want %s first", sub, budget)
	}
	// One letter asks for nothing: the shell calls on every keystroke.
	if err := d.gnome("GetInitialResultSet", []string{"r"}).Store(&sub); err != nil || len(sub) != 0 {
		t.Fatalf("GetInitialResultSet(r) = %v, %v; want nothing", sub, err)
	}

	var metas []map[string]dbus.Variant
	if err := d.gnome("GetResultMetas", []string{want, "999999"}).Store(&metas); err != nil {
		t.Fatal(err)
	}
	if len(metas) != 1 {
		t.Fatalf("GetResultMetas gave %d metas, want 1 (the unknown id left out): %v", len(metas), metas)
	}
	m := metas[0]
	str := func(k string) string { s, _ := m[k].Value().(string); return s }
	if str("id") != want || str("name") != "roof-leak-report.md" || str("description") != d.dir || str("clipboardText") != roof {
		t.Errorf("metas = %v", m)
	}
	if g := str("gicon"); !strings.HasPrefix(g, ". GThemedIcon text-markdown ") || !strings.HasSuffix(g, " text-x-generic") {
		t.Errorf("gicon = %q, want the Markdown type's icon with text-x-generic last", g)
	}

	if err := d.gnome("ActivateResult", want, []string{"roof"}, uint32(0)).Err; err != nil {
		t.Fatal(err)
	}
	if got := d.openedLines(t, 1); got[0] != roof {
		t.Errorf("ActivateResult opened %q, want %q", got[0], roof)
	}
	// Without a window, "more results" is the web interface on the query.
	if err := d.gnome("LaunchSearch", []string{"roof", "leak"}, uint32(0)).Err; err != nil {
		t.Fatal(err)
	}
	if got := d.openedLines(t, 2)[1]; got != d.srv.URL+"/?q="+url.QueryEscape("roof leak") {
		t.Errorf("LaunchSearch opened %q, want the web interface on the query", got)
	}
}

func TestGNOMEProviderRefusesAFileThatChanged(t *testing.T) {
	d := start(t)
	roof := filepath.Join(d.dir, "roof-leak-report.md")
	id := strconv.FormatInt(d.srv.FileID(roof), 10)
	// Another file put in its place: the service's identity check refuses.
	if err := os.Rename(roof, roof+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(roof, []byte("something else"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := d.gnome("ActivateResult", id, []string{"roof"}, uint32(0)).Err
	var de dbus.Error
	if !errors.As(err, &de) || !strings.Contains(strings.ToLower(de.Error()), "no longer") {
		t.Fatalf("ActivateResult on a replaced file = %v, want the service's refusal", err)
	}
	if b, _ := os.ReadFile(d.opened); len(b) != 0 {
		t.Errorf("the opener ran: %s", b)
	}
}

type remoteMatch struct {
	ID        string
	Text      string
	Icon      string
	Type      int32
	Relevance float64
	Props     map[string]dbus.Variant
}

func TestKRunnerMatchesAndRunsActions(t *testing.T) {
	d := start(t)
	roof := filepath.Join(d.dir, "roof-leak-report.md")
	want := strconv.FormatInt(d.srv.FileID(roof), 10)

	var actions []struct{ ID, Text, Icon string }
	if err := d.krunner("Actions").Store(&actions); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range actions {
		ids = append(ids, a.ID)
	}
	if !slices.Equal(ids, []string{"open", "reveal", "copy"}) {
		t.Errorf("Actions = %v", actions)
	}

	var matches []remoteMatch
	if err := d.krunner("Match", "roof-leak-report").Store(&matches); err != nil {
		t.Fatal(err)
	}
	if len(matches) == 0 || matches[0].ID != want || matches[0].Text != "roof-leak-report.md" {
		t.Fatalf("Match(roof-leak-report) = %+v, want %s first", matches, want)
	}
	m := matches[0]
	if m.Type != 100 || m.Relevance != 1 {
		t.Errorf("the file's own name is an exact match of relevance 1; got type %d, relevance %v", m.Type, m.Relevance)
	}
	if sub, _ := m.Props["subtext"].Value().(string); sub != d.dir {
		t.Errorf("subtext = %q, want the folder", sub)
	}
	if urls, _ := m.Props["urls"].Value().([]string); len(urls) != 1 || urls[0] != "file://"+roof {
		t.Errorf("urls = %v", urls)
	}
	// No window and no Klipper: nothing to copy to, so no copy action.
	if acts, _ := m.Props["actions"].Value().([]string); !slices.Equal(acts, []string{"open", "reveal"}) {
		t.Errorf("actions without a clipboard = %v, want open and reveal", acts)
	}
	if err := d.krunner("Run", want, "copy").Err; err == nil || !strings.Contains(err.Error(), "Klipper") {
		t.Errorf("copy without a clipboard = %v, want a refusal naming Klipper", err)
	}

	if err := d.krunner("Run", want, "").Err; err != nil {
		t.Fatal(err)
	}
	if err := d.krunner("Run", want, "reveal").Err; err != nil {
		t.Fatal(err)
	}
	// With TROVE_OPENER set, revealing opens the folder with it.
	if got := d.openedLines(t, 2); got[0] != roof || got[1] != d.dir {
		t.Errorf("open then reveal ran the opener on %v, want %s then %s", got, roof, d.dir)
	}
	if err := d.krunner("Run", want, "frobnicate").Err; err == nil {
		t.Error("an unknown action was accepted")
	}
}

// klipper plays Plasma's clipboard manager on the bus.
type klipper struct {
	mu  sync.Mutex
	got []string
}

func (k *klipper) SetClipboardContents(s string) *dbus.Error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.got = append(k.got, s)
	return nil
}

func TestKRunnerCopiesThroughKlipperWithoutAWindow(t *testing.T) {
	d := start(t)
	roof := filepath.Join(d.dir, "roof-leak-report.md")
	want := strconv.FormatInt(d.srv.FileID(roof), 10)
	kl := &klipper{}
	conn := desktoptest.Connect(t, d.bus)
	if err := conn.ExportWithMap(kl, map[string]string{"SetClipboardContents": "setClipboardContents"}, "/klipper", "org.kde.klipper.klipper"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.RequestName("org.kde.klipper", dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	var matches []remoteMatch
	if err := d.krunner("Match", "roof leak").Store(&matches); err != nil || len(matches) == 0 {
		t.Fatalf("Match: %v %v", matches, err)
	}
	if acts, _ := matches[0].Props["actions"].Value().([]string); !slices.Contains(acts, "copy") {
		t.Errorf("actions with Klipper = %v, want copy among them", acts)
	}
	if err := d.krunner("Run", want, "copy").Err; err != nil {
		t.Fatal(err)
	}
	kl.mu.Lock()
	defer kl.mu.Unlock()
	if !slices.Equal(kl.got, []string{roof}) {
		t.Errorf("Klipper got %v, want the path", kl.got)
	}
}

// window records what the providers asked of the desktop app's window.
type window struct {
	mu               sync.Mutex
	searched, copied []string
}

func (w *window) ShowSearch(q string) { w.mu.Lock(); w.searched = append(w.searched, q); w.mu.Unlock() }
func (w *window) ShowQuick(string)    {}
func (w *window) CopyText(s string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.copied = append(w.copied, s)
	return nil
}

func TestProvidersUseTheWindowWhenThereIsOne(t *testing.T) {
	d := start(t)
	roof := filepath.Join(d.dir, "roof-leak-report.md")
	want := strconv.FormatInt(d.srv.FileID(roof), 10)
	w := &window{}
	d.srv.Service.AttachWindow(w)
	if err := d.gnome("LaunchSearch", []string{"roof", "leak"}, uint32(0)).Err; err != nil {
		t.Fatal(err)
	}
	if err := d.krunner("Run", want, "copy").Err; err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Equal(w.searched, []string{"roof leak"}) || !slices.Equal(w.copied, []string{roof}) {
		t.Errorf("window got searches %v and copies %v", w.searched, w.copied)
	}
	if b, _ := os.ReadFile(d.opened); len(b) != 0 {
		t.Errorf("the browser was opened although there is a window: %s", b)
	}
}

func TestStatusSaysWhetherDesktopSearchIsOffered(t *testing.T) {
	d := start(t)
	if got := integration(t, d.srv, core.IntegrationSearch); got["state"] != core.IntegrationOK {
		t.Errorf("with a bus: %v", got)
	}
	// A second Trove on the same bus finds the name taken and says so.
	other := testserver.Start(t, testserver.WithSessionBus(d.bus))
	testserver.Eventually(t, 10*time.Second, "the second Trove's report", func() bool {
		return integration(t, other, core.IntegrationSearch) != nil
	})
	if got := integration(t, other, core.IntegrationSearch); got["state"] != core.IntegrationUnavailable || !strings.Contains(got["message"].(string), "taken") {
		t.Errorf("with the name taken: %v", got)
	}
	// No bus at all is no error: the server runs and says why.
	none := testserver.Start(t, testserver.WithSessionBus("unix:path="+filepath.Join(t.TempDir(), "no-bus")))
	testserver.Eventually(t, 10*time.Second, "the report without a bus", func() bool {
		return integration(t, none, core.IntegrationSearch) != nil
	})
	if got := integration(t, none, core.IntegrationSearch); got["state"] != core.IntegrationUnavailable {
		t.Errorf("without a bus: %v", got)
	}
}

// integration is one entry of GET /api/status/'s desktop list, or nil.
func integration(t *testing.T, srv *testserver.Server, name string) map[string]any {
	t.Helper()
	r := srv.Get("/api/status/")
	list, _ := r.Field("desktop").([]any)
	for _, it := range list {
		if m, _ := it.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

// A PDF's hit carries the page of its match in its id, and activating it
// opens the desktop's default PDF viewer there (an evince that records
// its arguments, found through xdg-mime as on a desktop).
func TestAPDFHitOpensAtThePageOfItsMatch(t *testing.T) {
	home := t.TempDir()
	bin, apps, cfg := filepath.Join(home, "bin"), filepath.Join(home, "data", "applications"), filepath.Join(home, "config")
	for _, dir := range []string{bin, apps, cfg} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	argv := filepath.Join(home, "viewer-argv")
	viewer := filepath.Join(bin, "evince")
	files := map[string]string{
		viewer: "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + argv + ".tmp' && mv '" + argv + ".tmp' '" + argv + "'\n",
		filepath.Join(apps, "evince-test.desktop"): "[Desktop Entry]\nType=Application\nName=Viewer\nExec=" + viewer + " %U\nMimeType=application/pdf;\n",
		filepath.Join(cfg, "mimeapps.list"):        "[Default Applications]\napplication/pdf=evince-test.desktop\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_DATA_DIRS", filepath.Join(home, "data"))
	d := start(t)
	t.Setenv("TROVE_OPENER", "") // the desktop's own opener, which knows the viewer
	report := filepath.Join(d.dir, "report.pdf")
	if err := os.WriteFile(report, pdftest.Pages("Harbour board minutes", "Ferry timetable", "Quokka census at dawn"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ids []string
	testserver.Eventually(t, 10*time.Second, "the PDF to be found", func() bool {
		ids = nil
		d.gnome("GetInitialResultSet", []string{"quokka"}).Store(&ids)
		return len(ids) > 0
	})
	if want := strconv.FormatInt(d.srv.FileID(report), 10) + "@3"; ids[0] != want {
		t.Fatalf("GetInitialResultSet(quokka) = %v, want %s first", ids, want)
	}
	if err := d.gnome("ActivateResult", ids[0], []string{"quokka"}, uint32(0)).Err; err != nil {
		t.Fatal(err)
	}
	var got string
	testserver.Eventually(t, 10*time.Second, "the viewer to run", func() bool {
		b, err := os.ReadFile(argv)
		got = strings.TrimSpace(string(b))
		return err == nil
	})
	if want := "--page-index=3\n" + report; got != want {
		t.Errorf("the viewer was run with %q, want %q", got, want)
	}
	for _, bad := range []string{"1@0", "1@x", "@3", "1@"} {
		if _, _, err := desktopsearch.ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) took it", bad)
		}
	}
}
