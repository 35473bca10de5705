package search

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestDebugExplain(t *testing.T) {
	q := os.Getenv("Q")
	if q == "" {
		t.Skip()
	}
	root := filepath.Join("testdata", "golden", "corpus")
	var docs []testDoc
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		docs = append(docs, testDoc{filepath.ToSlash(rel), []string{string(b)}})
		return nil
	})
	docs = append(docs, filler(commonMin)...)
	e := testIndex(t, docs)
	for _, r := range search(t, e, Request{Query: q, Limit: 5, Explain: true}) {
		fmt.Printf("%s score %.3f kw %.3f sem %.3f text %.3f name %.3f\n", r.File.Path, r.Score, r.Keyword, r.Semantic, r.Explain.Text, r.Explain.NameScore)
		for _, te := range r.Explain.Terms {
			fmt.Printf("   %s %v %.3f\n", te.Term, te.Fields, te.Score)
		}
		fmt.Printf("   name %v fb %v\n", r.Explain.Name, r.Explain.Feedback)
	}
}
