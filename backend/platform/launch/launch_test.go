package launch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"trove/internal/poll"
)

// A recording opener: a script that writes its argument to a file.
func recorder(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "opener")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, out
}

func waitFile(t *testing.T, path, want string) {
	t.Helper()
	if poll.Until(5*time.Second, func() bool { b, _ := os.ReadFile(path); return strings.Contains(string(b), want) }) {
		return
	}
	b, _ := os.ReadFile(path)
	t.Fatalf("opener got %q, want %q", b, want)
}

func TestOpenAndRevealUseTheOpener(t *testing.T) {
	script, out := recorder(t)
	d := Desktop{Opener: script}
	if err := d.Open("/home/me/notes/roof leak.md"); err != nil {
		t.Fatal(err)
	}
	waitFile(t, out, "/home/me/notes/roof leak.md")
	if err := d.Reveal("/home/me/notes/roof leak.md"); err != nil {
		t.Fatal(err)
	}
	waitFile(t, out, "/home/me/notes\n")
}

func TestMissingOpenerIsAnError(t *testing.T) {
	err := (Desktop{Opener: "/nonexistent/opener"}).Open("/x")
	if !errors.Is(err, ErrNoOpener) || !strings.Contains(err.Error(), "opener is not installed") {
		t.Fatalf("got %v", err)
	}
}

func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "xdg-open")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The opener's exit status and last words reach the caller.
func TestOpenerFailureIsReported(t *testing.T) {
	d := Desktop{Opener: script(t, `echo "some noise" >&2; echo "xdg-open: no method available for opening '$1'" >&2; exit 3`)}
	err := d.Open("/home/me/Plan.XYZ")
	want := "No application is set to open .xyz files (xdg-open exited 3: no method available for opening '/home/me/Plan.XYZ')"
	if !errors.Is(err, ErrNoApplication) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if err := d.Open("/home/me/Makefile"); err == nil || !strings.Contains(err.Error(), "files of this type") {
		t.Fatalf("no extension: %v", err)
	}
	d = Desktop{Opener: script(t, `exit 4`)}
	if err := d.Open("/x.txt"); err == nil || err.Error() != "xdg-open exited 4" || errors.Is(err, ErrNoApplication) {
		t.Fatalf("exit 4: %v", err)
	}
	if err := d.Reveal("/home/me/x.txt"); err == nil || !strings.Contains(err.Error(), "opening the folder failed: xdg-open exited 4") {
		t.Fatalf("reveal: %v", err)
	}
}

// An opener still running after the settle time has started the
// application: xdg-open without a desktop runs it and waits.
func TestOpenerThatKeepsRunningHasOpened(t *testing.T) {
	dir := t.TempDir()
	release := filepath.Join(dir, "release")
	// It ends when released, or when the test's folder is gone: released
	// just before the folder is removed, it might miss the file and would
	// otherwise poll for ever, long after the test.
	d := Desktop{Opener: script(t, `while [ -d "`+dir+`" ] && [ ! -e "`+release+`" ]; do sleep 0.01; done; exit 3`), Settle: 50 * time.Millisecond}
	start := time.Now()
	if err := d.Open("/x.txt"); err != nil {
		t.Fatalf("a running application: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("waited %v for the application", took)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	} // let it end: its status is no longer anyone's business
}
