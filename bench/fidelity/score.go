package main

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// words splits text into lower-case words the way a search index would:
// compatibility forms folded (ligatures become letters), runs of letters
// and digits kept, everything else a separator.
func words(text string) []string {
	text = norm.NFKC.String(text)
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	})
}

// score counts how many of the reference's words a reading gives (as a
// multiset), and how many adjacent pairs, which measures reading order.
type score struct {
	refWords, gotWords, matched int
	refPairs, matchedPairs      int
}

func (s *score) add(o score) {
	s.refWords += o.refWords
	s.gotWords += o.gotWords
	s.matched += o.matched
	s.refPairs += o.refPairs
	s.matchedPairs += o.matchedPairs
}

func compare(ref, got string) score {
	rw, gw := words(ref), words(got)
	s := score{refWords: len(rw), gotWords: len(gw)}
	s.matched = overlap(rw, gw)
	rp, gp := pairs(rw), pairs(gw)
	s.refPairs = len(rp)
	s.matchedPairs = overlap(rp, gp)
	return s
}

func overlap(ref, got []string) int {
	count := make(map[string]int, len(got))
	for _, w := range got {
		count[w]++
	}
	n := 0
	for _, w := range ref {
		if count[w] > 0 {
			count[w]--
			n++
		}
	}
	return n
}

func pairs(w []string) []string {
	if len(w) < 2 {
		return nil
	}
	out := make([]string, len(w)-1)
	for i := range out {
		out[i] = w[i] + " " + w[i+1]
	}
	return out
}

func (s score) recall() float64    { return ratio(s.matched, s.refWords) }
func (s score) precision() float64 { return ratio(s.matched, s.gotWords) }
func (s score) order() float64     { return ratio(s.matchedPairs, s.refPairs) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
