// Command embedquality measures the builtin embedder on a BEIR-style
// collection (corpus.jsonl, queries.jsonl, qrels.tsv): it embeds every
// document (title and text) and query, ranks documents by cosine and
// prints nDCG@10 (graded gains), Recall@100 and MRR@10, averaged over the
// queries that have judgements.
//
//	go run ./bench/embedquality [-data DIR] [-variants] [-hybrid]
//	go run ./bench/embedquality -resources
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"trove/backend/engine/embedding"
)

type doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

type collection struct {
	docs    []doc
	queries []doc
	qrels   map[string]map[string]int // query -> doc -> gain
}

func main() {
	log.SetFlags(0)
	data := flag.String("data", "/work/shared/datasets/cranfield", "BEIR collection directory")
	variants := flag.Bool("variants", false, "also measure variants of the builtin model")
	hybrid := flag.Bool("hybrid", false, "also measure exp(-cosine distance) + BM25/max(BM25) for each variant")
	res := flag.Bool("resources", false, "measure load time, memory and speed of the builtin instead")
	flag.Parse()
	if *res {
		resources(*data)
		return
	}
	c, err := load(*data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d documents, %d queries with judgements\n", filepath.Base(*data), len(c.docs), len(c.qrels))

	vs := []variant{
		{"default (semantic+lexical)", embedding.BuiltinOptions{}},
		{"semantic only", embedding.BuiltinOptions{NoLexical: true}},
	}
	if *variants {
		sem := func(o embedding.BuiltinOptions) embedding.BuiltinOptions { o.NoLexical = true; return o }
		vs = append(vs,
			variant{"sem: keep common component", sem(embedding.BuiltinOptions{KeepCommon: true})},
			variant{"sem: remove common + 1 PC", sem(embedding.BuiltinOptions{RemoveExtra: 1})},
			variant{"sem: remove common + 3 PCs", sem(embedding.BuiltinOptions{RemoveExtra: 3})},
			variant{"sem: no weights", sem(embedding.BuiltinOptions{Weighting: embedding.WeightNone})},
			variant{"sem: no weights, no removal", sem(embedding.BuiltinOptions{Weighting: embedding.WeightNone, KeepCommon: true})},
			variant{"sem: IDF weights", sem(embedding.BuiltinOptions{Weighting: embedding.WeightIDF})},
			variant{"sem: SIF a=1e-4", sem(embedding.BuiltinOptions{SIFA: 1e-4})},
			variant{"sem: SIF a=3e-3", sem(embedding.BuiltinOptions{SIFA: 3e-3})},
			variant{"sem: no n-gram vectors", sem(embedding.BuiltinOptions{NoSubwords: true})},
			variant{"sem: no inflection fallback", sem(embedding.BuiltinOptions{NoInflections: true})},
			variant{"sem: unit word vectors", sem(embedding.BuiltinOptions{UnitWords: true})},
			variant{"lexical share 0.3", embedding.BuiltinOptions{LexicalShare: 0.3}},
			variant{"lexical share 0.7", embedding.BuiltinOptions{LexicalShare: 0.7}},
			variant{"lexical 412 dims (512 in all)", embedding.BuiltinOptions{LexicalDims: 412}},
			variant{"lexical part alone (≈0.99)", embedding.BuiltinOptions{LexicalShare: 0.99}},
			variant{"IDF weights", embedding.BuiltinOptions{Weighting: embedding.WeightIDF}},
			variant{"no n-gram vectors", embedding.BuiltinOptions{NoSubwords: true}},
		)
	}
	fmt.Printf("%-32s %8s %10s %8s %8s\n", "variant", "nDCG@10", "Recall@100", "MRR@10", "dims")
	for _, v := range vs {
		b, err := embedding.NewBuiltinWith(v.opts)
		if err != nil {
			log.Fatal(err)
		}
		m := evaluate(c, b)
		fmt.Printf("%-32s %8.4f %10.4f %8.4f %8d\n", v.name, m.ndcg, m.recall, m.mrr, b.Dim())
	}
	if *hybrid {
		bm := newBM25(c)
		base := score(c, func(qi int) []float64 { return bm.scores(bm.terms(c.queries[qi].Text)) })
		fmt.Printf("\nBM25 (title x2 + body, stopwords dropped, plural stemming): nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f\n", base.ndcg, base.recall, base.mrr)
		hybridTable(c, bm, vs[0].opts, vs)
	}
}

func texts(ds []doc, withTitle bool) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		if withTitle && d.Title != "" {
			out[i] = d.Title + "\n" + d.Text
		} else {
			out[i] = d.Text
		}
	}
	return out
}

