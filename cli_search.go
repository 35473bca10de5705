package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"
)

// search runs `trove search [flags] words...` against a running Trove, so
// a desktop without a global hotkey API can bind one to a terminal command.
func search(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trove search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("TROVE_ADDR", "127.0.0.1:8765"), "address of the running Trove")
	limit := fs.Int("limit", 10, "number of results")
	asJSON := fs.Bool("json", false, "print the API's JSON answer")
	dir := fs.String("dir", "", "only files below this folder")
	mode := fs.String("mode", "hybrid", "hybrid, keyword or semantic")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		fmt.Fprintln(stderr, `usage: trove search [--json] [--limit N] [--dir FOLDER] words...`)
		return 2
	}
	body, _ := json.Marshal(map[string]any{"query": query, "limit": *limit, "directory": *dir, "mode": *mode})
	req, err := http.NewRequest("POST", "http://"+*addr+"/api/search/", bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(stderr, "trove:", err)
		return 2
	}
	req.Header.Set("Content-Type", "application/json")
	if tok := os.Getenv("TROVE_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "trove: cannot reach Trove at %s (is it running? start it with `trove serve`): %v\n", *addr, err)
		return 1
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "trove: search failed (%s): %s\n", resp.Status, strings.TrimSpace(string(raw)))
		return 1
	}
	if *asJSON {
		stdout.Write(raw)
		fmt.Fprintln(stdout)
		return 0
	}
	return printResults(raw, stdout, stderr)
}

var markRE = regexp.MustCompile(`</?mark>`)

func printResults(raw []byte, stdout, stderr io.Writer) int {
	var out struct {
		Results []struct {
			File struct {
				Path     string `json:"file_path"`
				Title    string `json:"title"`
				Modified string `json:"modified"`
			} `json:"file"`
			Score   float64 `json:"relevance_score"`
			Snippet string  `json:"snippet"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		fmt.Fprintln(stderr, "trove: unexpected answer:", err)
		return 1
	}
	if len(out.Results) == 0 {
		fmt.Fprintln(stdout, "No results.")
		return 0
	}
	bold, plain := "", ""
	if f, ok := stdout.(*os.File); ok && isTerminal(f) {
		bold, plain = "\x1b[1m", "\x1b[0m"
	}
	for i, r := range out.Results {
		fmt.Fprintf(stdout, "%2d. %s%s%s  (%.2f)\n    %s\n", i+1, bold, r.File.Title, plain, r.Score, r.File.Path)
		if r.Snippet != "" {
			snippet := markRE.ReplaceAllStringFunc(r.Snippet, func(m string) string {
				if m == "<mark>" {
					return bold
				}
				return plain
			})
			fmt.Fprintf(stdout, "    %s\n", html.UnescapeString(snippet))
		}
	}
	return 0
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
