package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"trove/backend/tokens"
)

// Pseudo-relevance feedback: the best first-pass matches are probably
// relevant, so words they share (and the query lacks) are added to a second
// pass, as RM3 does. It helps queries phrased differently from the
// documents that answer them.
var (
	feedbackDocs  = 5  // first-pass files read
	feedbackTerms = 10 // words added
	originalBoost = 2  // the query's own words count this many times over an added word
	feedbackMinDF = 2  // an added word must occur in at least this many of the read files
)

// expand returns clauses for words to add to the query, drawn from the
// best passages of the first pass: pseudo-relevance feedback. The best
// first-pass matches are probably relevant, so words they share (and the
// query lacks) go into a second pass, as RM3 does. It helps queries phrased
// differently from the documents that answer them.
func (e *Engine) expand(ctx context.Context, p plan, first map[int64]*candidate, tn Tuning) ([]clause, []Match) {
	if tn.FeedbackTerms <= 0 || !p.natural() {
		return nil, nil
	}
	type scored struct {
		c     *candidate
		score float64
	}
	var top []scored
	best := 0.0
	for _, c := range first {
		best = max(best, c.textScore+tn.FileShare*c.fileScore)
	}
	for _, c := range first {
		if c.hasText {
			s := c.textScore + tn.FileShare*c.fileScore
			if tn.FeedbackHybrid && c.hasVector {
				s = s/best + math.Exp(-tn.DistanceScale*Distance(c.sim))
			}
			top = append(top, scored{c, s})
		}
	}
	if len(top) < 3 {
		return nil, nil // too little evidence
	}
	slices.SortFunc(top, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.c.id - b.c.id)
	})
	top = top[:min(len(top), tn.FeedbackDocs)]
	ids := make([]int64, len(top))
	for i, t := range top {
		ids[i] = t.c.id
	}
	keys, err := e.bestPassages(ctx, p, ids, first)
	if err != nil {
		return nil, nil
	}
	texts, err := e.Store.Passages(ctx, keys)
	if err != nil {
		return nil, nil
	}
	var passages []Match
	for _, t := range top {
		if t.c.hasVector {
			passages = append(passages, Match{FileID: t.c.id, Ord: t.c.semOrd})
		}
	}
	have := map[string]bool{}
	for _, s := range p.stems {
		have[s] = true
	}
	best = top[0].score
	weight := map[string]float64{}
	docs := map[string]int{}
	surface := map[string]string{}
	for i, t := range top {
		words := strings.FieldsFunc(texts[keys[i]], func(r rune) bool { return !unicode.IsLetter(r) })
		if len(words) == 0 {
			continue
		}
		tf := map[string]int{}
		for _, w := range words {
			if len(w) < 3 || tokens.IsStopword(w) {
				continue
			}
			s := tokens.Stem(w)
			if have[s] {
				continue
			}
			tf[s]++
			if _, ok := surface[s]; !ok {
				surface[s] = strings.ToLower(w)
			}
		}
		for s, n := range tf {
			weight[s] += float64(n) / float64(len(words)) * math.Exp(t.score/best-1)
			docs[s]++
		}
	}
	stems := make([]string, 0, len(weight))
	for s := range weight {
		if docs[s] >= tn.FeedbackMinDF {
			stems = append(stems, s)
		}
	}
	// Words common across the whole index say little: weight by rarity.
	if n, df, err := e.Store.DocFreqs(ctx, stems); err == nil && n > 0 {
		for _, s := range stems {
			weight[s] *= math.Log(1 + float64(n)/float64(1+df[s]))
		}
	}
	slices.SortFunc(stems, func(a, b string) int {
		if weight[a] != weight[b] {
			if weight[a] > weight[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var out []clause
	for _, s := range stems[:min(len(stems), tn.FeedbackTerms)] {
		out = append(out, clause{expr: quote(surface[s]), stem: s})
	}
	return out, passages
}

// moveQuery is Rocchio feedback on the query vector: q + beta * the mean of
// the feedback passages' vectors, renormalised.
func moveQuery(q, centroid []float32, beta float64) []float32 {
	if centroid == nil || beta == 0 {
		return q
	}
	out := make([]float32, len(q))
	var n float64
	for i := range q {
		out[i] = q[i] + float32(beta)*centroid[i]
		n += float64(out[i] * out[i])
	}
	if n == 0 {
		return q
	}
	for i := range out {
		out[i] /= float32(math.Sqrt(n))
	}
	return out
}

// weighted repeats the original clauses so each counts boost times beside
// an added word: FTS5's BM25 sums over the phrases of a query.
func weighted(orig, added []clause, boost int) []clause {
	out := make([]clause, 0, len(orig)*boost+len(added))
	for range boost {
		out = append(out, orig...)
	}
	return append(out, added...)
}
