package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"trove/client"
)

// status prints the running Trove's status.
func status(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("status", "[flags]\n\nThe running Trove's version, uptime, folders, index and queue.\nExit codes: 0 answered, 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	asJSON := fs.Bool("json", false, "print the API's JSON answer (GET /api/status/)")
	if extra, code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	} else if len(extra) > 0 {
		return unexpected("status", extra[0], stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.New(*addr, "")
	st, err := c.Status(ctx)
	if err != nil {
		return failed("status", err, stderr)
	}
	if *asJSON {
		stdout.Write(st.Raw)
		fmt.Fprintln(stdout)
		return exitOK
	}
	q, err := c.QueueStatus(ctx)
	if err != nil {
		return failed("status", err, stderr)
	}
	fmt.Fprintf(stdout, "Trove %s at %s, up %s\n", st.Version, strings.TrimPrefix(c.Addr(), "http://"), (time.Duration(st.UptimeSeconds) * time.Second).String())
	fmt.Fprintf(stdout, "folders:   %d watched\n", st.Jobs)
	list, err := c.Folders(ctx)
	if err != nil {
		return failed("status", err, stderr)
	}
	var found, indexed, failedFiles int64
	for _, f := range list {
		found, indexed, failedFiles = found+f.FileCount, indexed+f.IndexedCount, failedFiles+f.FailedCount
	}
	fmt.Fprintf(stdout, "files:     %d indexed, %d failed, %d found\n", indexed, failedFiles, found)
	fmt.Fprintf(stdout, "index:     %s %s\n", st.Index.Status, st.Index.Message)
	fmt.Fprintf(stdout, "embedding: %s (%s) %s\n", st.Embedding.State, st.Embedding.Model, st.Embedding.Message)
	paused := ""
	if q.Paused {
		paused = " (paused)"
	}
	fmt.Fprintf(stdout, "queue:     %d waiting, %d processing%s\n", q.Total-q.Processing, q.Processing, paused)
	return exitOK
}

// folders lists the watched folders.
func folders(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("folders", "[flags]\n\nThe watched folders and their progress.\nExit codes: 0 listed, 1 no folder is watched, 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	asJSON := fs.Bool("json", false, "print the folders as a JSON array")
	if extra, code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	} else if len(extra) > 0 {
		return unexpected("folders", extra[0], stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := client.New(*addr, "").Folders(ctx)
	if err != nil {
		return failed("folders", err, stderr)
	}
	if *asJSON {
		if list == nil {
			list = []client.Folder{}
		}
		printJSON(stdout, list)
	} else {
		if len(list) == 0 {
			fmt.Fprintln(stdout, "No folders are watched.")
		}
		for _, f := range list {
			fmt.Fprintf(stdout, "%4d  %-9s %6d/%-6d %s\n", f.ID, f.Status, f.IndexedCount+f.FailedCount, f.FileCount, f.Path)
		}
	}
	if len(list) == 0 {
		return exitNothing
	}
	return exitOK
}

// watch adds a folder and, with --wait, blocks until it is indexed.
func watch(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("watch", "[flags] FOLDER\n\nWatches a folder and indexes it. With --wait, blocks until every file\nfound is processed, with progress on stderr; an already watched folder is\nwaited for too. Exit codes: 0 watched (and indexed), 1 failed or timed\nout, 2 bad arguments (or a folder Trove refuses), 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	wait := fs.Bool("wait", false, "block until the folder is indexed")
	timeout := fs.Duration("timeout", 0, "with --wait, give up after this long (0: never)")
	asJSON := fs.Bool("json", false, "print the folder as JSON when done")
	force := fs.Bool("force", false, "watch a system folder or Trove's own anyway: all it holds (keys, passwords, device files) becomes searchable")
	namesOnly := fs.Bool("names-only", false, "index file names, paths, sizes and dates only: read no file")
	rescan := fs.Duration("rescan", 0, "rescan the folder this often, at least 1m (0: as its file system needs: shares and FUSE mounts every 10m)")
	paths, code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if *rescan != 0 && (*rescan < time.Minute || *rescan > 7*24*time.Hour) {
		fmt.Fprintf(stderr, "%s watch: --rescan must be between 1m and 168h (run \"%s watch --help\")\n", prog, prog)
		return exitUsage
	}
	dir, ok := oneFolder("watch", paths, stderr)
	if !ok {
		return exitUsage
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	c := client.New(*addr, "")
	if *force {
		fmt.Fprintf(stderr, "warning: --force: if %s is a system folder or Trove's own, Trove indexes all it holds, keys and passwords included, and any client of its API can search them\n", dir)
	}
	w, err := c.WatchFolder(ctx, client.WatchRequest{Path: dir, Force: *force, NamesOnly: *namesOnly, RescanSeconds: int(rescan.Seconds())})
	var apiErr *client.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Code == "ALREADY_WATCHING" && *wait:
		fmt.Fprintf(stderr, "%s is already watched\n", dir)
	case errors.As(err, &apiErr) && apiErr.Code == "INVALID_PATH" && strings.Contains(apiErr.Message, `"force": true`):
		fmt.Fprintf(stderr, "%s watch: %v\n(--force watches it anyway, at that cost)\n", prog, apiErr)
		return exitUsage
	case err != nil:
		return failed("watch", err, stderr)
	default:
		fmt.Fprintf(stderr, "Watching %s: %d files found\n", w.Directory, w.FilesFound)
	}
	if !*wait {
		if *asJSON {
			return printJSON(stdout, w)
		}
		return exitOK
	}
	f, err := waitIndexed(ctx, c, dir, stderr)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(stderr, "%s watch: %s is not indexed after %v\n", prog, dir, *timeout)
			return exitNothing
		}
		return failed("watch", err, stderr)
	}
	if *asJSON {
		printJSON(stdout, f)
	}
	if f.Status == "error" {
		fmt.Fprintf(stderr, "%s watch: %s: %s\n", prog, dir, f.StatusMessage)
		return exitNothing
	}
	return exitOK
}

// progressEvery is how often watch --wait writes a progress line when
// stderr is not a terminal (a log, a CI job): a line per change would be
// thousands for a large folder.
var progressEvery = 10 * time.Second

// waitIndexed polls the folders until the one that covers dir is indexed,
// writing progress to stderr: one updated line on a terminal, else a line
// at the start, one every progressEvery while it changes, and the last.
func waitIndexed(ctx context.Context, c *client.Client, dir string, stderr io.Writer) (client.Folder, error) {
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = isTerminal(f)
	}
	last, shown := "", ""
	var shownAt time.Time
	for delay := 50 * time.Millisecond; ; delay = min(delay*2, time.Second) {
		list, err := c.Folders(ctx)
		if err != nil {
			return client.Folder{}, err
		}
		f, found := covering(list, dir)
		if !found {
			return client.Folder{}, fmt.Errorf("%s is not watched", dir)
		}
		line := fmt.Sprintf("%s %s: %d/%d files", f.Status, f.Path, f.IndexedCount+f.FailedCount, f.FileCount)
		if f.FailedCount > 0 {
			line += fmt.Sprintf(" (%d failed)", f.FailedCount)
		}
		done := f.Indexed() || f.Status == "error"
		if line != last {
			last = line
			delay = 50 * time.Millisecond
		}
		switch {
		case tty && line != shown:
			fmt.Fprintf(stderr, "\r\x1b[K%s", line)
			shown = line
		case !tty && line != shown && (shown == "" || done || time.Since(shownAt) >= progressEvery):
			fmt.Fprintln(stderr, line)
			shown, shownAt = line, time.Now()
		}
		if done {
			if tty {
				fmt.Fprintln(stderr)
			}
			return f, nil
		}
		select {
		case <-ctx.Done():
			return f, ctx.Err()
		case <-time.After(delay): // polling interval: the folder's state decides
		}
	}
}

// covering is the watched folder that is dir or holds it.
func covering(list []client.Folder, dir string) (client.Folder, bool) {
	for _, f := range list {
		if f.Path == dir || strings.HasPrefix(dir, strings.TrimSuffix(f.Path, "/")+"/") {
			return f, true
		}
	}
	return client.Folder{}, false
}

// unwatch stops watching a folder, named by its path.
func unwatch(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("unwatch", "[flags] FOLDER\n\nStops watching a folder and removes its files from the index (the files\non disk are not touched).\nExit codes: 0 done, 1 the folder is not watched, 2 bad arguments, 3 cannot reach Trove.", stdout)
	addr := addrFlag(fs)
	paths, code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	abs, ok := oneFolder("unwatch", paths, stderr)
	if !ok {
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.New(*addr, "")
	list, err := c.Folders(ctx)
	if err != nil {
		return failed("unwatch", err, stderr)
	}
	for _, f := range list {
		if f.Path == abs {
			if err := c.Unwatch(ctx, f.ID); err != nil {
				return failed("unwatch", err, stderr)
			}
			fmt.Fprintf(stdout, "no longer watching %s\n", abs)
			return exitOK
		}
	}
	fmt.Fprintf(stderr, "%s unwatch: %s is not a watched folder (%s folders lists them)\n", prog, abs, prog)
	return exitNothing
}

// oneFolder is the one folder argument of cmd, absolute; false (having
// said why) when there is not exactly one, or it is empty.
func oneFolder(cmd string, paths []string, stderr io.Writer) (string, bool) {
	if len(paths) != 1 {
		fmt.Fprintf(stderr, "%s %s: give one folder (run \"%s %s --help\")\n", prog, cmd, prog, cmd)
		return "", false
	}
	if problem := emptyArg("FOLDER", paths[0]); problem != "" {
		fmt.Fprintf(stderr, "%s %s: %s (run \"%s %s --help\")\n", prog, cmd, problem, prog, cmd)
		return "", false
	}
	dir, err := absDir(paths[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %s: %v\n", prog, cmd, paths[0], err)
		return "", false
	}
	return dir, true
}

func unexpected(cmd, arg string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s %s: unexpected argument %q (run \"%s %s --help\")\n", prog, cmd, arg, prog, cmd)
	return exitUsage
}

func printJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return exitNothing
	}
	return exitOK
}
