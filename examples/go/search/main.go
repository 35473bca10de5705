// Command search is the Go client (trove/client) in a few lines: search a
// running Trove and print each result's title and path.
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
	for _, hit := range res.Results {
		fmt.Fprintf(stdout, "%s\t%s\n", hit.File.Title, hit.File.FilePath)
	}
	if len(res.Results) == 0 {
		return 1
	}
	return 0
}
