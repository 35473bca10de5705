package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/pdftest"
	"trove/internal/testserver"
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

// An unknown flag of the default command is one line: the error, once,
// and where to look; not the flag list.
func TestBogusFlagIsOneLine(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--bogus"}, &out, &errOut)
	msg := errOut.String()
	if code != exitUsage || strings.Count(msg, "bogus") != 1 || strings.Count(msg, "\n") != 1 || strings.Contains(msg, "-data-dir") {
		t.Fatalf("code %d, stderr %q", code, msg)
	}
}

// Usage names the binary as it was run.
func TestUsageNamesTheBinary(t *testing.T) {
	defer func(p string) { prog = p }(prog)
	prog = "trove-desktop"
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage: trove-desktop ") {
		t.Fatalf("code %d out %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"search", "--help"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage: trove-desktop search") {
		t.Fatalf("search --help: code %d out %q", code, out.String())
	}
}

// search --help documents every flag the command has.
func TestSearchHelpDocumentsEveryFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"search", "--help"}, &out, &errOut); code != 0 {
		t.Fatalf("code %d", code)
	}
	for _, flag := range []string{"-addr", "-limit", "-offset", "-sort", "-order", "-json", "-dir", "-mode", "-names", "-saved", "-save", "Exit codes"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("search --help does not mention %s:\n%s", flag, out.String())
		}
	}
	for _, cmd := range []string{"status", "folders", "watch", "saved"} {
		out.Reset()
		if code := run([]string{cmd, "--help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "-addr") || !strings.Contains(out.String(), "Exit codes") {
			t.Errorf("%s --help: code %d out %q", cmd, code, out.String())
		}
	}
}

func TestQuickNeedsTheDesktopBuild(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"quick"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "desktop app") {
		t.Fatalf("code %d err %q", code, errOut.String())
	}
}

// Without a session bus, quick says so in words, not in D-Bus internals.
func TestQuickWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	msg := sessionBusProblem()
	if msg == "" || strings.Contains(msg, "dbus-launch") || !strings.Contains(msg, "session") {
		t.Fatalf("message %q", msg)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")
	if msg := sessionBusProblem(); msg != "" {
		t.Fatalf("with an address: %q", msg)
	}
}

