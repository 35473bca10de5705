// Command knownitem measures the everyday use of desktop search, finding a
// file one has seen, on the benchmark corpus of shared/bench/make-corpus.sh:
//
//	go run ./bench/knownitem [-corpus /var/tmp/corpus20k] [-files 20000] [-n 300] [-seed 1] [-work DIR] [-v] [-json FILE]
//
// It generates n queries of each kind (gen.go: words recalled from the
// text, the name or part of it, part of the name plus a word, a misspelt
// word, a passage pasted from the text, a phrase that stands in it) and
// reports MRR@10, success@1 and success@10 per kind for Trove
// (hybrid and keyword-only, through POST /api/search/) and, in the same
// run, for plain FTS5 BM25 over the same files (the relative path as the
// title, weight 2, and the text Trove's extractors read, weight 1; package
// fts5base) and for Recoll (recollq, with the tuned configuration of
// shared/bench/recoll). A file with the same text as the target counts as
// found. The queries are written to WORK/queries.json for bench/tune;
// -json writes each query's rank in every system, for comparing two runs
// query by query.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"trove/bench/internal/fts5base"
	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

func main() {
	corpus := flag.String("corpus", "/var/tmp/corpus20k", "benchmark corpus (built with make-corpus.sh when missing)")
	files := flag.Int("files", 20000, "corpus size, when it must be built")
	n := flag.Int("n", 300, "queries per kind (300: halves of 150 for the split-half check)")
	seed := flag.Uint64("seed", 1, "generator seed")
	work := flag.String("work", "/var/tmp/trove-knownitem", "working folder: text cache, baseline, Recoll and Trove indexes (reused)")
	bin := flag.String("bin", "", "trove binary (built from this checkout when empty)")
	recoll := flag.Bool("recoll", true, "also measure Recoll")
	reindex := flag.Bool("reindex", false, "index again with Trove even when WORK holds an index")
	verbose := flag.Bool("v", false, "print the queries Trove misses")
	jsonOut := flag.String("json", "", "write each query's rank in every system to this file")
	flag.Parse()

	shared := ir.SharedDir()
	*corpus, _ = filepath.Abs(*corpus)
	if _, err := os.Stat(*corpus); err != nil {
		harness.Run("bash", filepath.Join(shared, "bench", "make-corpus.sh"), *corpus, strconv.Itoa(*files))
	}
	harness.Check(os.MkdirAll(*work, 0o755))
	t0 := time.Now()
	fs, key, err := readCorpus(*corpus, filepath.Join(*work, "texts.gob"))
	harness.Check(err)
	fmt.Fprintf(os.Stderr, "corpus %s: %d files read in %.1f s\n", *corpus, len(fs), time.Since(t0).Seconds())

	g := &generator{r: rand.New(rand.NewPCG(*seed, 0x4b1)), s: collect(fs), files: fs}
	items := g.generate(*n)
	b, _ := json.MarshalIndent(items, "", " ")
	harness.Check(os.WriteFile(filepath.Join(*work, "queries.json"), b, 0o644))

	systems := map[string][][]string{} // system -> per item, ranked relative paths
	systems["FTS5 BM25"] = baseline(fs, items, *work, key)
	if *recoll {
		systems["Recoll"] = recollRuns(shared, *work, *corpus, items)
	}
	hybrid, keyword := troveRuns(*bin, *work, *corpus, items, *reindex)
	systems["Trove hybrid"], systems["Trove keyword"] = hybrid, keyword

	report(items, systems, []string{"Trove hybrid", "Trove keyword", "FTS5 BM25", "Recoll"})
	if *jsonOut != "" {
		harness.Check(writeRanks(*jsonOut, items, systems))
	}
	if *verbose {
		fmt.Println("\nQueries Trove (hybrid) does not answer first: Trove's rank, FTS5's rank (0: not in the top 10)")
		for i, it := range items {
			if r := rank(systems["Trove hybrid"][i], it); r != 1 {
				q := it.Query
				if runes := []rune(q); len(runes) > 60 {
					q = string(runes[:57]) + "..."
				}
				fmt.Printf("%-9s %2d %2d  %-40q %s (%s)\n", it.Kind, r, rank(systems["FTS5 BM25"][i], it), q, it.Target, it.How)
			}
		}
	}
}

