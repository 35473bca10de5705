package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"trove/client"
)

// savedRun is `trove search --saved NAME` with the flags that apply to it.
type savedRun struct {
	addr, name    string
	words         []string
	set           map[string]bool // the flags given
	limit, offset int
	json, related bool
}

// searchOnlyFlags are search's flags that shape a new search: a saved
// search runs as it was saved.
var searchOnlyFlags = []string{"dir", "mode", "names", "sort", "order", "save"}

// searchSaved runs a saved search, found by its name in any case.
func searchSaved(r savedRun, stdout, stderr io.Writer) int {
	problem := checkSearch("saved", r.limit, r.offset, "", "")
	for _, f := range searchOnlyFlags {
		if r.set[f] {
			problem = fmt.Sprintf("--%s does not go with --saved: a saved search runs as it was saved", f)
		}
	}
	switch {
	case len(r.words) > 0:
		problem = fmt.Sprintf("--saved runs the words it saved: drop %q", strings.Join(r.words, " "))
	case strings.TrimSpace(r.name) == "":
		problem = "--saved is empty: give the name of a saved search (\"trove saved\" lists them)"
	}
	if problem != "" {
		fmt.Fprintf(stderr, "%s search: %s (run \"%s search --help\")\n", prog, problem, prog)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := client.New(r.addr, "")
	list, err := c.SavedSearches(ctx)
	if err != nil {
		return failed("search", err, stderr)
	}
	i := slices.IndexFunc(list, func(s client.SavedSearch) bool { return strings.EqualFold(s.Name, strings.TrimSpace(r.name)) })
	if i < 0 {
		fmt.Fprintf(stderr, "%s search: no saved search is named %q (\"%s saved\" lists them)\n", prog, r.name, prog)
		return exitUsage
	}
	ss := list[i]
	page := client.SavedRunRequest{Limit: &r.limit}
	if r.set["offset"] {
		page.Offset = &r.offset
	}
	res, err := c.RunSavedSearch(ctx, ss.ID, page)
	if err != nil {
		return failed("search", err, stderr)
	}
	return printSearch(res, ss.Query, ss.Sort, r.json, r.related, stdout)
}

// saveSearch keeps req under name, before it runs.
func saveSearch(ctx context.Context, c *client.Client, name string, req client.SearchRequest, stderr io.Writer) int {
	ss, err := c.SaveSearch(ctx, client.SavedSearchRequest{Name: name, Query: req.Query, Directory: req.Directory,
		Sort: req.Sort, Order: req.Order, Mode: req.Mode})
	if err != nil {
		return failed("search --save", err, stderr)
	}
	fmt.Fprintf(stderr, "Saved as %q: run it with %s search --saved %q\n", ss.Name, prog, ss.Name)
	return exitOK
}

// saved lists the saved searches.
func saved(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("saved", "[flags]\n\nThe saved searches, by name, with their queries (run one with\n\"trove search --saved NAME\"; save one with \"trove search --save NAME WORDS...\").\nExit codes: 0 listed, 1 none is saved, 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	asJSON := fs.Bool("json", false, "print the saved searches as a JSON array")
	if extra, code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	} else if len(extra) > 0 {
		return unexpected("saved", extra[0], stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := client.New(*addr, "").SavedSearches(ctx)
	if err != nil {
		return failed("saved", err, stderr)
	}
	if *asJSON {
		if code := printJSON(stdout, append([]client.SavedSearch{}, list...)); code != exitOK {
			return code
		}
	} else {
		for _, ss := range list {
			fmt.Fprintf(stdout, "%s\n    %s%s\n", ss.Name, ss.Query, savedNotes(ss))
		}
	}
	if len(list) == 0 {
		if !*asJSON {
			fmt.Fprintln(stdout, "No saved searches.")
		}
		return exitNothing
	}
	return exitOK
}

// savedNotes is what the list says of a saved search beside its query.
func savedNotes(ss client.SavedSearch) string {
	var notes []string
	if ss.Directory != nil {
		notes = append(notes, "in "+*ss.Directory)
	}
	if ss.Mode != "hybrid" {
		notes = append(notes, "mode "+ss.Mode)
	}
	if ss.Notify {
		notes = append(notes, "notifies")
	}
	if ss.Problem != "" {
		notes = append(notes, "PROBLEM: "+ss.Problem)
	}
	if len(notes) == 0 {
		return ""
	}
	return "  (" + strings.Join(notes, "; ") + ")"
}
