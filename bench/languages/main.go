// Command languages measures known-item search in every language the
// corpus holds: Debian's localised manual pages (de fr es it pl pt ru ja
// zh, and English as the control), rendered to text by man(1):
//
//	go run ./bench/languages [-per 80] [-n 40] [-seed 1] [-work DIR] [-recoll=false]
//
// Three kinds of query, each aimed at one page (gen.go): two distinctive
// words as written; one word in another form that no page holds, taken
// from the language's Debian word list and judged a form of the word by
// Hunspell's morphology, which no system under test uses (de fr es it pl
// pt); and 2 to 4 characters
// from inside a run of Chinese or Japanese. It reports MRR@10 per kind and
// language for Trove (POST /api/search/) and, in the same run and over the
// same text, for SQLite FTS5 with unicode61 (remove_diacritics 2), FTS5
// with trigram, and Recoll with Xapian's stemmers for every language it
// has; then the odd and the even queries apart (split half).
//
// It needs Debian's word lists (wngerman wfrench wspanish witalian wpolish
// wbrazilian), Hunspell with its dictionaries (hunspell-de-de -fr -es -it
// -pl -pt-br), the localised pages (manpages-de -fr -es -it -pl -pt-br -ru
// -ja -zh) and recoll.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

func main() {
	per := flag.Int("per", 80, "manual pages per language")
	n := flag.Int("n", 40, "queries per kind and language (even: halves for the split-half check)")
	seed := flag.Uint64("seed", 1, "generator seed")
	work := flag.String("work", "/var/tmp/trove-languages", "working folder: rendered pages, baselines, Recoll and Trove indexes")
	bin := flag.String("bin", "", "trove binary (built from this checkout when empty)")
	recoll := flag.Bool("recoll", true, "also measure Recoll")
	verbose := flag.Bool("v", false, "print the queries Trove misses")
	mode := flag.String("mode", "hybrid", "Trove's search mode: hybrid or keyword")
	flag.Parse()

	corpus := filepath.Join(*work, "corpus")
	t0 := time.Now()
	docs, err := buildCorpus(corpus, filepath.Join(*work, "rendered"), *per)
	harness.Check(err)
	fmt.Fprintf(os.Stderr, "corpus %s: %d pages in %.1f s\n", corpus, len(docs), time.Since(t0).Seconds())

	g := &generator{r: rand.New(rand.NewPCG(*seed, 0x1a6)), ix: newIndex(docs)}
	inflections := map[string]map[string][]string{}
	for _, l := range languages {
		if l.Words != "" {
			list, err := readWordList(l.Words)
			harness.Check(err)
			inflections[l.Code], err = g.inflections(l.Code, list, l.Hunspell)
			harness.Check(err)
		}
	}
	items := g.generate(*n, inflections)
	fmt.Fprintf(os.Stderr, "%d queries in %.1f s\n", len(items), time.Since(t0).Seconds())

	systems := map[string][][]string{}
	for name, tok := range map[string]string{"FTS5 unicode61": "unicode61 remove_diacritics 2", "FTS5 trigram": "trigram"} {
		systems[name] = baseline(*work, name, tok, docs, items)
	}
	if *recoll {
		systems["Recoll"] = recollRuns(*work, corpus, items)
	}
	systems["Trove"] = troveRuns(*bin, *work, corpus, items, *mode)

	order := []string{"Trove", "FTS5 unicode61", "FTS5 trigram", "Recoll"}
	report(items, systems, order)
	if *verbose {
		fmt.Println("\nQueries Trove does not answer first: kind, language, Trove's rank (0: not in the top 10), query, target")
		for i, it := range items {
			if r := rank(systems["Trove"][i], it); r != 1 {
				fmt.Printf("%-8s %s %2d  %-30q %s (%s)\n", it.Kind, it.Lang, r, it.Query, it.Target, it.How)
			}
		}
	}
}

// rank is the 1-based rank of the first page that answers it within 10,
// 0 when none.
func rank(ranked []string, it item) int {
	for i, rel := range ranked[:min(10, len(ranked))] {
		if rel == it.Target || slices.Contains(it.Accept, rel) {
			return i + 1
		}
	}
	return 0
}

