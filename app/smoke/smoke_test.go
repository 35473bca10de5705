//go:build desktopsmoke

package smoke

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// app is the desktop binary running under the test's display and bus.
type app struct {
	cmd  *exec.Cmd
	addr string
	log  *logTail
	done chan error
}

// logTail keeps the app's output for failure reports.
type logTail struct {
	mu   sync.Mutex
	text strings.Builder
}

func (l *logTail) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.text.String() }

var addrRE = regexp.MustCompile(`msg="trove started" addr=(\S+)`)

func startApp(t *testing.T, bin, display, bus string) *app {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0",
		"--data-dir", filepath.Join(home, "data"), "--config-dir", filepath.Join(home, "config"))
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "HOME="+home,
		"XDG_RUNTIME_DIR="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local"),
		"WAYLAND_DISPLAY=", "TROVE_OPENER=true")
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &app{cmd: cmd, log: &logTail{}, done: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			a.log.mu.Lock()
			a.log.text.WriteString(sc.Text() + "\n")
			a.log.mu.Unlock()
			if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		a.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("app output:\n%s", a.log)
		}
	})
	select {
	case a.addr = <-addr:
	case err := <-a.done:
		t.Fatalf("the app exited before serving: %v\n%s", err, a.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("the app did not start\n%s", a.log)
	}
	return a
}

func (a *app) get(t *testing.T, path string, v any) {
	t.Helper()
	res, err := http.Get("http://" + a.addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

type queueStatus struct {
	Paused         bool `json:"paused"`
	PausedManually bool `json:"paused_manually"`
}

func (a *app) queue(t *testing.T) queueStatus {
	var q queueStatus
	a.get(t, "/api/queue/status", &q)
	return q
}

// desktopBin is the desktop binary under test.
func desktopBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("TROVE_DESKTOP_BIN")
	if bin == "" {
		t.Fatal("TROVE_DESKTOP_BIN names the desktop binary (make desktop-test sets it)")
	}
	return bin
}

// runTrove runs the binary once more on the test's display and bus (a
// second launch, `trove quick`) and returns its output.
func runTrove(bin, display, bus string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "WAYLAND_DISPLAY=")
	return cmd.CombinedOutput()
}

