// Command integrity measures the index's integrity check on an existing
// data directory (copy it first: the check runs on the file in place):
//
//	go run ./bench/integrity -data-dir DIR
//
// It prints the index's size and files, and the time of the whole check
// (SQLite quick_check, then FTS5 integrity-check of both full-text tables),
// the figure docs/decisions.md quotes for the check after start.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"trove/backend/store"
)

func main() {
	dir := flag.String("data-dir", "", "a Trove data directory")
	runs := flag.Int("runs", 3, "checks to time")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-data-dir is required")
	}
	st, err := store.Open(*dir)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	info, err := os.Stat(filepath.Join(*dir, store.FileName))
	if err != nil {
		log.Fatal(err)
	}
	stats, err := st.Stats(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("index: %d files, %.0f MB\n", stats.TotalFiles, float64(info.Size())/(1<<20))
	for i := range *runs {
		start := time.Now()
		problems, err := st.Check(context.Background())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("check %d: %v, %d problems\n", i+1, time.Since(start).Round(time.Millisecond), len(problems))
	}
}
