package search

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// Weighing the query: how many files hold each of its words, which words
// the index lacks and what they may have meant, which words of a long
// query tell most, and each term's weight and IDF.

// prepare looks up the terms' document frequencies, corrects words the
// index lacks, keeps a long query's most telling words and weighs them.
func (s *searcher) prepare(ctx context.Context) error {
	s.eng.spell.refresh(s.eng.Store, s.eng.logSpelling)
	docs := s.eng.Store.DocCount()
	s.docs = max(docs, 1)
	s.prune = docs >= commonMin
	s.terms = slices.Clone(s.parsed.terms)
	if err := s.lookup(ctx, s.terms); err != nil {
		return err
	}
	if err := s.correct(ctx); err != nil {
		return err
	}
	s.keepTelling()
	s.weight = make([]float64, len(s.terms))
	s.idf = make([]float64, len(s.terms))
	for i, t := range s.terms {
		s.idf[i] = s.termIDF(t)
		// A word no file holds matches nothing: it must not lower every
		// file's share of what the query could match.
		if t.stem == "" || s.termDF(t) > 0 {
			s.weight[i] = t.count
		}
	}
	texts := s.nameTexts()
	s.words = nameWords(texts, true, func(stem string) float64 {
		return IDF(s.docs, max(s.df[textTable][stem], s.df[fileTable][stem]))
	})
	s.literal = literal(texts)
	return nil
}

// lookup reads the document frequencies of the terms' stems. The text
// holds each word in its forms in the files' languages, which the store
// counts by the word as typed; names and cards hold its English stem.
func (s *searcher) lookup(ctx context.Context, terms []qterm) error {
	// Feedback's terms are stems read from the text: no word to go by.
	var stems, words, bare []string
	for _, t := range terms {
		switch {
		case t.stem == "":
		case len(t.phrase.Words) == 0:
			bare = append(bare, t.stem)
		default:
			stems = append(stems, t.stem)
			words = append(words, t.phrase.Words[0])
		}
	}
	byWord, err := s.eng.Store.WordDocFreqs(ctx, words)
	if err != nil {
		return err
	}
	// The words' stems as written are counted too (bare and typed at once,
	// from the store's cache after WordDocFreqs): whether some files hold
	// a word only in another language's form.
	_, text, err := s.eng.Store.RankDocFreqs(ctx, append(slices.Clone(bare), stems...))
	if err != nil {
		return err
	}
	if s.exactDF == nil {
		s.exactDF = map[string]int{}
	}
	for i, st := range stems {
		s.exactDF[st] = text[st]
		text[st] = max(text[st], byWord[words[i]])
	}
	stems = append(stems, bare...)
	_, files, err := s.eng.Store.FileDocFreqs(ctx, stems)
	if err != nil {
		return err
	}
	for i, m := range []map[string]int{text, files} {
		if s.df[i] == nil {
			s.df[i] = map[string]int{}
		}
		for k, v := range m {
			s.df[i][k] = v
		}
	}
	return nil
}

func (s *searcher) termDF(t qterm) int {
	return max(s.df[textTable][t.stem], s.df[fileTable][t.stem])
}

// termIDF is a term's IDF; phrases and prefixes, whose frequency the
// vocabulary does not tell, count as rare until their matches are known.
func (s *searcher) termIDF(t qterm) float64 {
	if t.stem == "" {
		return IDF(s.docs, 0)
	}
	return IDF(s.docs, s.termDF(t))
}

// keepTelling bounds a long query's keyword side to the QueryTerms single
// words with the most weight (occurrences times IDF), in query order:
// pasting a paragraph finds documents like it without scoring every
// "however" in it.
func (s *searcher) keepTelling() {
	var words []int
	for i, t := range s.terms {
		if t.single() {
			words = append(words, i)
		}
	}
	if s.tuning.QueryTerms <= 0 || len(words) <= s.tuning.QueryTerms {
		return
	}
	slices.SortStableFunc(words, func(a, b int) int {
		return cmp.Compare(s.terms[b].count*s.termIDF(s.terms[b]), s.terms[a].count*s.termIDF(s.terms[a]))
	})
	drop := map[int]bool{}
	for _, i := range words[s.tuning.QueryTerms:] {
		drop[i] = true
	}
	kept := s.terms[:0]
	for i, t := range s.terms {
		if !drop[i] {
			kept = append(kept, t)
		}
	}
	s.terms = kept
}

// nameTexts are the words for name matching: as typed, with corrections
// in place of the words they correct.
func (s *searcher) nameTexts() []string {
	fix := map[string]string{}
	for _, t := range s.terms {
		if t.source == Corrected {
			fix[t.of] = t.text
		}
	}
	out := make([]string, len(s.parsed.names))
	for i, w := range s.parsed.names {
		out[i] = w
		if c, ok := fix[strings.ToLower(w)]; ok {
			out[i] = c
		}
	}
	return out
}
