package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"trove/backend/daemon"
	"trove/client"
	"trove/internal/poll"
)

// The examples run against a real Trove that TestMain starts on a loopback
// port over a folder of notes; TROVE_ADDR points their clients at it, as
// it would a script's.
func TestMain(m *testing.M) {
	stop, err := startForExamples()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start Trove for the examples:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// notes is the folder the examples' Trove indexes.
var notes string

func startForExamples() (stop func(), err error) {
	root, err := os.MkdirTemp("", "trove-examples-")
	if err != nil {
		return nil, err
	}
	notes = filepath.Join(root, "notes")
	for name, text := range map[string]string{
		"roof.md":   "# Roof repairs\n\nThe roof leaks above the bedroom after every storm.",
		"garden.md": "# Garden\n\nTomatoes and beans along the south fence.",
	} {
		if err := os.MkdirAll(notes, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(notes, name), []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	d, err := daemon.New(daemon.Config{Addr: "127.0.0.1:0", DataDir: filepath.Join(root, "data"), ConfigDir: filepath.Join(root, "config"),
		Version: "example", Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stop = func() {
		cancel()
		<-done
		os.RemoveAll(root)
	}
	os.Setenv("TROVE_ADDR", d.Addr())
	if err := indexNotes(); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// indexNotes watches the notes and waits until both are indexed.
func indexNotes() error {
	c := client.New("", "")
	ctx := context.Background()
	if _, err := c.Watch(ctx, notes); err != nil {
		return err
	}
	if !poll.Until(30*time.Second, func() bool {
		list, err := c.Folders(ctx)
		return err == nil && len(list) == 1 && list[0].Indexed() && list[0].IndexedCount == 2
	}) {
		return errors.New("the notes were not indexed within 30 s")
	}
	return nil
}

// Search a running Trove and print the names of the files that match.
func ExampleClient_Search() {
	c := client.New("", "") // TROVE_ADDR and TROVE_TOKEN, else 127.0.0.1:8765
	res, err := c.Search(context.Background(), client.SearchRequest{Query: "roof leak", Mode: "keyword"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, hit := range res.Results {
		fmt.Println(hit.File.Filename, "-", hit.File.Title)
	}
	// Output: roof.md - Roof repairs
}

// Save a search under a name, then run it by its id, as any client can.
func ExampleClient_SaveSearch() {
	c := client.New("", "")
	ctx := context.Background()
	saved, err := c.SaveSearch(ctx, client.SavedSearchRequest{Name: "Garden notes", Query: "tomatoes", Mode: "keyword"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.DeleteSavedSearch(ctx, saved.ID)
	res, err := c.RunSavedSearch(ctx, saved.ID, client.SavedRunRequest{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, hit := range res.Results {
		fmt.Println(saved.Name+":", hit.File.Filename)
	}
	// Output: Garden notes: garden.md
}

// Find the record of a file by its path.
func ExampleClient_Lookup() {
	c := client.New("", "")
	f, err := c.Lookup(context.Background(), filepath.Join(notes, "garden.md"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Filename, f.Status)
	// Output: garden.md indexed
}

// List the watched folders and how far indexing has come.
func ExampleClient_Folders() {
	c := client.New("", "")
	folders, err := c.Folders(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range folders {
		fmt.Printf("%s: %d of %d files indexed\n", filepath.Base(f.Path), f.IndexedCount, f.FileCount)
	}
	// Output: notes: 2 of 2 files indexed
}

// Every refusal of Trove, whichever of the API's error shapes it has,
// comes back as an *Error with the HTTP status, a stable code and, for a
// bad field, its name.
func ExampleError() {
	c := client.New("", "")
	_, err := c.Search(context.Background(), client.SearchRequest{Query: "roof", Mode: "telepathic"})
	var e *client.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Code, e.Field)
	}
	// Output: 400 INVALID_PARAMETER mode
}

// A script can tell "Trove is not running" from a refusal.
func ExampleIsUnreachable() {
	c := client.New("127.0.0.1:1", "") // nothing listens there
	_, err := c.Status(context.Background())
	fmt.Println(client.IsUnreachable(err))
	// Output: true
}
