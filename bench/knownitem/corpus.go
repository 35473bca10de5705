package main

import (
	"context"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"trove/backend/engine/extract"
)

// file is one file of the corpus with the text Trove's extractors read
// from it (the same text Trove indexes, so the baseline sees what Trove
// sees).
type file struct {
	Rel  string // slash-separated, below the corpus root
	Text string
	Hash string // of Text; files with the same text are the same document
}

// readCorpus walks root and extracts every regular file's text, caching
// the result in cache (keyed by every file's path, size and time); it
// returns the key too.
func readCorpus(root, cache string) ([]file, string, error) {
	type entry struct {
		rel  string
		size int64
		mod  time.Time
	}
	var entries []entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		entries = append(entries, entry{filepath.ToSlash(rel), info.Size(), info.ModTime()})
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].rel < entries[j].rel })
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\t%d\t%d\n", e.rel, e.size, e.mod.UnixNano())
	}
	key := fmt.Sprintf("%x", h.Sum(nil))
	var cached struct {
		Key   string
		Files []file
	}
	if f, err := os.Open(cache); err == nil {
		err = gob.NewDecoder(f).Decode(&cached)
		f.Close()
		if err == nil && cached.Key == key {
			return cached.Files, key, nil
		}
	}
	files := make([]file, len(entries))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				files[i].Rel = entries[i].rel
				doc, err := extract.Extract(context.Background(), filepath.Join(root, entries[i].rel), extract.Options{})
				if err != nil {
					continue
				}
				files[i].Text = doc.Text
				if strings.TrimSpace(doc.Text) != "" {
					files[i].Hash = fmt.Sprintf("%x", sha256.Sum256([]byte(doc.Text)))
				}
			}
		})
	}
	for i := range entries {
		next <- i
	}
	close(next)
	wg.Wait()
	cached.Key, cached.Files = key, files
	if f, err := os.Create(cache); err == nil {
		gob.NewEncoder(f).Encode(&cached)
		f.Close()
	}
	return files, key, nil
}
