package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/backend/testserver"
)

func TestVersionCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "trove ") {
		t.Fatalf("code %d out %q", code, out.String())
	}
}

func TestUnknownCommandAndBadFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"frobnicate"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("code %d err %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"serve", "--no-such-flag"}, &out, &errOut); code != 2 {
		t.Fatalf("bad flag: code %d", code)
	}
	errOut.Reset()
	if code := run([]string{"serve", "--addr", "not-an-address"}, &out, &errOut); code != 1 {
		t.Fatalf("bad address: code %d", code)
	}
}

func TestQuickNeedsTheDesktopBuild(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"quick"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "desktop app") {
		t.Fatalf("code %d err %q", code, errOut.String())
	}
}

func TestSearchCommand(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.txt", "The roof leaks above the bedroom.")
	s.IndexDir(root, 1)
	addr := strings.TrimPrefix(s.URL, "http://")
	var out, errOut bytes.Buffer
	if code := run([]string{"search", "--addr", addr, "roof", "leak"}, &out, &errOut); code != 0 {
		t.Fatalf("code %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), root+"/roof.txt") || !strings.Contains(out.String(), "The roof leaks") {
		t.Fatalf("output %q", out.String())
	}
	out.Reset()
	if code := run([]string{"search", "--addr", addr, "--json", "roof"}, &out, &errOut); code != 0 || !json.Valid(out.Bytes()) {
		t.Fatalf("json: %d %q", code, out.String())
	}
	if code := run([]string{"search", "--addr", "127.0.0.1:1", "roof"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "cannot reach") {
		t.Fatalf("no server: %d %q", code, errOut.String())
	}
	if code := run([]string{"search"}, &out, &errOut); code != 2 {
		t.Fatalf("no words: %d", code)
	}
}

// An index from a newer Trove stops trove serve with a plain message on
// stderr (what a terminal or the journal shows), and is left as it was.
func TestServeRefusesANewerIndex(t *testing.T) {
	data := t.TempDir()
	index := filepath.Join(data, "index.db")
	fixture, err := os.ReadFile("backend/store/testdata/index-f229f0b.db")
	if err != nil {
		t.Fatal(err)
	}
	// SQLite keeps PRAGMA user_version, the schema number, big-endian at
	// byte 60 of the file's header.
	binary.BigEndian.PutUint32(fixture[60:64], 999)
	if err := os.WriteFile(index, fixture, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--config-dir", t.TempDir()}, &out, &errOut)
	want := "this index was made by a newer Trove (schema 999)"
	if code != 1 || !strings.Contains(errOut.String(), "trove: "+index+": "+want) {
		t.Fatalf("code %d, stderr %q; want 1 and %q", code, errOut.String(), want)
	}
	after, _ := os.ReadFile(index)
	if !bytes.Equal(after, fixture) {
		t.Error("the refused index was changed")
	}
}
