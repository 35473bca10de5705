package main

import (
	"strings"
	"testing"
)

const usage = `usage: trove [command] [flags]

With no command, the desktop build starts the app.

commands:
  serve     run the indexing service and the API (headless)
  version   print the version

environment:
  TROVE_ADDR         listen address, as --addr

Run "trove serve --help" for its flags.
`

const serveHelp = `Usage of trove serve:
  -addr string
    	listen address (default "127.0.0.1:8765")
  -json
    	print JSON
`

func TestPageFromHelp(t *testing.T) {
	p, err := parseUsage(usage)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Commands) != 2 || p.Commands[0].Name != "serve" || p.Commands[1].Text != "print the version" {
		t.Fatalf("commands %+v", p.Commands)
	}
	if len(p.Environment) != 1 || p.Environment[0].Name != "TROVE_ADDR" {
		t.Fatalf("environment %+v", p.Environment)
	}
	if len(p.Description) != 1 || len(p.Closing) != 1 {
		t.Fatalf("paragraphs %q / %q", p.Description, p.Closing)
	}
	p.Commands[0].Flags = parseFlags(serveHelp)
	want := []flagHelp{{"addr", "string", `listen address (default "127.0.0.1:8765")`}, {"json", "", "print JSON"}}
	if len(p.Commands[0].Flags) != 2 || p.Commands[0].Flags[0] != want[0] || p.Commands[0].Flags[1] != want[1] {
		t.Fatalf("flags %+v", p.Commands[0].Flags)
	}
	roff := p.roff("1.0", "2026-01-02")
	for _, s := range []string{`.TH TROVE 1 "2026\-01\-02" "trove 1.0"`, ".SH COMMANDS\n.TP\n.B serve\n", `.BI \-\-addr " " string`, ".B \\-\\-json\n", ".SH ENVIRONMENT\n.TP\n.B TROVE_ADDR\n"} {
		if !strings.Contains(roff, s) {
			t.Errorf("page lacks %q:\n%s", s, roff)
		}
	}
}

func TestHelpWithoutUsageIsRefused(t *testing.T) {
	if _, err := parseUsage("trove: unknown command\n"); err == nil {
		t.Error("no error")
	}
	if parseFlags("trove: not a flag listing") != nil {
		t.Error("flags from a non-listing")
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{`--json`: `\-\-json`, `.hidden`: `\&.hidden`, `a\b`: `a\eb`, `'q`: `\&'q`} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
	}
}