func run3(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestSearchCommand(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.txt", "The roof leaks above the bedroom.", "sub/zlib.txt", "zlib compresses the roof tiles.")
	s.IndexDir(root, 2)
	addr := strings.TrimPrefix(s.URL, "http://")

	code, out, errOut := run3(t, "search", "--addr", addr, "roof", "leak")
	if code != exitOK || !strings.Contains(out, root+"/roof.txt") || !strings.Contains(out, "The roof leaks") {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
	// Flags after the words are flags, not words.
	code, out, _ = run3(t, "search", "zlib", "--json", "--addr", addr)
	var res struct {
		Query   string
		Results []map[string]any
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Query != "zlib" || len(res.Results) != 1 {
		t.Fatalf("flags after the query: %d %q", code, out)
	}
	// After --, a word that looks like a flag is a word.
	if code, _, errOut := run3(t, "search", "--addr", addr, "--", "-zlib"); code == exitUsage && strings.Contains(errOut, "flag provided") {
		t.Fatalf("-- did not end the flags: %q", errOut)
	}
	// Nothing found: exit 1, for JSON too.
	if code, out, _ := run3(t, "search", "--addr", addr, "--json", "xylophone"); code != exitNothing || !json.Valid([]byte(out)) {
		t.Fatalf("nothing found: %d %q", code, out)
	}
	// --dir . is resolved to the absolute folder.
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run3(t, "search", "--addr", addr, "--dir", ".", "--json", "roof")
	if code != exitOK || !strings.Contains(out, "zlib.txt") || strings.Contains(out, "roof.txt") {
		t.Fatalf("--dir .: %d %q %q", code, out, errOut)
	}
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	// A query Trove refuses: its message and code, readable, exit 2.
	code, _, errOut = run3(t, "search", "--addr", addr, "--mode", "telepathic", "roof")
	if code != exitUsage || strings.Contains(errOut, "{") || !strings.Contains(errOut, "INVALID_PARAMETER") || !strings.Contains(errOut, "telepathic") {
		t.Fatalf("refused: %d %q", code, errOut)
	}
	// Bad flags are caught before asking.
	for _, args := range [][]string{{"--sort", "colour", "roof"}, {"--order", "up", "roof"}, {"--offset", "-1", "roof"}, {"--limit", "0", "roof"}, {"--bogus", "roof"}, {}} {
		code, _, errOut := run3(t, append([]string{"search", "--addr", addr}, args...)...)
		if code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d err %q", args, code, errOut)
		}
	}
	// No Trove at the address: exit 3.
	if code, _, errOut := run3(t, "search", "--addr", "127.0.0.1:1", "roof"); code != exitUnreachable || !strings.Contains(errOut, "cannot reach") {
		t.Fatalf("no server: %d %q", code, errOut)
	}
}

// --offset, --sort and --order go out only when given: without them the
// request is the one every Trove understands.
func TestSearchSendsPagingOnlyWhenAsked(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "roof tiles", "b.txt", "roof beams", "c.txt", "roof felt")
	s.IndexDir(root, 3)
	addr := strings.TrimPrefix(s.URL, "http://")
	code, out, errOut := run3(t, "search", "--addr", addr, "--limit", "2", "roof")
	if code != exitOK || strings.Count(out, root) != 2 {
		t.Fatalf("limit 2: %d %q %q", code, out, errOut)
	}
	// With them, Trove either honours them or refuses them in words (until
	// it knows the fields); never a crash or a raw body.
	code, out, errOut = run3(t, "search", "--addr", addr, "--sort", "name", "--order", "asc", "--offset", "1", "--limit", "1", "roof")
	switch code {
	case exitOK:
		if strings.Count(out, root) != 1 {
			t.Fatalf("paged: %q", out)
		}
	case exitUsage:
		if strings.Contains(errOut, "{") {
			t.Fatalf("refusal printed raw: %q", errOut)
		}
	default:
		t.Fatalf("sort: %d %q %q", code, out, errOut)
	}
}

func TestStatusFoldersAndWatchCommands(t *testing.T) {
	s := testserver.Start(t)
	addr := strings.TrimPrefix(s.URL, "http://")
	if code, out, _ := run3(t, "folders", "--addr", addr); code != exitNothing || !strings.Contains(out, "No folders") {
		t.Fatalf("no folders: %d %q", code, out)
	}
	if code, out, _ := run3(t, "folders", "--addr", addr, "--json"); code != exitNothing || strings.TrimSpace(out) != "[]" {
		t.Fatalf("no folders, json: %d %q", code, out)
	}
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "alpha", "b.txt", "beta", "c/d.txt", "delta")
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run3(t, "watch", "--wait", ".", "--addr", addr, "--json")
	var f map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &f) != nil || f["path"] != root || f["indexed_count"] != float64(3) {
		t.Fatalf("watch --wait: %d %q %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "3/3 files") {
		t.Fatalf("no progress line: %q", errOut)
	}
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	// Waiting again for a folder already watched returns at once.
	if code, _, errOut := run3(t, "watch", "--addr", addr, "--wait", root); code != exitOK || !strings.Contains(errOut, "already watched") {
		t.Fatalf("again: %d %q", code, errOut)
	}
	// Without --wait, a folder already watched is Trove's refusal: exit 2.
	if code, _, errOut := run3(t, "watch", "--addr", addr, root); code != exitUsage || !strings.Contains(errOut, "ALREADY_WATCHING") {
		t.Fatalf("refused: %d %q", code, errOut)
	}
	if code, _, errOut := run3(t, "watch", "--addr", addr, filepath.Join(root, "missing")); code != exitUsage || strings.Contains(errOut, "{") {
		t.Fatalf("missing: %d %q", code, errOut)
	}
	if code, out, _ := run3(t, "folders", "--addr", addr); code != exitOK || !strings.Contains(out, root) || !strings.Contains(out, "3/3") {
		t.Fatalf("folders: %d %q", code, out)
	}
	code, out, _ = run3(t, "status", "--addr", addr, "--json")
	var st map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || st["jobs"] != float64(1) || st["version"] != "test" {
		t.Fatalf("status --json: %d %q", code, out)
	}
	if code, out, _ := run3(t, "status", "--addr", addr); code != exitOK || !strings.Contains(out, "1 watched") ||
		!strings.Contains(out, "files:     3 indexed, 0 failed, 3 found") {
		t.Fatalf("status: %d %q", code, out)
	}
	// unwatch: by path, relative or not; a folder not watched is exit 1.
	if code, _, errOut := run3(t, "unwatch", "--addr", addr, filepath.Join(root, "c")); code != exitNothing || !strings.Contains(errOut, "not a watched folder") {
		t.Fatalf("unwatch a folder not watched: %d %q", code, errOut)
	}
	if code, out, errOut := run3(t, "unwatch", "--addr", addr, root); code != exitOK || !strings.Contains(out, "no longer watching "+root) {
		t.Fatalf("unwatch: %d %q %q", code, out, errOut)
	}
	if code, out, _ := run3(t, "folders", "--addr", addr); code != exitNothing || !strings.Contains(out, "No folders") {
		t.Fatalf("folders after unwatch: %d %q", code, out)
	}
	if code, _, errOut := run3(t, "unwatch", "--addr", addr); code != exitUsage || !strings.Contains(errOut, "give one folder") {
		t.Fatalf("unwatch without a folder: %d %q", code, errOut)
	}
	for _, cmd := range []string{"status", "folders", "watch", "saved"} {
		args := []string{cmd, "--addr", "127.0.0.1:1"}
		if cmd == "watch" {
			args = append(args, root)
		}
		if code, _, errOut := run3(t, args...); code != exitUnreachable || !strings.Contains(errOut, "cannot reach") {
			t.Errorf("%s without Trove: %d %q", cmd, code, errOut)
		}
	}
	if code, _, _ := run3(t, "watch", "--addr", addr); code != exitUsage {
		t.Fatalf("watch without a folder: %d", code)
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

// An empty or blank path on the command line (a script's unset variable)
// is a usage error naming the argument, before any request: it must not
// watch the current folder, search every folder, or keep the index in the
// working folder.
func TestEmptyPathArgumentsAreUsageErrors(t *testing.T) {
	nowhere := []string{"--addr", "127.0.0.1:1"} // nothing answers: a request would exit 3
	for _, c := range []struct {
		args []string
		name string
	}{
		{append([]string{"watch", ""}, nowhere...), "FOLDER"},
		{append([]string{"watch", "  "}, nowhere...), "FOLDER"},
		{append([]string{"watch", "--wait", "\t"}, nowhere...), "FOLDER"},
		{append([]string{"search", "--dir", "", "roof"}, nowhere...), "--dir"},
		{append([]string{"search", "--dir", " ", "roof"}, nowhere...), "--dir"},
		{[]string{"serve", "--data-dir", "", "--addr", "127.0.0.1:0"}, "--data-dir"},
		{[]string{"serve", "--config-dir", " ", "--addr", "127.0.0.1:0"}, "--config-dir"},
	} {
		var out, errOut bytes.Buffer
		code := run(c.args, &out, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), c.name) || !strings.Contains(errOut.String(), "empty") {
			t.Errorf("%q: exit %d, stderr %q; want %d naming %s as empty", c.args, code, errOut.String(), exitUsage, c.name)
		}
	}
}

// Files found by meaning alone are not a match: trove search says "No
// files match", as the UI does, and exits 1, for --json too; --related
// lists them under their own heading, still exiting 1.
func TestSearchReportsMeaningOnlyResultsAsNoMatch(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "garden.txt", "Plant tomatoes in spring. Water the garden every morning and pull the weeds.")
	s.IndexDir(root, 1)
	addr := strings.TrimPrefix(s.URL, "http://")
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "vegetables"}); r.Field("total") != float64(1) {
		t.Fatalf("vegetables finds nothing by meaning, so this test shows nothing: %s", r.Body)
	}
	code, out, _ := run3(t, "search", "--addr", addr, "vegetables")
	if code != exitNothing || !strings.Contains(out, `No files match "vegetables"`) || strings.Contains(out, "garden.txt") {
		t.Errorf("meaning only: %d %q", code, out)
	}
	code, out, _ = run3(t, "search", "--addr", addr, "--json", "vegetables")
	if code != exitNothing || !strings.Contains(out, `"keyword_matches":0`) {
		t.Errorf("meaning only, --json: %d %q", code, out)
	}
	code, out, _ = run3(t, "search", "--addr", addr, "--related", "vegetables")
	heading := strings.Index(out, "Related by meaning")
	if code != exitNothing || !strings.HasPrefix(out, `No files match "vegetables"`) || heading < 0 || strings.Index(out, "garden.txt") < heading {
		t.Errorf("meaning only, --related: %d %q", code, out)
	}
	if code, out, _ := run3(t, "search", "--addr", addr, "tomatoes"); code != exitOK || !strings.Contains(out, "garden.txt") || strings.Contains(out, "No files match") {
		t.Errorf("a match: %d %q", code, out)
	}
}

