// Command search is the Go client (trove/client) in a few lines: search a
// running Trove and print each result's title and path. Files found by
// meaning alone are no match: it says "No files match" and exits 1.
//
//	go run ./examples/go/search roof leak
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"trove/client"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(words []string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.New("", "") // TROVE_ADDR, TROVE_TOKEN
	res, err := c.Search(ctx, client.SearchRequest{Query: strings.Join(words, " "), Limit: 10})
	if err != nil {
		fmt.Fprintln(stderr, "search:", err) // e.g. "query: must not be empty (INVALID_QUERY)"
		return 2
	}
	if !res.Matched() {
		fmt.Fprintf(stderr, "No files match %q\n", strings.Join(words, " "))
		return 1
	}
	for _, hit := range res.Results {
		fmt.Fprintf(stdout, "%s\t%s\n", hit.File.Title, hit.File.FilePath)
	}
	return 0
}
