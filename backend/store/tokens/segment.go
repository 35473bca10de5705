package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chinese and Japanese write words without spaces between them, and a
// sentence reads to unicode61 as one token: a two-character word inside it
// matches nothing. So a run of Han, kana or Hangul is cut into overlapping
// pairs of characters (bigrams), as Lucene's CJKBigramFilter and Recoll
// do: 東京都に住む is 東京 京都 都に に住 住む, and a word of two characters
// or more is a phrase of its bigrams, found wherever it stands. A run of
// one character stays one token.

// IsCJK reports whether r is written in a script without spaces between
// words (Han, Hiragana, Katakana) or in Hangul, whose runs are split the
// same way; the katakana prolonged sound mark ー goes with them.
func IsCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 0x30FC)
}

// isTokenRune is what a word is made of, as unicode61 has it: letters and
// digits; everything else separates.
func isTokenRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// span is one word of a text: its bytes [start, end), and whether it is a
// run of CJK characters.
type span struct {
	start, end int
	cjk        bool
}

// spans cuts s into words: runs of letters and digits, split where CJK
// characters start or stop (版 in Windows版 is a run of its own).
func spans(s string, fn func(span)) {
	start, cjk := -1, false
	for i, r := range s {
		if !isTokenRune(r) {
			if start >= 0 {
				fn(span{start, i, cjk})
				start = -1
			}
			continue
		}
		c := IsCJK(r)
		switch {
		case start < 0:
			start, cjk = i, c
		case c != cjk:
			fn(span{start, i, cjk})
			start, cjk = i, c
		}
	}
	if start >= 0 {
		fn(span{start, len(s), cjk})
	}
}

// bigrams calls fn with the byte ranges of a CJK run's bigrams, or of the
// run itself when it is one character.
func bigrams(run string, offset int, fn func(start, end int)) {
	if _, size := utf8.DecodeRuneInString(run); size == len(run) {
		fn(offset, offset+len(run))
		return
	}
	prev := 0
	for i := range run {
		if i == 0 {
			continue
		}
		_, n := utf8.DecodeRuneInString(run[i:])
		fn(offset+prev, offset+i+n)
		prev = i
	}
}

// Bigrams returns the bigrams of a CJK run (the run itself when it is one
// character): the terms the index holds for it, in order.
func Bigrams(run string) []string {
	var out []string
	bigrams(run, 0, func(s, e int) { out = append(out, run[s:e]) })
	return out
}

// HasCJK reports whether w holds a CJK character.
func HasCJK(w string) bool {
	for _, r := range w {
		if IsCJK(r) {
			return true
		}
	}
	return false
}

// Terms calls fn with the index terms of text, a document in language
// lang ("" when not known), in order with the bytes each stands for: each
// word stemmed by its language's rules, each CJK run as its bigrams. It
// stops at fn's first error.
func Terms(text, lang string, fn func(term string, start, end int) error) error {
	var err error
	spans(text, func(sp span) {
		if err != nil {
			return
		}
		if sp.cjk {
			bigrams(text[sp.start:sp.end], sp.start, func(s, e int) {
				if err == nil {
					err = fn(text[s:e], s, e)
				}
			})
			return
		}
		err = fn(IndexTerm(lang, text[sp.start:sp.end]), sp.start, sp.end)
	})
	return err
}

// QueryTerms is Terms for a query, whose language is not known: each word
// may be any of its forms in the languages langs of the index (StemsIn),
// given to fn as one term and others at its place (colocated). With
// unmarked, each form is given without its language's mark too: the term
// of a text indexed before stems were marked (IndexTerm).
func QueryTerms(text string, langs []string, unmarked bool, fn func(term string, start, end int, colocated bool) error) error {
	var err error
	spans(text, func(sp span) {
		if err != nil {
			return
		}
		if sp.cjk {
			bigrams(text[sp.start:sp.end], sp.start, func(s, e int) {
				if err == nil {
					err = fn(text[s:e], s, e, false)
				}
			})
			return
		}
		forms := StemsIn(text[sp.start:sp.end], langs)
		if unmarked {
			forms = withUnmarked(forms)
		}
		for i, form := range forms {
			if err = fn(form, sp.start, sp.end, i > 0); err != nil {
				return
			}
		}
	})
	return err
}

// withUnmarked adds to forms each marked stem without its mark, once.
func withUnmarked(forms []string) []string {
	for _, f := range forms {
		if stem := Unmarked(f); stem != f && !contains(forms, stem) {
			forms = append(forms, stem)
		}
	}
	return forms
}

// Unmarked is an index term without its language's mark: the term an
// older Trove indexed for it.
func Unmarked(term string) string {
	if _, stem, ok := strings.Cut(term, markSep); ok {
		return stem
	}
	return term
}
