// Package tokens is the one home of Trove's text rules: it splits text the
// way the full-text index does, folds case and diacritics, stems (Porter,
// as SQLite's porter tokenizer), knows the stopwords, and splits file names
// further: camelCase, snake_case, kebab-case, letters and digits, so that
// "quarterly report" finds Q3-quarterly_report.xlsx.
package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"

	porter "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"
)

// Words splits s into words as the index does: runs of letters and digits
// (underscores and punctuation separate), a run of CJK characters being a
// word of its own (segment.go), which the index holds as its bigrams.
func Words(s string) []string {
	var out []string
	spans(s, func(sp span) { out = append(out, s[sp.start:sp.end]) })
	return out
}

// SplitIdentifier breaks one word at case and letter/digit changes:
// "parseHTTPRequest2" -> parse, HTTP, Request, 2.
func SplitIdentifier(w string) []string {
	rs := []rune(w)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		boundary := unicode.IsLower(prev) && unicode.IsUpper(cur) || // fileName
			unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next) || // HTTPRequest
			unicode.IsLetter(prev) != unicode.IsLetter(cur) // report2024, 2024report
		if boundary {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}

// NameTerms is what the index stores for a file name: the name as written
// (so an exact name matches) followed by every identifier part, so each
// word of a compound name matches on its own.
func NameTerms(filename string) string {
	var b strings.Builder
	b.WriteString(filename)
	for _, w := range Words(filename) {
		parts := SplitIdentifier(w)
		if len(parts) < 2 {
			continue
		}
		for _, p := range parts {
			b.WriteByte(' ')
			b.WriteString(p)
		}
	}
	return b.String()
}

// SplitExt splits a file name into its base and extension, folded and
// without the dot. A leading dot does not start an extension, and an
// extension is one to five letters and digits: README.Debian and
// notes.2024-05 have none.
func SplitExt(name string) (base, ext string) {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 || len(name)-i-1 > 5 {
		return name, ""
	}
	for _, r := range name[i+1:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return name, ""
		}
	}
	return name[:i], Fold(name[i+1:])
}

// PathTerms is NameTerms for the folder names between the watched root and
// the file (rel is the file's slash-separated path below the root).
func PathTerms(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return NameTerms(strings.ReplaceAll(rel[:i], "/", " "))
}

// Fold lower-cases w and strips diacritics as unicode61 with
// remove_diacritics does: only from letters whose base is an ASCII letter
// (é, ṩ, ǘ). Other scripts keep theirs: й, ё, ά and ば are letters of their
// own there, and the index holds them as they are, so folding them would
// look up words the index does not have.
func Fold(w string) string {
	w = strings.ToLower(w)
	if isASCII(w) {
		return w
	}
	var b strings.Builder
	b.Grow(len(w))
	asciiBase := false // the last letter written is ASCII: its marks go
	for i, r := range w {
		_, size := utf8.DecodeRuneInString(w[i:]) // an invalid byte is kept as it is
		switch {
		case r < utf8.RuneSelf:
			asciiBase = true
		case unicode.Is(unicode.Mn, r):
			if asciiBase {
				continue
			}
		default:
			// A letter whose canonical decomposition starts with an ASCII
			// letter is that letter and its marks (é, ṩ, ǘ).
			if d := norm.NFD.PropertiesString(w[i:]).Decomposition(); len(d) > 0 && d[0] < utf8.RuneSelf {
				b.WriteByte(d[0])
				asciiBase = true
				continue
			}
			asciiBase = false
		}
		b.WriteString(w[i : i+size])
	}
	return b.String()
}

// Stem is the index form of a word: folded, then Porter-stemmed as SQLite's
// porter tokenizer does (which leaves words with digits and non-ASCII words
// alone).
func Stem(w string) string { return StemFolded(Fold(w)) }

// StemFolded is Stem of a word already folded.
func StemFolded(f string) string {
	if !isASCIILetters(f) {
		return f
	}
	return porter.StemString(f)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}