// The query language works from the command line: the fields read are
// shown, --sort size shows sizes and --sort name the file names.
func TestSearchFieldsAndSortedColumns(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "budget-small.txt", "budget", "notes.md", "budget notes in markdown")
	if err := os.WriteFile(filepath.Join(root, "budget-big.txt"), []byte("budget "+strings.Repeat("line\n", 600)), 0o644); err != nil {
		t.Fatal(err)
	}
	s.IndexDir(root, 3)
	addr := strings.TrimPrefix(s.URL, "http://")

	code, out, errOut := run3(t, "search", "--addr", addr, "ext:txt size:>1kb budget")
	if code != exitOK || !strings.Contains(out, "Fields: ext:txt  size:>1kb") || !strings.Contains(out, "budget-big.txt") ||
		strings.Contains(out, "budget-small.txt") || strings.Contains(out, "notes.md") {
		t.Fatalf("fields: %d %q %q", code, out, errOut)
	}
	code, out, _ = run3(t, "search", "--addr", addr, "--sort", "size", "budget")
	if code != exitOK || !strings.Contains(out, "(2.9 KB)") || !strings.Contains(out, "(6 B)") {
		t.Fatalf("--sort size shows no sizes: %q", out)
	}
	code, out, _ = run3(t, "search", "--addr", addr, "--sort", "name", "budget")
	if code != exitOK || !strings.Contains(out, " 1. budget-big.txt") || !strings.Contains(out, " 3. notes.md") {
		t.Fatalf("--sort name shows no names: %q", out)
	}
	// --names: names only, a mistyped name corrected.
	code, out, _ = run3(t, "search", "--addr", addr, "--names", "budget-smal.txt")
	if code != exitOK || !strings.Contains(out, root+"/budget-small.txt") || strings.Contains(out, "notes.md") {
		t.Fatalf("--names: %d %q", code, out)
	}
	code, _, errOut = run3(t, "search", "--addr", addr, "auther:smith")
	if code != exitUsage || !strings.Contains(errOut, "UNKNOWN_FIELD") || !strings.Contains(errOut, "author") {
		t.Fatalf("unknown field: %d %q", code, errOut)
	}
}

