package main

import (
	"encoding/json"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// search --save keeps a search for every client; search --saved runs it by
// name in any case, as saved; saved lists them.
func TestSavedSearchCommands(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.txt", "The roof leaks above the bedroom.", "garden.txt", "Tomatoes along the fence.")
	s.IndexDir(root, 2)
	addr := strings.TrimPrefix(s.URL, "http://")

	if code, out, _ := run3(t, "saved", "--addr", addr); code != exitNothing || !strings.Contains(out, "No saved searches") {
		t.Fatalf("none saved: %d %q", code, out)
	}
	code, out, errOut := run3(t, "search", "--addr", addr, "--save", "Roof", "--mode", "keyword", "roof")
	if code != exitOK || !strings.Contains(out, root+"/roof.txt") || !strings.Contains(errOut, `Saved as "Roof"`) {
		t.Fatalf("--save: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := run3(t, "search", "--addr", addr, "--save", "roof", "tomatoes"); code != exitUsage || !strings.Contains(errOut, "NAME_TAKEN") {
		t.Fatalf("--save of a name taken: %d %q", code, errOut)
	}
	code, out, errOut = run3(t, "search", "--addr", addr, "--saved", "ROOF")
	if code != exitOK || !strings.Contains(out, root+"/roof.txt") || strings.Contains(out, "garden") {
		t.Fatalf("--saved: %d %q %q", code, out, errOut)
	}
	code, out, _ = run3(t, "search", "--addr", addr, "--saved", "roof", "--json")
	var res struct{ Query string }
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Query != "roof" {
		t.Fatalf("--saved --json: %d %q", code, out)
	}
	for _, args := range [][]string{{"--saved", "nope"}, {"--saved", "roof", "more", "words"}, {"--saved", "roof", "--mode", "names"},
		{"--saved", " "}, {"--saved", "roof", "--limit", "0"}} {
		code, _, errOut := run3(t, append([]string{"search", "--addr", addr}, args...)...)
		if code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d err %q", args, code, errOut)
		}
	}
	code, out, _ = run3(t, "saved", "--addr", addr)
	if code != exitOK || !strings.Contains(out, "Roof\n    roof  (mode keyword)") {
		t.Fatalf("saved: %d %q", code, out)
	}
	code, out, _ = run3(t, "saved", "--addr", addr, "--json")
	var list []struct{ Name, Query string }
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Name != "Roof" {
		t.Fatalf("saved --json: %d %q", code, out)
	}
	if code, _, errOut := run3(t, "saved", "--addr", "127.0.0.1:1"); code != exitUnreachable || !strings.Contains(errOut, "cannot reach") {
		t.Fatalf("no server: %d %q", code, errOut)
	}
}
