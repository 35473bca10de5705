// Package troveproc runs a Trove server for the benchmarks, as a script
// would use it: the real binary, its real HTTP API on a loopback port.
package troveproc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Build compiles the trove binary of the current checkout into dir. It
// builds the module's root package wherever the bench runs from: built
// from a bench's own folder (cd bench/x && go run .), "." was the bench,
// which then started itself as the server, again and again.
func Build(dir string) (string, error) {
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(root)) == "" || strings.TrimSpace(string(root)) == os.DevNull {
		return "", fmt.Errorf("find the trove module (go env GOMOD): %v", err)
	}
	bin := filepath.Join(dir, "trove")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// BuildAt compiles the trove binary of git revision rev into dir, from a
// worktree of that revision made and removed for it.
func BuildAt(rev, dir string) (string, error) {
	src := filepath.Join(dir, "src")
	if out, err := exec.Command("git", "worktree", "add", "--detach", src, rev).CombinedOutput(); err != nil {
		return "", fmt.Errorf("git worktree add %s: %v: %s", rev, err, out)
	}
	defer exec.Command("git", "worktree", "remove", "--force", src).Run()
	bin := filepath.Join(dir, "trove")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// Server is a running trove.
type Server struct {
	Base string
	cmd  *exec.Cmd
}

var addrRE = regexp.MustCompile(`msg="trove started" addr=(\S+)`)

// Start runs bin serve with its data and config under work, and sets the
// queue cooldown to 0 so indexing starts at once.
func Start(bin, work string) (*Server, error) {
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(work, "data"), "--config-dir", filepath.Join(work, "conf"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stderr)
	last := ""
	for sc.Scan() {
		last = sc.Text()
		if m := addrRE.FindStringSubmatch(last); m != nil {
			go io.Copy(io.Discard, stderr)
			s := &Server{Base: "http://" + m[1], cmd: cmd}
			if _, err := s.Call("PUT", "/api/settings/", map[string]any{"queue.cooldown_seconds": 0}); err != nil {
				s.Stop()
				return nil, err
			}
			return s, nil
		}
	}
	cmd.Wait()
	return nil, fmt.Errorf("trove did not start: %s", last)
}

// RSS is the server process's resident memory, in bytes (Linux: VmRSS of
// /proc/PID/status).
func (s *Server) RSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", s.cmd.Process.Pid)
}

// Stop interrupts the server and waits for it.
func (s *Server) Stop() {
	s.cmd.Process.Signal(os.Interrupt)
	s.cmd.Wait()
}

// Call sends a JSON request and decodes the JSON answer; a status of 300
// or more is an error.
func (s *Server) Call(method, path string, body any) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.Base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		return m, fmt.Errorf("%s %s: %d %v", method, path, resp.StatusCode, m)
	}
	return m, nil
}

// Folder returns the watched folder's record, nil when not watched.
func (s *Server) Folder(root string) (map[string]any, error) {
	d, err := s.Call("GET", "/api/watched-directories", nil)
	if err != nil {
		return nil, err
	}
	data, _ := d["data"].(map[string]any)
	list, _ := data["directories"].([]any)
	for _, x := range list {
		if m, _ := x.(map[string]any); m["path"] == root {
			return m, nil
		}
	}
	return nil, nil
}

// Idle reports whether the queue is empty and the folder has been scanned
// (with at least want files indexed or failed, when want > 0).
func (s *Server) Idle(root string, want int) (bool, error) {
	q, err := s.Call("GET", "/api/queue/status", nil)
	if err != nil || q["total"] != float64(0) || q["merging"] == true {
		return false, err
	}
	f, err := s.Folder(root)
	if err != nil || f == nil {
		return false, err
	}
	done, _ := f["indexed_count"].(float64)
	failed, _ := f["failed_count"].(float64)
	// Names come first: a folder whose files are all recorded by name can
	// look idle for a moment before their content is queued; pending
	// counts those still waiting to be read.
	pending, _ := f["pending_count"].(float64)
	return (f["status"] == "watching" || f["status"] == "complete") && pending == 0 && int(done+failed) >= want, nil
}

// Index watches root and waits until it is indexed.
func (s *Server) Index(root string, want int, timeout time.Duration) error {
	if _, err := s.Call("POST", "/api/watch/directory", map[string]any{"path": root}); err != nil {
		return err
	}
	return s.WaitIdle(root, want, timeout)
}