// writeRanks writes, for each query, its item and its rank in each system
// (0: not in the top 10), for comparing runs query by query.
func writeRanks(path string, items []item, systems map[string][][]string) error {
	type row struct {
		item
		Ranks map[string]int `json:"ranks"`
	}
	rows := make([]row, len(items))
	for i, it := range items {
		rows[i] = row{it, map[string]int{}}
		for s, runs := range systems {
			rows[i].Ranks[s] = rank(runs[i], it)
		}
	}
	b, err := json.MarshalIndent(rows, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// rank is the 1-based rank of the first correct file within 10, 0 when
// none.
func rank(ranked []string, it item) int {
	for i, rel := range ranked[:min(10, len(ranked))] {
		if rel == it.Target || slices.Contains(it.Equals, rel) {
			return i + 1
		}
	}
	return 0
}

func report(items []item, systems map[string][][]string, order []string) {
	fmt.Printf("\nKnown-item search: %d queries (MRR@10 / success@1 / success@10)\n", len(items))
	fmt.Printf("%-10s %5s", "kind", "n")
	for _, s := range order {
		if _, ok := systems[s]; ok {
			fmt.Printf("  %-22s", s)
		}
	}
	fmt.Println()
	for _, kind := range append(kinds, "all") {
		count := 0
		line := ""
		for _, s := range order {
			runs, ok := systems[s]
			if !ok {
				continue
			}
			var mrr, s1, s10 float64
			count = 0
			for i, it := range items {
				if kind != "all" && it.Kind != kind {
					continue
				}
				count++
				if r := rank(runs[i], it); r > 0 {
					mrr += 1 / float64(r)
					s10++
					if r == 1 {
						s1++
					}
				}
			}
			c := float64(max(count, 1))
			line += fmt.Sprintf("  %.3f / %.3f / %.3f   ", mrr/c, s1/c, s10/c)
		}
		fmt.Printf("%-10s %5d%s\n", kind, count, line)
	}
	halves(items, systems, order)
}

// halves prints MRR@10 on the odd and the even queries of each kind, as
// bench/tune splits them: variants are chosen on the odd ones, so the even
// ones are the honest figure.
func halves(items []item, systems map[string][][]string, order []string) {
	fmt.Printf("\nMRR@10 split half (odd queries choose / even queries report)\n%-10s", "kind")
	for _, s := range order {
		if _, ok := systems[s]; ok {
			fmt.Printf("  %-15s", s)
		}
	}
	fmt.Println()
	for _, kind := range append(kinds, "all") {
		fmt.Printf("%-10s", kind)
		for _, s := range order {
			runs, ok := systems[s]
			if !ok {
				continue
			}
			var rr []float64
			for i, it := range items {
				if kind == "all" || it.Kind == kind {
					x := 0.0
					if r := rank(runs[i], it); r > 0 {
						x = 1 / float64(r)
					}
					rr = append(rr, x)
				}
			}
			fmt.Printf("  %.3f / %.3f   ", ir.Mean(ir.Half(rr, true)), ir.Mean(ir.Half(rr, false)))
		}
		fmt.Println()
	}
}

// baseline ranks with FTS5 BM25 over the same text.
func baseline(fs []file, items []item, work, key string) [][]string {
	docs := make([]fts5base.Doc, 0, len(fs))
	for _, f := range fs {
		docs = append(docs, fts5base.Doc{ID: f.Rel, Title: f.Rel, Body: f.Text})
	}
	t0 := time.Now()
	ix, err := fts5base.Build(work, docs, key)
	harness.Check(err)
	defer ix.Close()
	fmt.Fprintf(os.Stderr, "FTS5 baseline built in %.1f s\n", time.Since(t0).Seconds())
	out := make([][]string, len(items))
	for i, it := range items {
		out[i], err = ix.Search(it.Query, 10)
		harness.Check(err)
	}
	return out
}

// troveRuns indexes the corpus with Trove (unless WORK/trove holds the
// index already) and runs every query in hybrid and keyword mode.
func troveRuns(bin, work, corpus string, items []item, reindex bool) (hybrid, keyword [][]string) {
	dir := filepath.Join(work, "trove")
	if reindex {
		harness.Check(os.RemoveAll(dir))
	}
	harness.Check(os.MkdirAll(dir, 0o755))
	srv, err := troveproc.StartBuilt(bin, dir)
	harness.Check(err)
	defer srv.Stop()
	t0 := time.Now()
	harness.Check(srv.Indexed(corpus, 2*time.Hour))
	fmt.Fprintf(os.Stderr, "Trove index ready in %.1f s\n", time.Since(t0).Seconds())
	ranked := func(mode string) [][]string {
		out := make([][]string, len(items))
		for i, it := range items {
			out[i], err = srv.Ranked(it.Query, mode, corpus, 10)
			harness.Check(err)
		}
		return out
	}
	return ranked("hybrid"), ranked("keyword")
}

// recollRuns indexes the corpus with Recoll (tuned as in
// shared/bench/recoll, once per corpus) and runs each query with recollq.
func recollRuns(shared, work, corpus string, items []item) [][]string {
	conf := filepath.Join(work, "recoll")
	stamp := filepath.Join(conf, "indexed-"+filepath.Base(corpus))
	if _, err := os.Stat(stamp); err != nil {
		harness.Check(os.RemoveAll(conf))
		harness.Check(os.MkdirAll(conf, 0o755))
		harness.Check(os.WriteFile(filepath.Join(conf, "recoll.conf"), []byte(fmt.Sprintf(
			"topdirs = %s\nloglevel = 2\naspellLanguage = en\nsystemfilecommand = file -b --mime-type\n", corpus)), 0o644))
		mm, err := os.ReadFile(filepath.Join(shared, "bench", "recoll", "mimemap.tuned"))
		harness.Check(err)
		harness.Check(os.WriteFile(filepath.Join(conf, "mimemap"), mm, 0o644))
		t0 := time.Now()
		harness.Run("recollindex", "-c", conf, "-z")
		fmt.Fprintf(os.Stderr, "Recoll indexed in %.1f s\n", time.Since(t0).Seconds())
		harness.Check(os.WriteFile(stamp, nil, 0o644))
	}
	out := make([][]string, len(items))
	for i, it := range items {
		out[i] = harness.Recollq(conf, corpus, it.Query)
	}
	return out
}
