package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A recording opener: a script that writes its argument to a file.
func recorder(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "opener")
	os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+out+"\n"), 0o755)
	return script, out
}

func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(path); strings.Contains(string(b), want) {
			return
		}
		time.Sleep(5 * time.Millisecond)
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
	if err := (Desktop{Opener: "/nonexistent/opener"}).Open("/x"); err == nil {
		t.Fatal("want an error")
	}
}
