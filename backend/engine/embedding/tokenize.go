package embedding

import (
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes bounds a token: longer runs of letters and digits are
// hashes, encoded data or glued text, not words.
const maxTokenBytes = 48

// scan splits text into runs of letters and digits and calls fn with each
// run. Han, Hiragana and Katakana characters are runs of their own, since
// those scripts do not separate words with spaces.
func scan(text string, fn func(run string)) {
	start := -1
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				fn(text[start:i])
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			if start >= 0 {
				fn(text[start:i])
				start = -1
			}
			fn(text[i : i+size])
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				fn(text[start:i])
				start = -1
			}
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:])
	}
}

// class of a rune for splitting identifiers.
type class uint8

const (
	classNone  class = iota // marks: they stay with the rune before them
	classLower              // lower-case and caseless letters
	classUpper
	classDigit
)

func classOf(r rune) class {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z':
			return classLower
		case 'A' <= r && r <= 'Z':
			return classUpper
		case '0' <= r && r <= '9':
			return classDigit
		}
		return classNone
	}
	switch {
	case unicode.IsUpper(r):
		return classUpper
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsLetter(r):
		return classLower
	}
	return classNone
}

// splitRun splits a run of letters and digits where identifiers join
// words: lower to upper case ("camelCase"), before the capital that starts
// a word after an acronym ("HTTPServer"), and between letters and digits
// ("utf8", "2nd").
func splitRun(run string, fn func(part string)) {
	start := 0
	prev, prevPrev := classNone, classNone
	prevAt := 0 // byte offset of the rune of class prev
	for i := 0; i < len(run); {
		r, size := rune(run[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(run[i:])
		}
		c := classOf(r)
		if c == classNone {
			i += size
			continue
		}
		if prev != classNone {
			switch {
			case (c == classDigit) != (prev == classDigit), c == classUpper && prev == classLower:
				if i > start {
					fn(run[start:i])
					start = i
				}
			case c == classLower && prev == classUpper && prevPrev == classUpper:
				if prevAt > start {
					fn(run[start:prevAt])
					start = prevAt
				}
			}
		}
		prevPrev, prev, prevAt = prev, c, i
		i += size
	}
	if start < len(run) {
		fn(run[start:])
	}
}

// digitsOnly reports whether s holds only ASCII or Unicode digits.
func digitsOnly(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
