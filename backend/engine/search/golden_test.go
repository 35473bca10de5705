package search

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/ranking.golden")

// TestGoldenRanking runs the queries of testdata/golden/queries.txt over
// the small corpus beside them plus enough generated files to make the
// index large enough for pruning, and compares the top five of each with
// ranking.golden (zoekt's golden files): a change that reorders results
// shows up as a diff. Each query's expected first file must be first.
func TestGoldenRanking(t *testing.T) {
	root := filepath.Join("testdata", "golden")
	var docs []testDoc
	err := filepath.WalkDir(filepath.Join(root, "corpus"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(filepath.Join(root, "corpus"), p)
		docs = append(docs, testDoc{filepath.ToSlash(rel), []string{string(b)}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filler(commonMin)...)
	e := testIndex(t, docs)

	f, err := os.Open(filepath.Join(root, "queries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, _ := strings.Cut(line, "\t")
		sameWithWalks(t, e, q)
		got := paths(search(t, e, Request{Query: q, Limit: 5}))
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: first %v, want %s", q, got, want)
		}
		fmt.Fprintf(&out, "%s\n", q)
		for i, p := range got {
			fmt.Fprintf(&out, "  %d %s\n", i+1, p)
		}
	}
	golden := filepath.Join(root, "ranking.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("the ranking changed (go test ./backend/search -run Golden -update to accept):\n%s", diffLines(string(want), out.String()))
	}
}

// sameWithWalks checks that completing the evidence from phase one's
// counts and the files' lengths scores every result as walking every
// table again does, to the last bit.
func sameWithWalks(t *testing.T, e *Engine, q string) {
	t.Helper()
	for _, mode := range []Mode{Keyword, Hybrid} {
		req := Request{Query: q, Limit: 30, Mode: mode}
		short := search(t, e, req)
		testHookWalkAll = true
		walked := search(t, e, req)
		testHookWalkAll = false
		if len(short) != len(walked) {
			t.Errorf("%q %s: %d results, %d walking every table", q, mode, len(short), len(walked))
			continue
		}
		for i := range short {
			if short[i].File.ID != walked[i].File.ID || short[i].Score != walked[i].Score {
				t.Errorf("%q %s: at %d %s %v, walking every table %s %v", q, mode, i,
					short[i].File.Path, short[i].Score, walked[i].File.Path, walked[i].Score)
				break
			}
		}
	}
}

// filler returns n generated notes of words drawn by a Zipf law from a
// vocabulary that shares common words with the corpus, so some query words
// are common enough to be pruned.
func filler(n int) []testDoc {
	vocab := strings.Fields(`report notes plan file water layer heat budget review meeting data system
		value table list update change time year month day work home team project document letter note page
		version release package license copy free software user group test build code program function`)
	for i := range 400 {
		vocab = append(vocab, fmt.Sprintf("w%03d", i))
	}
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	out := make([]testDoc, n)
	for i := range out {
		words := make([]string, 12+r.IntN(30))
		for j := range words {
			words[j] = vocab[z.Uint64()]
		}
		out[i] = testDoc{fmt.Sprintf("filler/%04d.txt", i), []string{strings.Join(words, " ") + "."}}
	}
	return out
}

// diffLines shows the lines of b that differ from a, with their context.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n  - %s\n  + %s\n", i+1, x, y)
		}
	}
	return out.String()
}