// A PDF hit is printed with the page its snippet stands on.
func TestSearchPrintsThePage(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "report.pdf"), pdftest.Pages("harbour minutes", "ferry timetable", "quokka census"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "notes.txt", "a quokka in the notes")
	s.IndexDir(root, 2)
	addr := strings.TrimPrefix(s.URL, "http://")
	code, out, errOut := run3(t, "search", "--addr", addr, "quokka")
	if code != exitOK || !strings.Contains(out, root+"/report.pdf p. 3\n") || !strings.Contains(out, root+"/notes.txt\n") {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
}

// watch --wait writes progress lines now and then, not one per file, when
// stderr is no terminal.
func TestWatchWaitProgressIsPeriodic(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Hour // only the first line and the last
	s := testserver.Start(t)
	addr := strings.TrimPrefix(s.URL, "http://")
	root := t.TempDir()
	var pairs []string
	for i := range 300 {
		pairs = append(pairs, fmt.Sprintf("f%03d.txt", i), fmt.Sprintf("file number %d", i))
	}
	testserver.WriteFiles(t, root, pairs...)
	code, _, errOut := run3(t, "watch", "--addr", addr, "--wait", root)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != exitOK || len(lines) > 3 || !strings.Contains(lines[len(lines)-1], "300/300 files") {
		t.Fatalf("watch --wait: %d, %d lines: %q", code, len(lines), errOut)
	}
}

// A refusal that a force overrides says so, and --force overrides it
// with a warning of what it costs.
func TestWatchForce(t *testing.T) {
	s := testserver.Start(t)
	addr := strings.TrimPrefix(s.URL, "http://")
	code, _, errOut := run3(t, "watch", "--addr", addr, s.ConfigDir)
	if code != exitUsage || !strings.Contains(errOut, "--force") || !strings.Contains(errOut, "searchable") {
		t.Fatalf("refusal: %d %q", code, errOut)
	}
	// Forced, the request passes the refusal that force overrides (Trove's
	// own folder then meets the one that nothing overrides).
	_, _, errOut = run3(t, "watch", "--addr", addr, "--force", s.ConfigDir)
	if !strings.Contains(errOut, "warning: --force") || !strings.Contains(errOut, "passwords") || strings.Contains(errOut, `"force": true`) ||
		!strings.Contains(errOut, "never indexed") {
		t.Fatalf("--force: %q", errOut)
	}
}

// trove watch --names-only records the folder by name alone and --wait
// returns once every name is recorded; a rescan period out of range is a
// usage error, sent nowhere.
func TestWatchNamesOnly(t *testing.T) {
	s := testserver.Start(t)
	addr := strings.TrimPrefix(s.URL, "http://")
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a.txt", "alpha", "b.txt", "beta")
	if code, _, errOut := run3(t, "watch", "--addr", addr, "--rescan", "5s", root); code != exitUsage || !strings.Contains(errOut, "--rescan") {
		t.Fatalf("--rescan 5s: %d %q", code, errOut)
	}
	code, out, errOut := run3(t, "watch", "--addr", addr, "--names-only", "--rescan", "20m", "--wait", "--json", root)
	var f map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &f) != nil || f["names_only"] != true || f["indexed_count"] != float64(0) {
		t.Fatalf("watch --names-only --wait: %d %q %q", code, out, errOut)
	}
	if got := s.Folder(root); got["rescan_seconds"] != float64(1200) {
		t.Fatalf("rescan period: %v", got)
	}
}
