//go:build packagetest

package pkgtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// emptyRoot is a root with an empty dpkg database.
func emptyRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "var/log"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"var/lib/dpkg/status", "var/lib/dpkg/available"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// dpkg runs dpkg on root. The root holds nothing else, so dependencies are
// forced here and checked by TestDependenciesResolve against the archive.
func dpkg(t *testing.T, root string, args ...string) {
	t.Helper()
	run(t, "dpkg", append([]string{"--root=" + root, "--force-depends", "--force-not-root", "--log=/dev/null"}, args...)...)
}

// The package's dependencies resolve on Debian 12 from nothing installed:
// apt computes the whole installation against an empty package state.
func TestDependenciesResolve(t *testing.T) {
	lists, _ := filepath.Glob("/var/lib/apt/lists/*_Packages*")
	if len(lists) == 0 {
		t.Fatal("apt has no package lists: run apt-get update")
	}
	state := t.TempDir()
	status := filepath.Join(state, "status")
	if err := os.WriteFile(status, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(t, "apt-get", "install", "--simulate", "--no-install-recommends",
		"-o", "Dir::State::status="+status, "-o", "Debug::NoLocking=1", deb(t, "amd64"))
	var installs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "Inst" {
			installs = append(installs, f[1])
		}
	}
	for _, want := range []string{"trove", "libc6", "libgtk-3-0", "libwebkit2gtk-4.1-0"} {
		if !slices.Contains(installs, want) {
			t.Errorf("apt would not install %s; it plans %d packages:\n%s", want, len(installs), out)
		}
	}
	t.Logf("a clean Debian 12 gets trove with %d packages", len(installs))
}

// Installing, reinstalling (dpkg's upgrade path), removing and purging the
// package leave a user's index and settings as they were.
func TestInstallUpgradeRemoveKeepUserData(t *testing.T) {
	root := emptyRoot(t)
	home := filepath.Join(root, "home/someone")
	user := map[string]string{
		".local/share/trove/index.db":               "not really SQLite, but nobody may touch it",
		".config/trove/settings.json":               `{"queue": {"cooldown_seconds": 7}}`,
		".config/autostart/dev.trove.Trove.desktop": "[Desktop Entry]\n",
	}
	for name, body := range user {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	pkg := deb(t, "amd64")
	dpkg(t, root, "--install", pkg)
	for _, f := range wantedFiles() {
		if _, err := os.Lstat(filepath.Join(root, f)); err != nil {
			t.Errorf("not installed: %s", f)
		}
	}
	dpkg(t, root, "--install", pkg)
	dpkg(t, root, "--remove", "trove")
	if _, err := os.Stat(filepath.Join(root, "usr/bin/trove")); !os.IsNotExist(err) {
		t.Errorf("trove is still there after removal: %v", err)
	}
	dpkg(t, root, "--purge", "trove")
	for name, body := range user {
		got, err := os.ReadFile(filepath.Join(home, name))
		if err != nil || string(got) != body {
			t.Errorf("%s changed: %q, %v", name, got, err)
		}
	}
}

// From an installation in a clean root: the desktop entry and metainfo
// validate, the unit passes systemd's checks, and trove serve, started as
// the unit starts it, answers /api/status/ and stops cleanly on SIGTERM.
func TestInstalledPackage(t *testing.T) {
	root := emptyRoot(t)
	dpkg(t, root, "--install", deb(t, "amd64"))
	version := field(t, deb(t, "amd64"), "Version")

	t.Run("desktop entry", func(t *testing.T) {
		out := run(t, "desktop-file-validate", filepath.Join(root, "usr/share/applications/dev.trove.Trove.desktop"))
		if strings.TrimSpace(out) != "" {
			t.Errorf("desktop-file-validate: %s", out)
		}
	})
	t.Run("metainfo", func(t *testing.T) {
		run(t, "appstreamcli", "validate", "--no-net", "--pedantic", filepath.Join(root, "usr/share/metainfo/dev.trove.Trove.metainfo.xml"))
	})
	t.Run("man page", func(t *testing.T) {
		cmd := exec.Command("man", "--warnings", "-l", filepath.Join(root, "usr/share/man/man1/trove.1.gz"))
		cmd.Env = append(os.Environ(), "MANWIDTH=80", "LANG=C.UTF-8")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("man: %v %s", err, stderr.String())
		}
		for _, want := range []string{"--data-dir", "TROVE_TOKEN", "trove.service"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("the man page does not mention %s", want)
			}
		}
		source := run(t, "zcat", filepath.Join(root, "usr/share/man/man1/trove.1.gz"))
		if !strings.Contains(source, `"trove `+strings.ReplaceAll(version, "-", `\-`)+`"`) {
			t.Errorf("the man page's title line does not name version %s:\n%s", version, firstLine(source))
		}
	})
	t.Run("desktop binary", func(t *testing.T) {
		if out := run(t, filepath.Join(root, "usr/bin/trove-desktop"), "version"); strings.TrimSpace(out) != "trove "+version {
			t.Errorf("trove-desktop version: %q, want %q", out, version)
		}
	})
	t.Run("unit", func(t *testing.T) { checkUnit(t, root) })
	t.Run("serve", func(t *testing.T) { serveAsTheUnit(t, root, version) })
	trove := filepath.Join(root, "usr/bin/trove")
	t.Run("index of the previous release", func(t *testing.T) { servePreviousIndex(t, trove) })
	t.Run("index of a newer release", func(t *testing.T) { refuseNewerIndex(t, trove) })
}

