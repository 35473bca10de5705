// Command gen writes Trove's OpenAPI document to the file it is given
// (go generate ./backend/apidoc).
package main

import (
	"fmt"
	"os"

	"trove/backend/shell/apidoc"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	doc, err := apidoc.Generate()
	if err == nil {
		err = os.WriteFile(os.Args[1], doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
