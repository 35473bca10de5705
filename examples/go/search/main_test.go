package main

import (
	"bytes"
	"strings"
	"testing"

	"trove/internal/testserver"
)

func TestGoExample(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.md", "# Roof repairs\n\nThe roof leaks above the bedroom.")
	s.IndexDir(root, 1)
	t.Setenv("TROVE_ADDR", strings.TrimPrefix(s.URL, "http://"))
	var out, errOut bytes.Buffer
	if code := run([]string{"roof", "leak"}, &out, &errOut); code != 0 || out.String() != "Roof repairs\t"+root+"/roof.md\n" {
		t.Fatalf("code %d out %q err %q", code, out.String(), errOut.String())
	}
	// Files found by meaning alone are no match, as in trove search.
	out.Reset()
	if code := run([]string{"ceiling"}, &out, &errOut); code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), `No files match "ceiling"`) {
		t.Fatalf("by meaning alone: %d %q %q", code, out.String(), errOut.String())
	}
	errOut.Reset()
	if code := run(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "INVALID_QUERY") {
		t.Fatalf("empty query: %d %q", code, errOut.String())
	}
}