type variant struct {
	name string
	opts embedding.BuiltinOptions
}

type metrics struct{ ndcg, recall, mrr float64 }

func evaluate(c *collection, e embedding.Embedder) metrics {
	ctx := context.Background()
	dv, err := e.Embed(ctx, texts(c.docs, true))
	if err != nil {
		log.Fatal(err)
	}
	qv, err := e.Embed(ctx, texts(c.queries, false))
	if err != nil {
		log.Fatal(err)
	}
	return score(c, func(qi int) []float64 {
		s := make([]float64, len(c.docs))
		for di, d := range dv {
			s[di] = float64(cosine(qv[qi], d))
		}
		return s
	})
}

// score ranks the documents for each judged query by the scores scores
// gives and averages the metrics.
func score(c *collection, scores func(qi int) []float64) metrics {
	var m metrics
	n := 0
	order := make([]int, len(c.docs))
	for qi, q := range c.queries {
		rel := c.qrels[q.ID]
		if len(rel) == 0 {
			continue
		}
		n++
		s := scores(qi)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
		m.ndcg += ndcg(order, c.docs, rel, 10)
		m.recall += recall(order, c.docs, rel, 100)
		m.mrr += mrr(order, c.docs, rel, 10)
	}
	m.ndcg /= float64(n)
	m.recall /= float64(n)
	m.mrr /= float64(n)
	return m
}

func cosine(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s // both are unit length or zero
}

func ndcg(order []int, docs []doc, rel map[string]int, k int) float64 {
	var dcg float64
	for i := 0; i < k && i < len(order); i++ {
		dcg += float64(rel[docs[order[i]].ID]) / math.Log2(float64(i+2))
	}
	gains := make([]int, 0, len(rel))
	for _, g := range rel {
		gains = append(gains, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gains)))
	var ideal float64
	for i := 0; i < k && i < len(gains); i++ {
		ideal += float64(gains[i]) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

func recall(order []int, docs []doc, rel map[string]int, k int) float64 {
	found := 0
	for i := 0; i < k && i < len(order); i++ {
		if rel[docs[order[i]].ID] > 0 {
			found++
		}
	}
	return float64(found) / float64(len(rel))
}

func mrr(order []int, docs []doc, rel map[string]int, k int) float64 {
	for i := 0; i < k && i < len(order); i++ {
		if rel[docs[order[i]].ID] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

func load(dir string) (*collection, error) {
	c := &collection{qrels: map[string]map[string]int{}}
	var err error
	if c.docs, err = readJSONL(filepath.Join(dir, "corpus.jsonl")); err != nil {
		return nil, err
	}
	if c.queries, err = readJSONL(filepath.Join(dir, "queries.jsonl")); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "qrels.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		if line == 0 && len(fields) > 0 && fields[0] == "query-id" || len(fields) < 3 {
			continue
		}
		g, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil {
			return nil, fmt.Errorf("qrels line %d: %w", line+1, err)
		}
		if g <= 0 {
			continue
		}
		if c.qrels[fields[0]] == nil {
			c.qrels[fields[0]] = map[string]int{}
		}
		c.qrels[fields[0]][fields[1]] = g
	}
	return c, sc.Err()
}

func readJSONL(path string) ([]doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []doc
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var d doc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, d)
	}
	return out, sc.Err()
}
