// Command typegen writes the Go client's types from the API's OpenAPI
// document (go generate ./client), so that the client cannot drift from
// what the server sends: a field the server adds, renames or retypes
// changes the client at the next generate, and a test fails until it does.
//
// It reads the subset of JSON Schema that Trove's document uses (objects,
// arrays, scalars, enums, references, anyOf with null) and writes a struct
// for each schema the client names in roots and each schema they reach.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: typegen OPENAPI.json OUT.go")
		os.Exit(2)
	}
	doc, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "typegen:", err)
		os.Exit(1)
	}
	src, err := Generate(doc)
	if err == nil {
		err = os.WriteFile(os.Args[2], src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "typegen:", err)
		os.Exit(1)
	}
}
