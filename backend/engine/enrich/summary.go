package enrich

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	maxSummaryRunes = 399 // the summary stays under 400 characters
	maxSummarySents = 3
	maxRanked       = 80 // sentences ranked by TextRank at most
	damping         = 0.85
)

// addSentence records a summary candidate whose stems are in a.scratch.
func (a *analyzer) addSentence(unitIdx int) {
	from := int32(len(a.sentStems))
	a.sentStems = append(a.sentStems, a.scratch...)
	a.sents = append(a.sents, sentence{unit: int32(unitIdx), from: from, to: int32(len(a.sentStems)), rank: int32(len(a.sents))})
}

func (a *analyzer) stemsOf(s *sentence) []int32 { return a.sentStems[s.from:s.to] }

// overlap is the IDF-weighted size of the intersection of two sorted stem
// lists.
func (a *analyzer) overlap(x, y []int32) float64 {
	var sum float64
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			sum += a.stems[x[i]].idf
			i++
			j++
		}
	}
	return sum
}

// summarize picks up to three central sentences by TextRank (PageRank over
// a sentence-similarity graph) with a mild preference for early ones, and
// returns them in document order, under 400 characters.
func (a *analyzer) summarize() string {
	cands := a.sents
	if len(cands) == 0 {
		return ""
	}
	if len(cands) > maxRanked {
		cands = a.centroidPreselect(maxRanked)
	}
	n := len(cands)
	scores := a.textRank(cands)

	// Final score: centrality, a lead bonus and a length preference.
	type scored struct {
		i     int
		score float64
	}
	order := make([]scored, n)
	maxPR := slices.Max(scores)
	for i := range cands {
		u := &a.seg.units[cands[i].unit]
		sc := scores[i] / maxPR
		sc += 0.35 / float64(1+cands[i].rank)
		words := wordCount(u.text, 100)
		switch {
		case words < 7:
			sc *= 0.7
		case words > 45:
			sc *= 0.8
		}
		if strings.HasSuffix(u.text, "?") {
			sc *= 0.8
		}
		order[i] = scored{i, sc}
	}
	slices.SortFunc(order, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})

	var chosen []int
	total := 0
	for _, o := range order {
		if len(chosen) == maxSummarySents {
			break
		}
		t := sentenceText(&a.seg.units[cands[o.i].unit])
		l := utf8.RuneCountInString(t)
		if len(chosen) > 0 {
			l++ // the joining space
		}
		if total+l > maxSummaryRunes {
			continue
		}
		redundant := false
		for _, c := range chosen {
			if a.similar(&cands[c], &cands[o.i]) {
				redundant = true
				break
			}
		}
		if redundant {
			continue
		}
		chosen = append(chosen, o.i)
		total += l
	}
	if len(chosen) == 0 {
		// Even the best sentence is too long: cut it at a word boundary.
		return truncateRunes(sentenceText(&a.seg.units[cands[order[0].i].unit]), maxSummaryRunes)
	}
	slices.SortFunc(chosen, func(x, y int) int { return cmp.Compare(cands[x].rank, cands[y].rank) })
	var b strings.Builder
	for k, c := range chosen {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentenceText(&a.seg.units[cands[c].unit]))
	}
	return b.String()
}

// sentenceText is a unit's text as it should appear in a summary: list
// items get a full stop.
func sentenceText(u *unit) string {
	t := u.text
	if u.item && !strings.ContainsAny(t[len(t)-1:], ".!?\"')”’…") {
		return t + "."
	}
	return t
}

// similar reports near-duplicates: most of the smaller sentence's stems
// appear in the other.
func (a *analyzer) similar(x, y *sentence) bool {
	sx, sy := a.stemsOf(x), a.stemsOf(y)
	small := min(len(sx), len(sy))
	if small == 0 {
		return false
	}
	shared := 0
	i, j := 0, 0
	for i < len(sx) && j < len(sy) {
		switch {
		case sx[i] < sy[j]:
			i++
		case sx[i] > sy[j]:
			j++
		default:
			shared++
			i++
			j++
		}
	}
	return shared*10 > small*6
}

// textRank runs PageRank over the graph whose edge weights are the
// normalised IDF-weighted word overlap of two sentences.
func (a *analyzer) textRank(cands []sentence) []float64 {
	n := len(cands)
	if cap(a.matrix) < n*n {
		a.matrix = make([]float32, n*n)
	}
	m := a.matrix[:n*n]
	a.rowSum = slices.Grow(a.rowSum[:0], n)[:n]
	clear(a.rowSum)
	norm := a.scores[:0]
	for i := range cands {
		norm = append(norm, math.Log(2+float64(cands[i].to-cands[i].from)))
	}
	for i := range n {
		m[i*n+i] = 0
		si := a.stemsOf(&cands[i])
		for j := i + 1; j < n; j++ {
			w := 0.0
			if ov := a.overlap(si, a.stemsOf(&cands[j])); ov > 0 {
				w = ov / (norm[i] + norm[j])
			}
			m[i*n+j], m[j*n+i] = float32(w), float32(w)
			a.rowSum[i] += w
			a.rowSum[j] += w
		}
	}
	a.scores = norm // keep the buffer for next time
	pr := make([]float64, n)
	next := a.next[:0]
	next = slices.Grow(next, n)[:n]
	for i := range pr {
		pr[i] = 1 / float64(n)
	}
	q := make([]float32, n) // each sentence's score over its total edge weight
	for range 40 {
		// Sentences linked to nothing hand their share to everyone.
		dangling := 0.0
		for j := range n {
			if a.rowSum[j] == 0 {
				dangling += pr[j]
				q[j] = 0
			} else {
				q[j] = float32(pr[j] / a.rowSum[j])
			}
		}
		delta := 0.0
		for i := range n {
			var sum float32
			row := m[i*n : i*n+n]
			for j, w := range row {
				sum += w * q[j]
			}
			next[i] = (1-damping)/float64(n) + damping*float64(sum)
		}
		for i := range n {
			next[i] += damping * dangling / float64(n)
			delta += math.Abs(next[i] - pr[i])
		}
		pr, next = next, pr
		if delta < 1e-4 {
			break
		}
	}
	a.next = next
	return pr
}

// centroidPreselect keeps the n candidates closest to the document's
// centroid (the sum of their stems' TF-IDF over the sentence length), in
// document order.
func (a *analyzer) centroidPreselect(n int) []sentence {
	type scored struct {
		i     int
		score float64
	}
	all := make([]scored, len(a.sents))
	for i := range a.sents {
		st := a.stemsOf(&a.sents[i])
		sum := 0.0
		for _, s := range st {
			sum += a.tfWeight(a.stems[s].tf) * a.stems[s].idf
		}
		all[i] = scored{i, sum / math.Sqrt(float64(len(st))+1) * (1 + 0.5/float64(1+i))}
	}
	slices.SortFunc(all, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})
	keep := all[:n]
	slices.SortFunc(keep, func(x, y scored) int { return cmp.Compare(x.i, y.i) })
	out := make([]sentence, n)
	for k, s := range keep {
		out[k] = a.sents[s.i]
	}
	return out
}