// previousIndex is an index written by the previous release's trove
// (scripts/make-index-fixture.sh); TestIndexFromThePreviousRelease in
// backend/store opens it too.
const previousIndex = "../../../backend/store/testdata/index-f229f0b.db"

// dataDirWith is a data directory holding index as index.db.
func dataDirWith(t *testing.T, index []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.db"), index, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The installed trove serves an index of the previous release: its three
// files are counted and found.
func servePreviousIndex(t *testing.T, trove string) {
	index, err := os.ReadFile(previousIndex)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	srv := startServer(t, exec.Command(trove, "serve", "--addr", addr, "--data-dir", dataDirWith(t, index), "--config-dir", t.TempDir()))
	defer srv.stop(t)
	srv.waitForStatus(t, addr, &struct{}{})

	var stats struct {
		TotalFiles int `json:"total_files"`
	}
	getJSON(t, "http://"+addr+"/api/files/stats", &stats)
	if stats.TotalFiles != 3 {
		t.Errorf("%d files in the previous release's index, want 3\n%s", stats.TotalFiles, srv.logs.String())
	}
	resp, err := http.Post("http://"+addr+"/api/search/", "application/json", strings.NewReader(`{"query": "leak"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var found struct {
		Results []struct {
			File struct {
				Path string `json:"file_path"`
			} `json:"file"`
		} `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&found); err != nil || len(found.Results) != 1 ||
		found.Results[0].File.Path != "/tmp/trove-fixture-docs/roof.md" {
		t.Errorf("search for leak in the previous release's index: %+v, %v", found, err)
	}
}

// The installed trove refuses an index of a newer release, says so on
// stderr, and leaves it as it was.
func refuseNewerIndex(t *testing.T, trove string) {
	index, err := os.ReadFile(previousIndex)
	if err != nil {
		t.Fatal(err)
	}
	// PRAGMA user_version, the schema number, is big-endian at byte 60 of
	// SQLite's header.
	binary.BigEndian.PutUint32(index[60:64], 999)
	data := dataDirWith(t, index)
	// A trove that served the index instead would run until killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, trove, "serve", "--addr", freeAddr(t), "--data-dir", data, "--config-dir", t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	want := "trove: " + filepath.Join(data, "index.db") + ": this index was made by a newer Trove (schema 999)"
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("trove serve on a newer index: %v, stderr %q; want exit 1 and %q", err, stderr.String(), want)
	}
	if after, _ := os.ReadFile(filepath.Join(data, "index.db")); !bytes.Equal(after, index) {
		t.Error("the refused index was changed")
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, resp.Status, err)
	}
}

