package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"trove/client"
)

// search runs `trove search [flags] words...` against a running Trove, for
// scripts and for a desktop hotkey bound to a terminal command.
func search(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("search", "[flags] WORDS...\n\nSearches the running Trove. Flags may come before or after the words; a\nword that starts with - goes after --. When no file holds the words, the\nfiles found by meaning alone are no match (\"No files match\"; --related\nlists them). Exit codes: 0 found, 1 no file matches, 2 bad arguments (or a\nquery Trove refuses), 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	limit := fs.Int("limit", 10, "number of results (1-500)")
	offset := fs.Int("offset", 0, "results to skip, for the next page")
	sortBy := fs.String("sort", "", "order results by relevance (default), modified, name, size, folder or kind")
	order := fs.String("order", "", "asc or desc (default: desc, but asc for --sort name)")
	asJSON := fs.Bool("json", false, "print the API's JSON answer (POST /api/search/)")
	dir := fs.String("dir", "", "only files below this folder (relative paths are resolved)")
	mode := fs.String("mode", "hybrid", "hybrid, keyword, semantic or names")
	names := fs.Bool("names", false, "search file names and paths only (mode names): globs such as *.go, a mistyped name corrected")
	related := fs.Bool("related", false, "when no file matches the words, list the files found by meaning alone")
	saved := fs.String("saved", "", "run the saved search of this name (any case) instead of WORDS (\"trove saved\" lists them)")
	saveAs := fs.String("save", "", "save the search under this name for every client, then run it")
	words, code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["saved"] {
		return searchSaved(savedRun{addr: *addr, name: *saved, words: words, set: set, limit: *limit, offset: *offset,
			json: *asJSON, related: *related}, stdout, stderr)
	}
	query := strings.Join(words, " ")
	req := client.SearchRequest{Query: query, Limit: *limit, Mode: *mode}
	if *names {
		req.Mode = "names"
	}
	if problem := checkSearch(query, *limit, *offset, *sortBy, *order); problem != "" {
		fmt.Fprintf(stderr, "%s search: %s (run \"%s search --help\")\n", prog, problem, prog)
		return exitUsage
	}
	// The paging and sort fields go out only when asked for, so a Trove
	// that predates them answers the rest.
	if set["offset"] {
		req.Offset = *offset
	}
	if set["sort"] {
		req.Sort = *sortBy
	}
	if set["order"] {
		req.Order = *order
	}
	if set["dir"] {
		if problem := emptyArg("--dir", *dir); problem != "" {
			fmt.Fprintf(stderr, "%s search: %s (run \"%s search --help\")\n", prog, problem, prog)
			return exitUsage
		}
		abs, err := absDir(*dir)
		if err != nil {
			fmt.Fprintf(stderr, "%s search: --dir %s: %v\n", prog, *dir, err)
			return exitUsage
		}
		req.Directory = abs
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := client.New(*addr, "")
	if set["save"] {
		if code := saveSearch(ctx, c, *saveAs, req, stderr); code != exitOK {
			return code
		}
	}
	res, err := c.Search(ctx, req)
	if err != nil {
		return failed("search", err, stderr)
	}
	return printSearch(res, query, *sortBy, *asJSON, *related, stdout)
}

// printSearch prints a search's answer as --json, --related and the sort
// ask, and returns the exit code for it.
func printSearch(res *client.SearchResponse, query, sortBy string, asJSON, related bool, stdout io.Writer) int {
	switch {
	case asJSON:
		stdout.Write(res.Raw)
		fmt.Fprintln(stdout)
	case !res.Matched():
		printNoMatch(res, query, related, stdout)
	default:
		printResults(res, sortBy, stdout)
	}
	if !res.Matched() {
		return exitNothing
	}
	return exitOK
}

// printNoMatch says that no file matches the query, as the web UI does,
// and with related, lists the files found by meaning alone under a heading
// of their own.
func printNoMatch(res *client.SearchResponse, query string, related bool, stdout io.Writer) {
	fmt.Fprintf(stdout, "No files match %q.\n", query)
	if !related || len(res.Results) == 0 {
		return
	}
	fmt.Fprintln(stdout, "\nRelated by meaning (none of them holds the words):")
	printResults(res, "", stdout)
}

// addrFlag is --addr of the commands that call a running Trove.
func addrFlag(fs *flags) *string {
	return fs.String("addr", envOr("TROVE_ADDR", client.DefaultAddr), "address of the running Trove (TROVE_ADDR)")
}

// checkSearch is what can be said about a search before asking Trove.
func checkSearch(query string, limit, offset int, sortBy, order string) string {
	switch {
	case strings.TrimSpace(query) == "":
		return "no words to search for"
	case limit < 1:
		return fmt.Sprintf("--limit must be at least 1, got %d", limit)
	case offset < 0:
		return fmt.Sprintf("--offset must not be negative, got %d", offset)
	case sortBy != "" && !slices.Contains([]string{"relevance", "modified", "name", "size", "folder", "kind"}, sortBy):
		return fmt.Sprintf("--sort %q: use relevance, modified, name, size, folder or kind", sortBy)
	case order != "" && order != "asc" && order != "desc":
		return fmt.Sprintf("--order %q: use asc or desc", order)
	}
	return ""
}

// emptyArg is what is wrong with a path argument that is empty or only
// blanks, or "". A script passes one for an unset variable ("$DIR"), and
// it must not mean the current folder (watch, serve) or every folder
// (search --dir).
func emptyArg(name, value string) string {
	if strings.TrimSpace(value) == "" {
		return name + " is empty (an unset variable?): give a path"
	}
	return ""
}

// absDir resolves a folder given on the command line as Trove stores
// folders: absolute, with symbolic links resolved.
func absDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// failed reports an error of a call to Trove in one readable line and
// returns the exit code for it.
func failed(what string, err error, stderr io.Writer) int {
	var apiErr *client.Error
	switch {
	case client.IsUnreachable(err):
		fmt.Fprintf(stderr, "%s: %v\n(is Trove running? start it with `%s serve`, or set --addr or TROVE_ADDR)\n", prog, err, prog)
		return exitUnreachable
	case errors.As(err, &apiErr) && apiErr.Status/100 == 4:
		fmt.Fprintf(stderr, "%s %s: %v\n", prog, what, apiErr)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "%s %s failed: %v\n", prog, what, err)
		return exitNothing
	}
}

var markRE = regexp.MustCompile(`</?mark>`)

// printResults lists results: the title, or the file name when sorted by
// name (the order the list is in), with the size when sorted by size.
func printResults(res *client.SearchResponse, sortBy string, stdout io.Writer) {
	bold, plain := "", ""
	if f, ok := stdout.(*os.File); ok && isTerminal(f) {
		bold, plain = "\x1b[1m", "\x1b[0m"
	}
	if len(res.Fields) > 0 {
		fields := make([]string, len(res.Fields))
		for i, f := range res.Fields {
			fields[i] = f.Field + ":" + f.Value
		}
		fmt.Fprintf(stdout, "Fields: %s\n", strings.Join(fields, "  "))
	}
	for i, r := range res.Results {
		heading, extra := r.File.Title, fmt.Sprintf("%.2f", r.RelevanceScore)
		switch sortBy {
		case "name":
			heading = r.File.Filename
		case "size":
			extra = humanSize(r.File.Size)
		}
		fmt.Fprintf(stdout, "%2d. %s%s%s  (%s)\n    %s%s\n", i+1, bold, heading, plain, extra, r.File.FilePath, pageOf(r.Page))
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
	if res.Total > len(res.Results) {
		fmt.Fprintf(stdout, "(%d of %d; --offset %d for more)\n", len(res.Results), res.Total, len(res.Results))
	}
	if res.Notice != "" {
		fmt.Fprintf(stdout, "Note: %s\n", res.Notice)
	}
}

// pageOf is " p. 12" beside a result whose snippet is on page 12, and ""
// for a file without pages.
func pageOf(page int) string {
	if page < 1 {
		return ""
	}
	return fmt.Sprintf(" p. %d", page)
}

// humanSize writes a size in bytes as people read it: 512 B, 1.5 KB,
// 20 MB (powers of 1024, as the query language's size: reads them).
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + []string{"KB", "MB", "GB", "TB"}[i]
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
