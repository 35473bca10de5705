package api_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// tool writes an executable shell script called name into dir.
func tool(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Open and Show in folder report what the desktop's opener did: xdg-open
// placed first on PATH exits 3 ("no method available"), as it does on a
// desktop without a handler for the type, and the API says so.
func TestOpenReportsTheOpenersExitStatus(t *testing.T) {
	bin := t.TempDir()
	tool(t, bin, "xdg-open", `echo "xdg-open: no method available for opening '$1'" >&2; exit 3`)
	tool(t, bin, "dbus-send", `echo "Error org.freedesktop.DBus.Error.ServiceUnknown" >&2; exit 1`)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("TROVE_OPENER", "")
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "plan.xyz", "the garden plan")
	s.IndexDir(root, 1)
	path := filepath.Join(root, "plan.xyz")
	id := s.Get("/api/files/lookup?path=" + url.QueryEscape(path)).Field("id")
	if id == nil {
		t.Fatal("not indexed")
	}
	open := fmt.Sprintf("/api/files/%v/open", id)
	reveal := fmt.Sprintf("/api/files/%v/reveal", id)

	r := s.Do("POST", open, nil)
	want := fmt.Sprintf("No application is set to open .xyz files (xdg-open exited 3: no method available for opening '%s')", path)
	if r.Status != 400 || r.Field("error") != want {
		t.Fatalf("open: %d %s\nwant %q", r.Status, r.Body, want)
	}
	r = s.Do("POST", reveal, nil)
	if msg, _ := r.Field("error").(string); r.Status != 400 || !strings.Contains(msg, "xdg-open exited 3") || !strings.Contains(msg, "folder") {
		t.Fatalf("reveal: %d %s", r.Status, r.Body)
	}

	// An opener that works.
	tool(t, bin, "xdg-open", `exit 0`)
	if r := s.Do("POST", open, nil); r.Status != 200 || r.Field("path") != path {
		t.Fatalf("open with a working opener: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", reveal, nil); r.Status != 200 {
		t.Fatalf("reveal with a working opener: %d %s", r.Status, r.Body)
	}

	// Any other failure, with the opener's own words.
	tool(t, bin, "xdg-open", `echo "gio: file:///x: Failed to launch" >&2; exit 4`)
	r = s.Do("POST", open, nil)
	if msg, _ := r.Field("error").(string); r.Status != 400 || !strings.Contains(msg, "xdg-open exited 4: gio: file:///x: Failed to launch") {
		t.Fatalf("open failing with 4: %d %s", r.Status, r.Body)
	}

	// No opener at all.
	t.Setenv("PATH", t.TempDir())
	r = s.Do("POST", open, nil)
	if msg, _ := r.Field("error").(string); r.Status != 400 || !strings.Contains(msg, "xdg-open is not installed") {
		t.Fatalf("open without xdg-open: %d %s", r.Status, r.Body)
	}
}
