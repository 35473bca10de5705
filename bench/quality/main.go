// Command quality measures Trove's ranking on every BEIR-format test
// collection in a folder, through the real pipeline and the real API, and
// in the same run an FTS5 BM25 baseline over the same documents:
//
//	go run ./bench/quality [-datasets ../shared/datasets] [-only cranfield,med] [-keep DIR] [-json FILE]
//	go run ./bench/quality -report FILE   (the tables again from a -json file)
//
// Every document becomes a Markdown file (its title as the heading); a
// trove server per collection indexes the folder and answers every query
// through POST /api/search/ (limit 100) in each mode. The baseline is
// SQLite FTS5 bm25() over (title, body) with weights 2 and 1, porter
// stemming, and the OR of the query's non-stopword words (package
// fts5base). It prints nDCG@10 (graded, linear gain), Recall@100 and
// MRR@10 per collection and mode, the ratio of hybrid to the baseline, and
// the split-half check: the ratio on the odd and on the even queries, the
// even half with a paired bootstrap 95% interval (variants are chosen on
// the odd half with bench/tune, so the even half is the honest figure).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trove/bench/internal/fts5base"
	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
	"trove/bench/internal/troveproc"
)

var modes = []string{"keyword", "semantic", "hybrid"}

func main() {
	datasets := flag.String("datasets", filepath.Join(ir.SharedDir(), "datasets"), "folder of BEIR collections (one per subfolder)")
	only := flag.String("only", "", "comma-separated collection names (default: all)")
	bin := flag.String("bin", "", "trove binary (built from this checkout when empty)")
	keep := flag.String("keep", "", "keep corpora and indexes in this folder (for bench/tune)")
	jsonOut := flag.String("json", "", "write per-query measures to this file")
	again := flag.String("report", "", "print the tables of a -json file and exit")
	flag.Parse()
	if *again != "" {
		b, err := os.ReadFile(*again)
		harness.Check(err)
		var runs []run
		harness.Check(json.Unmarshal(b, &runs))
		report(runs)
		return
	}

	dirs, err := ir.Collections(*datasets)
	harness.Check(err)
	work := *keep
	if work == "" {
		tmp, err := os.MkdirTemp("", "trove-quality-")
		harness.Check(err)
		defer os.RemoveAll(tmp)
		work = tmp
	}
	work, _ = filepath.Abs(work)
	if *bin == "" {
		*bin, err = troveproc.Build(work)
		harness.Check(err)
	}
	var runs []run
	for _, dir := range dirs {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), filepath.Base(dir)) {
			continue
		}
		c, err := ir.Load(dir)
		harness.Check(err)
		runs = append(runs, measure(c, *bin, filepath.Join(work, c.Name)))
	}
	report(runs)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(runs, "", " ")
		harness.Check(os.WriteFile(*jsonOut, b, 0o644))
	}
}

// run is one collection's measures: per system, per query.
type run struct {
	Name    string
	Docs    int
	Queries []string
	Systems map[string]*ir.Scores // "fts5", "keyword", "semantic", "hybrid"
	Latency map[string]time.Duration
}

func measure(c *ir.Collection, bin, work string) run {
	harness.Check(os.RemoveAll(work))
	corpus := filepath.Join(work, "corpus")
	harness.Check(os.MkdirAll(corpus, 0o755))
	var base []fts5base.Doc
	for _, d := range c.Docs {
		body := d.Text
		if d.Title != "" {
			body = "# " + d.Title + "\n\n" + d.Text
		}
		harness.Check(os.WriteFile(filepath.Join(corpus, d.ID+".md"), []byte(body+"\n"), 0o644))
		base = append(base, fts5base.Doc{ID: d.ID, Title: d.Title, Body: d.Text})
	}
	r := run{Name: c.Name, Docs: len(c.Docs), Systems: map[string]*ir.Scores{}, Latency: map[string]time.Duration{}}
	for _, q := range c.Queries {
		r.Queries = append(r.Queries, q.ID)
	}

	ix, err := fts5base.Build(work, base)
	harness.Check(err)
	r.Systems["fts5"] = &ir.Scores{}
	for _, q := range c.Queries {
		ranked, err := ix.Search(q.Text, 100)
		harness.Check(err)
		r.Systems["fts5"].Add(ranked, c.Qrels[q.ID])
	}
	ix.Close()

	srv, err := troveproc.Start(bin, work)
	harness.Check(err)
	defer srv.Stop()
	t0 := time.Now()
	harness.Check(srv.Index(corpus, len(c.Docs), time.Hour))
	fmt.Fprintf(os.Stderr, "%s: %d documents indexed in %.1f s\n", c.Name, len(c.Docs), time.Since(t0).Seconds())
	for _, mode := range modes {
		s := &ir.Scores{}
		start := time.Now()
		for _, q := range c.Queries {
			hits, err := srv.Search(q.Text, mode, 100)
			harness.Check(err)
			ranked := make([]string, len(hits))
			for i, h := range hits {
				ranked[i] = strings.TrimSuffix(h.Filename, ".md")
			}
			s.Add(ranked, c.Qrels[q.ID])
		}
		r.Latency[mode] = time.Since(start) / time.Duration(len(c.Queries))
		r.Systems[mode] = s
	}
	return r
}

