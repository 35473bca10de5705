// Package examples runs the scripts of examples/ against a real Trove, as
// people would run them: bash with curl and jq, and Python 3 with its
// standard library.
package examples

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trove/internal/testserver"
)

// need fails the test when a tool the examples use is missing (the
// Makefile installs them: make go-test-deps).
func need(t *testing.T, tools ...string) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: apt-get install -y jq curl python3 (or make go-test-deps)", tool)
		}
	}
}

// script runs an example with the server's address and returns its
// output and exit code.
func script(t *testing.T, s *testserver.Server, name string, args ...string) (string, string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	prog := "bash"
	if strings.HasSuffix(name, ".py") {
		prog = "python3"
	}
	cmd := exec.CommandContext(ctx, prog, append([]string{name}, args...)...)
	// A pipeline's curl outlives a killed bash: end the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "TROVE_ADDR="+strings.TrimPrefix(s.URL, "http://"), "TROVE_TOKEN="+s.Token)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		// killed at the deadline: the caller's check of the code fails
		return out.String(), errOut.String() + err.Error(), code
	}
	return out.String(), errOut.String(), code
}

func corpus(t *testing.T) string {
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"roof.md", "# Roof repairs\n\nThe roof leaks above the bedroom; the tiler comes on Monday.",
		"notes/garden.txt", "Plant tomatoes after the last frost.")
	return root
}

func TestShellExamples(t *testing.T) {
	need(t, "bash", "curl", "jq")
	s := testserver.Start(t, testserver.WithToken("example-token"))
	root := corpus(t)

	// follow-updates: started first, it sees the files being indexed.
	type result struct {
		out, errOut string
		code        int
	}
	follow := make(chan result, 1)
	go func() {
		out, errOut, code := script(t, s, "shell/follow-updates.sh", "file.indexed", "2")
		follow <- result{out, errOut, code}
	}()
	testserver.Eventually(t, 10*time.Second, "the updates stream to open", func() bool { return s.API.StreamsOpen() == 1 })

	out, errOut, code := script(t, s, "shell/watch-and-wait.sh", root)
	if code != 0 || !strings.Contains(out, root+" is indexed") || !strings.Contains(errOut, "2/2") {
		t.Fatalf("watch-and-wait: %d %q %q", code, out, errOut)
	}
	// Again: an already watched folder is waited for, not an error.
	if _, errOut, code := script(t, s, "shell/watch-and-wait.sh", root); code != 0 {
		t.Fatalf("watch-and-wait again: %d %q", code, errOut)
	}

	r := <-follow
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.Contains(r.out, `"type":"file.indexed"`) || !strings.Contains(r.out, root+"/roof.md") {
		t.Fatalf("follow-updates: %d %q %q", r.code, r.out, r.errOut)
	}

	out, errOut, code = script(t, s, "shell/search.sh", "roof", "leak")
	if code != 0 || !strings.Contains(out, "\tRoof repairs\t"+root+"/roof.md") {
		t.Fatalf("search: %d %q %q", code, out, errOut)
	}
	// Files found by meaning alone are no match, as in trove search.
	if out, errOut, code := script(t, s, "shell/search.sh", "ceiling"); code != 1 || out != "" || !strings.Contains(errOut, `No files match "ceiling"`) {
		t.Fatalf("search by meaning alone: %d %q %q", code, out, errOut)
	}
	if _, errOut, code := script(t, s, "shell/search.sh"); code != 2 || !strings.Contains(errOut, "INVALID_QUERY") {
		t.Fatalf("search with no words: %d %q", code, errOut)
	}

	// With no Trove to answer, a script says so and fails.
	s.Stop()
	for _, args := range [][]string{{"shell/follow-updates.sh", "file.indexed", "1"}, {"shell/follow-updates.sh"}, {"shell/search.sh", "roof"}} {
		if out, errOut, code := script(t, s, args[0], args[1:]...); code <= 0 || !strings.Contains(errOut, "curl: (7)") {
			t.Errorf("%s with Trove stopped: %d %q %q", args, code, out, errOut)
		}
	}
}

func TestPythonExamples(t *testing.T) {
	need(t, "python3")
	s := testserver.Start(t)
	root := corpus(t)
	s.IndexDir(root, 2)

	out, errOut, code := script(t, s, "python/search.py", "tomatoes")
	if code != 0 || !strings.HasSuffix(out, "\t"+root+"/notes/garden.txt\n") {
		t.Fatalf("search.py: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := script(t, s, "python/search.py", "ceiling"); code != 1 || out != "" || !strings.Contains(errOut, `No files match "ceiling"`) {
		t.Fatalf("search.py by meaning alone: %d %q %q", code, out, errOut)
	}
	if _, errOut, code := script(t, s, "python/search.py"); code != 2 || !strings.Contains(errOut, "INVALID_QUERY") {
		t.Fatalf("search.py with no words: %d %q", code, errOut)
	}

	out, errOut, code = script(t, s, "python/export_cards.py")
	if code != 0 {
		t.Fatalf("export_cards.py: %d %q", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][0] != "path" {
		t.Fatalf("csv %q: %v", out, err)
	}
	paths := []string{rows[1][0], rows[2][0]}
	if !strings.Contains(strings.Join(paths, " "), filepath.Join(root, "roof.md")) || rows[1][1] == "" && rows[2][1] == "" {
		t.Fatalf("cards: %v", rows)
	}

	// With no Trove to answer, a script says so in one line and exits 3,
	// as trove search does.
	s.Stop()
	for _, args := range [][]string{{"python/search.py", "roof"}, {"python/export_cards.py"}} {
		out, errOut, code := script(t, s, args[0], args[1:]...)
		if code != 3 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "no Trove answers at "+s.URL) {
			t.Errorf("%s with Trove stopped: %d %q %q", args, code, out, errOut)
		}
	}
}
