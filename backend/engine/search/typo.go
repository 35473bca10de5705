package search

import (
	"context"
	"slices"

	"trove/backend/store/tokens"
)

// Spelling correction: a typed word the index does not hold at all (in
// text, names, folders, titles, keywords or summaries) is most likely
// misspelt. Its candidates are the words one edit away (a letter deleted,
// inserted, replaced, or two swapped: most typing errors, after Damerau),
// looked up in the index's words (speller.go); the one most files hold is added
// to the query beside the typed word, which stays (a word the index lacks
// costs nothing). This runs only for unknown words, so queries spelt
// right pay nothing for it.

// minCorrectable is the shortest word corrected: short words have too
// many neighbours one edit away to guess which was meant.
const minCorrectable = 4

// maxCorrectable is the longest word corrected. Words one edit away number
// 54 per letter, so a pasted run of thousands of letters would build
// gigabytes of candidates; no dictionary word is this long.
const maxCorrectable = 40

// correct adds corrections of unknown typed words.
func (s *searcher) correct(ctx context.Context) error {
	unknown, err := s.unknownWords(ctx)
	if err != nil {
		return err
	}
	var fixes []qterm
	for _, t := range s.terms {
		if !unknown[t.text] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		byStem := map[string]string{}
		for _, v := range edits(t.text) {
			st := tokens.Stem(v)
			if cur, ok := byStem[st]; !ok || v < cur {
				byStem[st] = v
			}
		}
		stems := make([]string, 0, len(byStem))
		for st := range byStem {
			stems = append(stems, st)
		}
		slices.Sort(stems)
		known := s.eng.spell.known(ctx, s.eng.Store, s.eng.logSpelling, stems)
		best, bestDF := "", 0
		for _, st := range stems {
			if df := known[st]; df > bestDF {
				best, bestDF = st, df
			}
		}
		if best == "" {
			continue
		}
		fixes = append(fixes, qterm{phrase: word(byStem[best]), stem: best, text: byStem[best], count: t.count,
			source: Corrected, of: t.text})
	}
	if len(fixes) > 0 {
		// The word list counts both tables at once, and may be older than
		// the index: each table's own count is read (0 where it lacks
		// the word).
		if err := s.lookup(ctx, fixes); err != nil {
			return err
		}
	}
	s.terms = append(s.terms, fixes...)
	return nil
}

// unknownWords are the typed words to correct: those no name holds and
// no text holds in the index's main languages. (Found only as the stem
// of a language few files are in, a word is likelier misspelt than
// meant: see store.MainWordDocFreqs.)
func (s *searcher) unknownWords(ctx context.Context) (map[string]bool, error) {
	var typed, words []string
	for _, t := range s.terms {
		if t.source == Typed && t.single() && len(t.phrase.Words) == 1 && !t.stop && s.df[fileTable][t.stem] == 0 && correctable(t.text) {
			typed, words = append(typed, t.text), append(words, t.phrase.Words[0])
		}
	}
	if len(words) == 0 {
		return nil, nil
	}
	main, err := s.eng.Store.MainWordDocFreqs(ctx, words)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for i, w := range words {
		out[typed[i]] = main[w] == 0
	}
	return out, nil
}

// correctable reports whether a folded word is worth correcting: of a
// dictionary word's length and of lower-case ASCII letters (words with digits are codes,
// names or versions, and other scripts have other typing errors).
func correctable(w string) bool {
	if len(w) < minCorrectable || len(w) > maxCorrectable {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// edits returns the words one edit from w: deletions, adjacent swaps,
// replacements and insertions of a to z.
func edits(w string) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	out := make([]string, 0, 54*len(w)+26)
	for i := 0; i <= len(w); i++ {
		left, right := w[:i], w[i:]
		for j := range len(letters) {
			out = append(out, left+letters[j:j+1]+right)
		}
		if right == "" {
			continue
		}
		out = append(out, left+right[1:])
		if len(right) > 1 {
			out = append(out, left+right[1:2]+right[:1]+right[2:])
		}
		for j := range len(letters) {
			if letters[j] != right[0] {
				out = append(out, left+letters[j:j+1]+right[1:])
			}
		}
	}
	return out
}