// checkUnit runs systemd-analyze on the installed unit: its syntax and
// paths, and its exposure score (lower is better; 10 is unconfined).
func checkUnit(t *testing.T, root string) {
	unit := filepath.Join(root, "usr/lib/systemd/user/trove.service")
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir())
	// verify checks that ExecStart's program exists: point it at the root's
	// (systemd-analyze's --root does not search user units).
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	verifiable := filepath.Join(t.TempDir(), "trove.service")
	if err := os.WriteFile(verifiable, []byte(strings.ReplaceAll(string(data), "=/usr/bin/trove", "="+root+"/usr/bin/trove")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("systemd-analyze", "verify", "--user", "--man=no", verifiable)
	cmd.Env = env
	// It reports a directive it cannot parse and still exits 0.
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	cmd = exec.Command("systemd-analyze", "security", "--user", "--offline=yes", "--threshold=50", unit)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("systemd-analyze security: %v\n%s", err, out)
	}
	if i := bytes.Index(out, []byte("Overall exposure level")); i >= 0 {
		t.Log(strings.TrimSpace(string(out[i:])))
	}
}

// unit is the [Service] part of a unit file that decides what runs.
type unit struct {
	env       []string
	pre       []string
	execStart string
}

// readUnit reads the installed unit, with %h as home.
func readUnit(t *testing.T, path, home string) unit {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var u unit
	section := ""
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") {
			section = l
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !ok || section != "[Service]" || strings.HasPrefix(l, "#") {
			continue
		}
		val = strings.ReplaceAll(val, "%h", home)
		switch key {
		case "Environment":
			u.env = append(u.env, strings.Fields(val)...)
		case "ExecStartPre":
			u.pre = append(u.pre, strings.TrimLeft(val, "+-!@:"))
		case "ExecStart":
			u.execStart = val
		}
	}
	if u.execStart == "" {
		t.Fatalf("%s has no ExecStart", path)
	}
	return u
}

// serveAsTheUnit runs the unit's ExecStartPre and ExecStart lines with its
// Environment, from the installed root (/usr/bin is the root's). A CI
// container has no systemd user manager for systemd-run --user, so the
// sandboxing directives are checked by systemd-analyze instead. The port
// is a free one, set as `systemctl --user edit` would: TROVE_ADDR.
func serveAsTheUnit(t *testing.T, root, version string) {
	home := filepath.Join(root, "home/someone")
	u := readUnit(t, filepath.Join(root, "usr/lib/systemd/user/trove.service"), home)
	inRoot := func(cmdline string) []string {
		f := strings.Fields(cmdline)
		if strings.HasPrefix(f[0], "/usr/bin/trove") {
			f[0] = filepath.Join(root, f[0])
		}
		return f
	}
	addr := freeAddr(t)
	env := append([]string{"HOME=" + home, "PATH=/usr/bin:/bin", "TROVE_ADDR=" + addr}, u.env...)
	for _, pre := range u.pre {
		f := inRoot(pre)
		cmd := exec.Command(f[0], f[1:]...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ExecStartPre %s: %v\n%s", pre, err, out)
		}
	}
	f := inRoot(u.execStart)
	cmd := exec.Command(f[0], f[1:]...)
	cmd.Env = env
	srv := startServer(t, cmd)
	var status struct {
		Version string `json:"version"`
	}
	srv.waitForStatus(t, addr, &status)
	if status.Version != version {
		t.Errorf("status version %q, want the package's %q", status.Version, version)
	}
	// The unit's directories hold the index and settings.
	if _, err := os.Stat(filepath.Join(home, ".local/share/trove/index.db")); err != nil {
		t.Errorf("no index in the unit's data directory: %v", err)
	}
	srv.stop(t)
}

// server is a trove serve started by a test, with its output.
type server struct {
	cmd  *exec.Cmd
	logs lockedBuffer
	done chan struct{} // closed when it has exited, with err
	err  error
}

// startServer starts cmd; the test's cleanup kills it if it still runs.
func startServer(t *testing.T, cmd *exec.Cmd) *server {
	t.Helper()
	s := &server{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &s.logs, &s.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.err = cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

// waitForStatus polls /api/status/ on addr until it answers 200, and
// decodes the answer into status; a server that exits first, or does not
// answer within 30 s, fails the test with its logs.
func (s *server) waitForStatus(t *testing.T, addr string, status any) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/api/status/")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(status)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-s.done:
			t.Fatalf("trove serve exited: %v\n%s", s.err, s.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer from /api/status/ within 30 s: %v\n%s", err, s.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and expects a clean exit within the unit's
// TimeoutStopSec (30 s).
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		if s.err != nil {
			t.Errorf("trove serve stopped with %v\n%s", s.err, s.logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("trove serve did not stop within 30 s of SIGTERM\n%s", s.logs.String())
	}
}

// lockedBuffer is a process's output, read while it still writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
