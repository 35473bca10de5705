package main

import (
	"bytes"
	"strings"
	"testing"
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