func report(runs []run) {
	for _, r := range runs {
		fmt.Printf("\n%s: %d documents, %d judged queries\n", r.Name, r.Docs, len(r.Queries))
		fmt.Printf("  %-10s %8s %8s %8s %10s\n", "system", "nDCG@10", "R@100", "MRR@10", "mean ms")
		for _, name := range append([]string{"fts5"}, modes...) {
			s := r.Systems[name]
			label := name
			if name == "fts5" {
				label = "FTS5 BM25"
			}
			ms := "-"
			if d, ok := r.Latency[name]; ok {
				ms = fmt.Sprintf("%.1f", float64(d.Microseconds())/1000)
			}
			fmt.Printf("  %-10s %8.4f %8.4f %8.4f %10s\n", label, ir.Mean(s.NDCG), ir.Mean(s.Recall), ir.Mean(s.RR), ms)
		}
	}
	fmt.Printf("\nnDCG@10 ratio to FTS5 BM25 (split half: odd queries choose, even queries report; 95%% paired bootstrap interval)\n")
	fmt.Printf("%-10s %8s %8s %8s %8s %8s %17s %24s\n", "collection", "keyword", "semantic", "hybrid", "odd", "even", "even 95% CI", "hybrid-keyword even [CI]")
	var sum float64
	for _, r := range runs {
		base := r.Systems["fts5"].NDCG
		ratio := func(mode string) float64 { return ir.Mean(r.Systems[mode].NDCG) / ir.Mean(base) }
		h := r.Systems["hybrid"].NDCG
		k := r.Systems["keyword"].NDCG
		odd := ir.Mean(ir.Half(h, true)) / ir.Mean(ir.Half(base, true))
		even := ir.Mean(ir.Half(h, false)) / ir.Mean(ir.Half(base, false))
		lo, hi := ir.RatioCI(ir.Half(h, false), ir.Half(base, false), 2000, 1)
		dlo, dhi := ir.DiffCI(ir.Half(h, false), ir.Half(k, false), 2000, 2)
		diff := ir.Mean(ir.Half(h, false)) - ir.Mean(ir.Half(k, false))
		fmt.Printf("%-10s %8.3f %8.3f %8.3f %8.3f %8.3f   [%5.3f, %5.3f]   %+6.3f [%+6.3f, %+6.3f]\n",
			r.Name, ratio("keyword"), ratio("semantic"), ratio("hybrid"), odd, even, lo, hi, diff, dlo, dhi)
		sum += ratio("hybrid")
	}
	if len(runs) > 0 {
		fmt.Printf("mean hybrid ratio over %d collections: %.3f\n", len(runs), sum/float64(len(runs)))
	}
	halves(runs)
}

// halves prints each half's nDCG@10 and Recall@100 for the baseline and
// Trove, and the mean ratio per half: the odd half is where variants were
// chosen, the even half the held-out figure.
func halves(runs []run) {
	fmt.Printf("\nPer half: nDCG@10 and Recall@100, FTS5 BM25 against Trove hybrid (and keyword)\n")
	fmt.Printf("%-10s %-5s %4s %9s %9s %9s %7s %9s %9s\n", "collection", "half", "n", "FTS5 nDCG", "hybrid", "keyword", "ratio", "FTS5 R100", "hybrid")
	sums := map[bool]float64{}
	for _, r := range runs {
		for _, odd := range []bool{true, false} {
			m := func(sys string, x func(*ir.Scores) []float64) float64 {
				return ir.Mean(ir.Half(x(r.Systems[sys]), odd))
			}
			ndcg := func(s *ir.Scores) []float64 { return s.NDCG }
			recall := func(s *ir.Scores) []float64 { return s.Recall }
			ratio := m("hybrid", ndcg) / m("fts5", ndcg)
			sums[odd] += ratio
			half := "even"
			if odd {
				half = "odd"
			}
			fmt.Printf("%-10s %-5s %4d %9.4f %9.4f %9.4f %7.3f %9.4f %9.4f\n", r.Name, half, len(ir.Half(r.Systems["fts5"].NDCG, odd)),
				m("fts5", ndcg), m("hybrid", ndcg), m("keyword", ndcg), ratio, m("fts5", recall), m("hybrid", recall))
		}
	}
	if len(runs) > 0 {
		n := float64(len(runs))
		fmt.Printf("mean hybrid nDCG@10 ratio: odd %.3f, even %.3f\n", sums[true]/n, sums[false]/n)
	}
}
