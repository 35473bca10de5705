package search

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"trove/backend/store/tokens"
)

// Pseudo-relevance feedback: the best first-pass matches are probably
// relevant, so words they share (and the query lacks) join the query for a
// second pass, as RM3 does (Lavrenko and Croft's relevance model,
// interpolated with the query): each word's weight is its frequency in
// the feedback passages, weighted by how well each passage's file ranked
// and by the word's rarity, and the added words share FeedbackWeight of
// the query's weight. It helps queries phrased differently from the
// documents that answer them. A query of a few words usually means one
// file, whose neighbours feedback would pull in: it needs at least
// FeedbackMinWords typed words. Passages of a few dozen words (titles,
// abstracts of a line) estimate noise rather than a distribution of
// words: together they must hold FeedbackMinText words. A pasted passage
// (query.PassageWords) whose best first-pass file holds nearly all its
// words (FeedbackFoundShare of their weight) was found as it stands:
// feedback would pull in the vocabulary of that file's neighbours. The
// long questions of the collections, whose words differ from their
// answers', keep it: no file holds nine tenths of theirs.

// feedback adds feedback terms to the searcher's query and returns the
// feedback passages (for moving the query vector).
func (s *searcher) feedback(ctx context.Context, ranked []Scored) ([]Match, error) {
	t := s.tuning
	if t.FeedbackTerms <= 0 || t.FeedbackDocs <= 0 || !s.parsed.natural() || s.typedWords() < t.FeedbackMinWords {
		return nil, nil
	}
	if s.parsed.q.Passage && len(ranked) > 0 && s.typedShare(ranked[0].C) >= t.FeedbackFoundShare {
		return nil, nil
	}
	var top []Scored
	for _, r := range ranked {
		if r.Text > 0 {
			top = append(top, r)
			if len(top) == t.FeedbackDocs {
				break
			}
		}
	}
	if len(top) < min(3, t.FeedbackDocs) {
		return nil, nil // too little evidence
	}
	ids := make([]int64, len(top))
	for i, r := range top {
		ids[i] = r.C.ID
	}
	keys, texts, err := s.eng.bestPassages(ctx, s.parsed, ids, s.cands)
	if err != nil {
		return nil, err
	}
	var passages []Match
	docs := make([]feedbackDoc, len(top))
	for i, r := range top {
		docs[i] = feedbackDoc{words: indexWords(texts[keys[i]].Text), score: r.Score}
		if r.C.HasVector {
			passages = append(passages, Match{FileID: r.C.ID, Ord: r.C.Passage})
		}
	}
	if words := passageWords(docs); words < t.FeedbackMinText {
		return nil, nil // too little text to learn from
	}
	have := map[string]bool{}
	for _, q := range s.terms {
		have[q.stem] = true
	}
	cands := feedbackCandidates(docs, have, t.FeedbackMinDF)
	stems := make([]string, 0, len(cands))
	for st := range cands {
		stems = append(stems, st)
	}
	var added []qterm
	for _, st := range stems {
		added = append(added, qterm{stem: st})
	}
	if err := s.lookup(ctx, added); err != nil {
		return nil, err
	}
	chosen := chooseFeedback(cands, func(stem string) float64 { return IDF(s.docs, s.termDF(qterm{stem: stem})) }, t.FeedbackTerms)
	if len(chosen) == 0 {
		return passages, nil
	}
	s.addFeedback(chosen)
	return passages, nil
}

// typedShare is the share of the typed words' weight (occurrences times
// IDF) that a file holds in any field.
func (s *searcher) typedShare(c *Candidate) float64 {
	var held, all float64
	for i, q := range s.terms {
		if q.source == Feedback || s.weight[i] == 0 {
			continue
		}
		w := s.weight[i] * s.idf[i]
		all += w
		if c.holds(i) {
			held += w
		}
	}
	if all == 0 {
		return 0
	}
	return held / all
}