// Indexed waits until root is indexed, watching it first unless the
// server already does (an index kept from an earlier run).
func (s *Server) Indexed(root string, timeout time.Duration) error {
	f, err := s.Folder(root)
	if err != nil {
		return err
	}
	if f == nil {
		return s.Index(root, 0, timeout)
	}
	return s.WaitIdle(root, 0, timeout)
}

// WaitIdle polls until root is idle (Idle), up to timeout.
func (s *Server) WaitIdle(root string, want int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		ok, err := s.Idle(root, want)
		if err != nil || ok {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s not indexed within %s", root, timeout)
}

// settleFor is how long the queue must stay empty, with no merge of the
// full-text index, for the index to be settled: longer than the server
// waits after start or after the queue drains before it looks for a merge.
const settleFor = 4 * time.Second

// settled waits until the queue has been empty and the index not merging
// for settleFor, so that timings are not taken during a merge.
func (s *Server) settled(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	quietSince := time.Now()
	for time.Since(quietSince) < settleFor {
		q, err := s.Call("GET", "/api/queue/status", nil)
		if err != nil {
			return err
		}
		if q["total"] != float64(0) || q["merging"] == true {
			quietSince = time.Now()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the index did not settle within %s", timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
	return nil
}

// Hit is one search result as the benchmarks read it.
type Hit struct {
	Path     string
	Filename string
	Score    float64
	Keyword  float64
	Semantic float64
}

// Search runs POST /api/search/ in a mode with a limit. A search stopped
// by the server's time limit (503 SEARCH_TIMEOUT, which a machine busy with
// other work can cause) is tried again a few times: the figures measure
// ranking, and one slow moment should not end a run of many minutes.
func (s *Server) Search(query, mode string, limit int) ([]Hit, error) {
	body := map[string]any{"query": query, "mode": mode, "limit": limit}
	r, err := s.Call("POST", "/api/search/", body)
	for try := 0; try < 3 && timedOut(r); try++ {
		r, err = s.Call("POST", "/api/search/", body)
	}
	if err != nil {
		return nil, err
	}
	results, _ := r["results"].([]any)
	out := make([]Hit, 0, len(results))
	for _, x := range results {
		m, _ := x.(map[string]any)
		h := Hit{}
		h.Score, _ = m["relevance_score"].(float64)
		h.Keyword, _ = m["keyword_score"].(float64)
		h.Semantic, _ = m["semantic_score"].(float64)
		// Files with the same content show once, the others as the
		// result's copies: they stand at its rank, as a person sees
		// them, and count as the separate documents they are.
		copies, _ := m["copies"].([]any)
		for _, f := range append([]any{m["file"]}, copies...) {
			f, _ := f.(map[string]any)
			c := h
			c.Path, _ = f["file_path"].(string)
			c.Filename, _ = f["filename"].(string)
			out = append(out, c)
		}
	}
	return out[:min(len(out), limit)], nil
}

// timedOut tells whether an answer is the search time limit's 503.
func timedOut(answer map[string]any) bool {
	e, _ := answer["error"].(map[string]any)
	return e["code"] == "SEARCH_TIMEOUT"
}

// Checked waits until the index has settled (no queued work, no merge)
// and the server has finished the integrity check it runs soon after
// start: the check reads the whole index file, and searches timed while
// it runs measure the check as much as the search; a merge rewrites the
// full-text tables.
func (s *Server) Checked(timeout time.Duration) error {
	if err := s.settled(timeout); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		st, err := s.Call("GET", "/api/status", nil)
		if err != nil {
			return err
		}
		ix, _ := st["index"].(map[string]any)
		if ix["checked_at"] != nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no integrity check finished within %s", timeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// StartBuilt is Start with bin, or with the current checkout's binary
// built into work when bin is empty.
func StartBuilt(bin, work string) (*Server, error) {
	if bin == "" {
		var err error
		if bin, err = Build(work); err != nil {
			return nil, err
		}
	}
	return Start(bin, work)
}

// Ranked is Search's files as paths relative to root, slash-separated.
func (s *Server) Ranked(query, mode, root string, limit int) ([]string, error) {
	hits, err := s.Search(query, mode, limit)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		rel, _ := filepath.Rel(root, h.Path)
		out = append(out, filepath.ToSlash(rel))
	}
	return out, nil
}