// waitExit waits for the app to exit with status 0 after closing the index.
func (a *app) waitExit(t *testing.T, after string) {
	t.Helper()
	select {
	case err := <-a.done:
		if err != nil {
			t.Fatalf("after %s the app exited with %v", after, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not end the app", after)
	}
	if !strings.Contains(a.log.String(), "trove stopped") {
		t.Errorf("the backend did not stop cleanly:\n%s", a.log)
	}
}

func TestDesktopSmoke(t *testing.T) {
	bin := desktopBin(t)
	display := startXvfb(t)
	busAddr := startBus(t)
	conn, err := dbus.Connect(busAddr)
	if err != nil {
		t.Fatalf("connect to the private bus: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	w := startWatcher(t, conn)
	x := openDisplay(t, display)

	a := startApp(t, bin, display, busAddr)

	// The API answers beside the window.
	var status struct {
		Version string `json:"version"`
	}
	a.get(t, "/api/status/", &status)
	if status.Version == "" {
		t.Fatalf("status has no version: %+v", status)
	}

	// The window appears and renders the interface, whose page calls the
	// API in process (through the webview's own origin, not the port).
	win := x.waitWindow(t, "Trove")
	img := x.settled(t, win, 64, 60*time.Second)
	eventually(t, 30*time.Second, "the window's page to reach the API", func() bool {
		return strings.Contains(a.log.String(), "the window reaches the API in process")
	})
	if line := lineWith(a.log.String(), "the window reaches the API in process"); !strings.Contains(line, "status=200") {
		t.Errorf("the window's first API call: %s", line)
	}
	savePNG(t, img, filepath.Join("..", "..", "build", "screenshots", "desktop.png"))

	// The tray item registered with the watcher, and its menu is readable.
	var it item
	select {
	case it = <-w.items:
	case <-time.After(60 * time.Second):
		t.Fatal("no status-notifier item registered")
	}
	var menu menuItem
	eventually(t, 30*time.Second, "the tray menu with its status line", func() bool {
		menu, err = menuOf(conn, it)
		_, ok := menu.find("Pause indexing")
		st, ok2 := menu.find("0 files indexed")
		return err == nil && ok && ok2 && !st.enabled
	})
	for _, want := range []string{"Quick search", "Open Trove", "Pause indexing", "Quit"} {
		if _, ok := menu.find(want); !ok {
			t.Errorf("tray menu has no %q: %q", want, menu.labels())
		}
	}

	// "Pause indexing" pauses the queue and turns into "Resume indexing".
	pause, _ := menu.find("Pause indexing")
	if err := click(conn, it, pause.id); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the queue to be paused", func() bool { return a.queue(t).PausedManually })
	eventually(t, 10*time.Second, "the menu to offer Resume indexing", func() bool {
		menu, err = menuOf(conn, it)
		_, ok := menu.find("Resume indexing")
		st, _ := menu.find("0 files indexed")
		return err == nil && ok && strings.Contains(st.label, "paused")
	})
	resume, _ := menu.find("Resume indexing")
	if err := click(conn, it, resume.id); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the queue to resume", func() bool { return !a.queue(t).Paused })

	// Quick search turns the window into the compact search box.
	quick, _ := menu.find("Quick search")
	if err := click(conn, it, quick.id); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the quick search size", func() bool {
		w, h := x.size(win)
		return w < 800 && h < 600
	})
	savePNG(t, x.settled(t, win, 16, 30*time.Second), filepath.Join("..", "..", "build", "screenshots", "desktop-quick.png"))

	// Typing in it searches: a POST with a JSON body, through the webview
	// to the API in process.
	x.typeText(t, win, "roof")
	eventually(t, 30*time.Second, "the window's search to reach the API", func() bool {
		return strings.Contains(a.log.String(), "method=POST")
	})
	if line := lineWith(a.log.String(), "method=POST"); !strings.Contains(line, "path=/api/search/") || !strings.Contains(line, "status=200") {
		t.Errorf("the window's search: %s", line)
	}

	// Closing the window hides it; Trove stays in the tray and keeps serving.
	if err := x.close(win); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the window to hide", func() bool { return x.findWindow("Trove") == 0 })
	a.get(t, "/api/status/", &status)

	// Launching Trove again shows the running one's window and exits.
	out, err := runTrove(bin, display, busAddr, "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--config-dir", t.TempDir())
	if err != nil || !strings.Contains(string(out), "already running") {
		t.Fatalf("a second launch: %v\n%s", err, out)
	}
	eventually(t, 10*time.Second, "the second launch to show the window", func() bool { return x.findWindow("Trove") != 0 })
	win = x.findWindow("Trove")
	if err := x.close(win); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the window to hide again", func() bool { return x.findWindow("Trove") == 0 })
	open, _ := menu.find("Open Trove")
	if err := click(conn, it, open.id); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "Open Trove to show the main window", func() bool {
		win = x.findWindow("Trove")
		w, h := x.size(win)
		return win != 0 && w > 1000 && h > 700
	})

	// `trove quick`, the command for a desktop hotkey, opens quick search.
	if out, err := runTrove(bin, display, busAddr, "quick"); err != nil {
		t.Fatalf("trove quick: %v\n%s", err, out)
	}
	eventually(t, 10*time.Second, "trove quick to show the quick search", func() bool {
		w, h := x.size(win)
		return w < 800 && h < 600
	})

	// Quit from the tray ends the process cleanly. It may end before it
	// answers the click: the bus then reports no reply, and the exit is
	// what counts.
	quit, _ := menu.find("Quit")
	if err := click(conn, it, quit.id); err != nil && !noReply(err) {
		t.Fatal(err)
	}
	a.waitExit(t, "Quit from the tray")
}

// Without a tray host on the bus, a hidden window could not come back:
// closing it quits Trove instead.
func TestDesktopWithoutTrayQuitsOnClose(t *testing.T) {
	bin := desktopBin(t)
	display := startXvfb(t)
	busAddr := startBus(t) // no StatusNotifierWatcher on this bus
	x := openDisplay(t, display)
	a := startApp(t, bin, display, busAddr)

	win := x.waitWindow(t, "Trove")
	x.settled(t, win, 64, 60*time.Second)
	if err := x.close(win); err != nil {
		t.Fatal(err)
	}
	a.waitExit(t, "closing the window without a tray")

	// With no Trove running, `trove quick` says so.
	out, err := runTrove(bin, display, busAddr, "quick")
	if err == nil || !strings.Contains(string(out), "not running") {
		t.Errorf("trove quick without Trove: %v %s", err, out)
	}
}

// lineWith is the first line of text that contains what.
func lineWith(text, what string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, what) {
			return l
		}
	}
	return ""
}
