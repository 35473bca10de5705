package main

import (
	"context"
	"fmt"
	"log"
	"math"
	"strings"
	"unicode"

	"trove/backend/engine/embedding"
)

// A small BM25 over title and body (FTS5-like bm25 with weights 2 and 1),
// to see how vector scores combine with keyword scores.
// It drops stopwords and strips plurals; it is not FTS5.
type bm25 struct {
	n      int
	fields [2]field
	weight [2]float64
}

type field struct {
	tf     []map[string]int
	length []int
	avg    float64
	df     map[string]int
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been
	before being below between both but by can could did do does doing down during each few for from further had has
	have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself
	no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
	the their theirs them themselves then there these they this those through to too under until up very was we were
	what when where which while who whom why will with would you your yours yourself yourselves also may must shall`) {
		stopwords[w] = true
	}
}

func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies") && !strings.HasSuffix(w, "eies") && !strings.HasSuffix(w, "aies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "aes") && !strings.HasSuffix(w, "ees") && !strings.HasSuffix(w, "oes"):
		return w[:len(w)-1]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

func (bm *bm25) terms(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stopwords[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

func newBM25(c *collection) *bm25 {
	bm := &bm25{n: len(c.docs), weight: [2]float64{2, 1}}
	for f := range bm.fields {
		fd := &bm.fields[f]
		fd.df = map[string]int{}
		var total int
		for _, d := range c.docs {
			text := d.Title
			if f == 1 {
				text = d.Text
			}
			tf := map[string]int{}
			ts := bm.terms(text)
			for _, t := range ts {
				tf[t]++
			}
			for t := range tf {
				fd.df[t]++
			}
			fd.tf = append(fd.tf, tf)
			fd.length = append(fd.length, len(ts))
			total += len(ts)
		}
		fd.avg = float64(total) / float64(len(c.docs))
	}
	return bm
}

// scores gives every document its BM25 score for the weighted query terms
// (a term of weight w counts w times its BM25 contribution).
func (bm *bm25) scores(q []string) []float64 {
	w := map[string]float64{}
	for _, t := range q {
		w[t] = 1
	}
	return bm.weighted(w)
}

func (bm *bm25) weighted(q map[string]float64) []float64 {
	const k1, b = 1.2, 0.75
	s := make([]float64, bm.n)
	for f := range bm.fields {
		fd := &bm.fields[f]
		for t, qw := range q {
			df := fd.df[t]
			if df == 0 {
				continue
			}
			idf := math.Max(1e-6, math.Log((float64(bm.n)-float64(df)+0.5)/(float64(df)+0.5)))
			for d := range s {
				tf := float64(fd.tf[d][t])
				if tf == 0 {
					continue
				}
				s[d] += qw * bm.weight[f] * idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(fd.length[d])/fd.avg))
			}
		}
	}
	return s
}

// hybridTable prints exp(-d) + BM25/max with d the cosine distance, as the
// search ranking combines them, for each variant.
func hybridTable(c *collection, bm *bm25, _ embedding.BuiltinOptions, vs []variant) {
	kw := make([][]float64, len(c.queries))
	for qi, q := range c.queries {
		s := bm.scores(bm.terms(q.Text))
		mx := 0.0
		for _, x := range s {
			mx = math.Max(mx, x)
		}
		if mx > 0 {
			for i := range s {
				s[i] /= mx
			}
		}
		kw[qi] = s
	}
	fmt.Printf("\nhybrid exp(-(1-cos)) + BM25/max:\n%-32s %8s %10s %8s\n", "variant", "nDCG@10", "Recall@100", "MRR@10")
	for _, v := range vs {
		b, err := embedding.NewBuiltinWith(v.opts)
		if err != nil {
			log.Fatal(err)
		}
		dv, _ := b.Embed(context.Background(), texts(c.docs, true))
		qv, _ := b.Embed(context.Background(), texts(c.queries, false))
		m := score(c, func(qi int) []float64 {
			s := make([]float64, len(c.docs))
			for di := range s {
				s[di] = math.Exp(-(1 - float64(cosine(qv[qi], dv[di])))) + kw[qi][di]
			}
			return s
		})
		fmt.Printf("%-32s %8.4f %10.4f %8.4f\n", v.name, m.ndcg, m.recall, m.mrr)
	}
}