// rr is the reciprocal rank of each of the items that pass keep.
func rr(items []item, ranked [][]string, keep func(item) bool) []float64 {
	var out []float64
	for i, it := range items {
		if keep(it) {
			x := 0.0
			if r := rank(ranked[i], it); r > 0 {
				x = 1 / float64(r)
			}
			out = append(out, x)
		}
	}
	return out
}

// report prints MRR@10 per kind and language, per kind, and over all,
// then the split half of each.
func report(items []item, systems map[string][][]string, order []string) {
	order = slices.DeleteFunc(slices.Clone(order), func(s string) bool { return systems[s] == nil })
	type row struct {
		label string
		keep  func(item) bool
	}
	var rows []row
	for _, k := range kinds {
		for _, l := range languages {
			rows = append(rows, row{k + " " + l.Code, func(it item) bool { return it.Kind == k && it.Lang == l.Code }})
		}
		rows = append(rows, row{k + " (all)", func(it item) bool { return it.Kind == k }})
	}
	rows = append(rows, row{"all", func(item) bool { return true }})
	header := func(title string) {
		fmt.Printf("\n%s\n| %-14s | %4s |", title, "kind", "n")
		for _, s := range order {
			fmt.Printf(" %-15s |", s)
		}
		fmt.Printf("\n|%s|------|%s\n", strings.Repeat("-", 16), strings.Repeat("-----------------|", len(order)))
	}
	header(fmt.Sprintf("Known-item search in every language: %d queries, MRR@10", len(items)))
	for _, r := range rows {
		count := len(rr(items, systems[order[0]], r.keep))
		if count == 0 {
			continue
		}
		fmt.Printf("| %-14s | %4d |", r.label, count)
		for _, s := range order {
			fmt.Printf(" %-15.3f |", ir.Mean(rr(items, systems[s], r.keep)))
		}
		fmt.Println()
	}
	header("Split half: odd queries / even queries")
	for _, r := range rows {
		if !strings.HasSuffix(r.label, "(all)") && r.label != "all" {
			continue
		}
		fmt.Printf("| %-14s | %4d |", r.label, len(rr(items, systems[order[0]], r.keep)))
		for _, s := range order {
			x := rr(items, systems[s], r.keep)
			fmt.Printf(" %.3f / %.3f   |", ir.Mean(ir.Half(x, true)), ir.Mean(ir.Half(x, false)))
		}
		fmt.Println()
	}
}

// troveRuns indexes the corpus with Trove and runs every query as a person
// types it (the default mode).
func troveRuns(bin, work, corpus string, items []item, mode string) [][]string {
	dir := filepath.Join(work, "trove")
	harness.Check(os.RemoveAll(dir))
	harness.Check(os.MkdirAll(dir, 0o755))
	srv, err := troveproc.StartBuilt(bin, dir)
	harness.Check(err)
	defer srv.Stop()
	t0 := time.Now()
	harness.Check(srv.Indexed(corpus, time.Hour))
	fmt.Fprintf(os.Stderr, "Trove indexed in %.1f s\n", time.Since(t0).Seconds())
	out := make([][]string, len(items))
	for i, it := range items {
		out[i], err = srv.Ranked(it.Query, mode, corpus, 10)
		harness.Check(err)
	}
	return out
}

// recollRuns indexes the corpus with Recoll, with Xapian's stemmers for
// the corpus's languages, and runs each query with recollq.
func recollRuns(work, corpus string, items []item) [][]string {
	conf := filepath.Join(work, "recoll")
	harness.Check(os.RemoveAll(conf))
	harness.Check(os.MkdirAll(conf, 0o755))
	harness.Check(os.WriteFile(filepath.Join(conf, "recoll.conf"), []byte(fmt.Sprintf(
		"topdirs = %s\nloglevel = 2\nindexstemminglanguages = english german french spanish italian portuguese russian\n"+
			"systemfilecommand = file -b --mime-type\n", corpus)), 0o644))
	t0 := time.Now()
	harness.Run("recollindex", "-c", conf, "-z")
	fmt.Fprintf(os.Stderr, "Recoll indexed in %.1f s\n", time.Since(t0).Seconds())
	stem := map[string]string{"en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian", "pt": "portuguese", "ru": "russian"}
	out := make([][]string, len(items))
	for i, it := range items {
		// A person's Recoll stems the query in the language they set.
		out[i] = harness.Recollq(conf, corpus, "-s", stem[it.Lang], it.Query)
	}
	return out
}