// typedWords counts the query's distinct typed words (not stopwords).
func (s *searcher) typedWords() int {
	n := 0
	for _, q := range s.terms {
		if q.source == Typed && q.single() && !q.stop {
			n++
		}
	}
	return n
}

// passageWords counts the words of the feedback passages.
func passageWords(docs []feedbackDoc) int {
	n := 0
	for _, d := range docs {
		n += len(d.words)
	}
	return n
}

// indexWords are the words feedback reads: the index's own tokens, so
// that "x86" or "utf8" is a word as the index holds it (split at the
// digits, its parts would be looked up as words no file holds), less
// numbers alone, which say more about a page than about its subject.
func indexWords(text string) []string {
	ws := tokens.Words(text)
	out := ws[:0]
	for _, w := range ws {
		if strings.ContainsFunc(w, unicode.IsLetter) {
			out = append(out, w)
		}
	}
	return out
}

// feedbackDoc is one feedback passage, as words, and its file's score.
type feedbackDoc struct {
	words []string
	score float64
}

// feedbackWord is a candidate feedback word.
type feedbackWord struct {
	surface string  // the form first seen, for the FTS5 phrase
	weight  float64 // relevance-model weight before rarity
	docs    int     // feedback passages holding it
}

// feedbackCandidates reads the passages: each word's share of its passage,
// weighted by how close its file came to the best, summed over passages,
// for words found in at least minDF of them and not in the query.
func feedbackCandidates(docs []feedbackDoc, have map[string]bool, minDF int) map[string]*feedbackWord {
	best := 0.0
	for _, d := range docs {
		best = max(best, d.score)
	}
	out := map[string]*feedbackWord{}
	for _, d := range docs {
		words := d.words
		if len(words) == 0 || best == 0 {
			continue
		}
		tf := map[string]int{}
		for _, w := range words {
			if len(w) < 3 || tokens.IsStopword(w) {
				continue
			}
			st := tokens.Stem(w)
			if have[st] {
				continue
			}
			tf[st]++
			if out[st] == nil {
				out[st] = &feedbackWord{surface: strings.ToLower(w)}
			}
		}
		for st, n := range tf {
			out[st].weight += float64(n) / float64(len(words)) * math.Exp(d.score/best-1)
			out[st].docs++
		}
	}
	for st, w := range out {
		if w.docs < minDF {
			delete(out, st)
		}
	}
	return out
}

type chosenWord struct {
	stem, surface string
	weight        float64 // relevance-model weight: BM25 adds the rarity
	rank          float64 // weight times rarity, to choose by
}

// chooseFeedback keeps the n words of most weight times rarity: words
// common across the whole index say little.
func chooseFeedback(cands map[string]*feedbackWord, idf func(string) float64, n int) []chosenWord {
	var out []chosenWord
	for st, w := range cands {
		out = append(out, chosenWord{st, w.surface, w.weight, w.weight * idf(st)})
	}
	slices.SortFunc(out, func(a, b chosenWord) int {
		if c := cmp.Compare(b.rank, a.rank); c != 0 {
			return c
		}
		return strings.Compare(a.stem, b.stem)
	})
	return out[:min(n, len(out))]
}

// addFeedback appends the chosen words to the query: together they weigh
// FeedbackWeight of the whole, in proportion to their weights.
func (s *searcher) addFeedback(chosen []chosenWord) {
	typed, sum := 0.0, 0.0
	for _, w := range s.weight {
		typed += w
	}
	for _, c := range chosen {
		sum += c.weight
	}
	if sum == 0 || typed == 0 {
		return
	}
	share := s.tuning.FeedbackWeight / (1 - s.tuning.FeedbackWeight) * typed
	for _, c := range chosen {
		s.terms = append(s.terms, qterm{phrase: word(c.surface), stem: c.stem, text: c.surface, count: 0, source: Feedback})
		s.weight = append(s.weight, share*c.weight/sum)
		s.idf = append(s.idf, s.termIDF(qterm{stem: c.stem}))
		s.added = append(s.added, c.surface)
	}
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
