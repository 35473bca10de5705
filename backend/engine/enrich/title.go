package enrich

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"trove/backend/engine/text/markdown"
)

const maxTitleRunes = 120

// placeholderTitles are document titles that authoring tools fill in by
// themselves and that say nothing about the document.
var placeholderTitles = set(`untitled document title slide presentation book sheet workbook
noname unknown default new blank draft copy page template empty none null undefined`)

// meaningfulTitle reports whether an extracted document title says
// something: not empty, not a tool's placeholder ("Untitled", "Document1",
// "Microsoft Word - x.docx") and not a bare file name.
func meaningfulTitle(t, filename string) bool {
	t = cleanLine(t)
	if t == "" || !hasLetter(t) {
		return false
	}
	lt := strings.ToLower(t)
	for _, p := range []string{"microsoft word - ", "microsoft powerpoint - ", "microsoft excel - ", "powerpoint presentation"} {
		if strings.HasPrefix(lt, p) {
			return false
		}
	}
	// "Untitled", "Untitled-3", "Document1", "Slide 1", "Book 2".
	base := strings.TrimRightFunc(lt, func(r rune) bool {
		return unicode.IsDigit(r) || r == ' ' || r == '-' || r == '_' || r == '(' || r == ')'
	})
	placeholder := base != ""
	for _, w := range strings.Fields(base) {
		if !placeholderTitles[w] {
			placeholder = false
			break
		}
	}
	if placeholder {
		return false
	}
	// A file name: a single word with an extension, or the file's own name.
	if !strings.ContainsRune(t, ' ') {
		if ext := filepath.Ext(t); len(ext) >= 2 && len(ext) <= 6 && isAlnum(ext[1:]) {
			return false
		}
	}
	if filename != "" {
		name := strings.ToLower(filename)
		stemName := strings.TrimSuffix(name, filepath.Ext(name))
		if lt == name || lt == stemName || normalizeName(lt) == normalizeName(stemName) && !strings.ContainsRune(t, ' ') {
			return false
		}
	}
	return true
}

// cleanTitle tidies a title for display: markup and surrounding
// punctuation removed, whitespace collapsed, length bounded.
func cleanTitle(t string) string {
	t = cleanLine(t)
	t = strings.TrimLeft(t, "#*=>-–—•·: \t")
	t = strings.TrimRight(t, ":*#=-–— \t")
	t = markdown.Inline(t)
	if len(t) >= 2 && (t[0] == '"' && t[len(t)-1] == '"' || t[0] == '\'' && t[len(t)-1] == '\'') {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	return truncateRunes(t, maxTitleRunes)
}

// cleanLine makes a string valid UTF-8 with printable characters only and
// single spaces.
func cleanLine(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c == ' ' && prevSpace {
			clean = false
			break
		}
		prevSpace = c == ' '
	}
	if clean && !prevSpace {
		if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 && !unicode.IsPrint(r) }) {
			return s
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func normalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// smallWords stay lower case inside a title made from a file name.
var smallWords = set("a an and as at but by for from in into of on or the to vs with")

// titleFromFilename turns a file name into a title: extension dropped,
// separators and camelCase split, words capitalised, dates kept:
// "Q3-quarterly_report.xlsx" -> "Q3 Quarterly Report",
// "meeting_notes_2024-03-01.md" -> "Meeting Notes 2024-03-01".
func titleFromFilename(name string) string {
	name = cleanLine(name)
	name = strings.TrimLeft(name, ".")
	for range 2 { // "backup.tar.gz"
		ext := filepath.Ext(name)
		if ext == "" || len(ext) > 6 || !isAlnum(ext[1:]) || hasDigitsOnly(ext[1:]) || len(name) == len(ext) {
			break
		}
		name = name[:len(name)-len(ext)]
		if !knownCompound(ext) {
			break
		}
	}
	words := splitName(name)
	for i, w := range words {
		lw := strings.ToLower(w)
		switch {
		case i > 0 && smallWords[lw] && w == lw:
			words[i] = lw
		case w == lw:
			r, n := utf8.DecodeRuneInString(w)
			words[i] = string(unicode.ToTitle(r)) + w[n:]
		}
	}
	t := strings.Join(words, " ")
	if t == "" {
		return ""
	}
	return truncateRunes(t, maxTitleRunes)
}

func knownCompound(ext string) bool {
	switch strings.ToLower(ext) {
	case ".gz", ".bz2", ".xz", ".zst", ".lz", ".z":
		return true
	}
	return false
}

// splitName splits a file name into words at separators and camelCase
// boundaries, keeping dates such as 2024-03-01 together.
func splitName(s string) []string {
	var words []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return r == '_' || r == ' ' || r == '.' || r == '+' || r == '~' || unicode.IsSpace(r)
	}) {
		// Split at hyphens unless both sides are digits (dates, ranges).
		start := 0
		for i := 0; i < len(f); i++ {
			if f[i] != '-' {
				continue
			}
			if i > 0 && i+1 < len(f) && isDigit(f[i-1]) && isDigit(f[i+1]) {
				continue
			}
			words = appendCamel(words, f[start:i])
			start = i + 1
		}
		words = appendCamel(words, f[start:])
	}
	return words
}

// appendCamel appends the camelCase parts of w: "quarterlyReport" ->
// quarterly, Report; "HTMLParser" -> HTML, Parser; "Q3" stays whole.
func appendCamel(words []string, w string) []string {
	if w == "" {
		return words
	}
	rs := []rune(w)
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
			unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && i-start > 1
		if split {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	return append(words, string(rs[start:]))
}

// truncateRunes shortens s to at most n runes, cutting at a word boundary
// when one is near and marking the cut with an ellipsis.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	n-- // room for the ellipsis
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	t := s[:cut]
	if i := strings.LastIndexByte(t, ' '); i > len(t)/2 {
		t = t[:i]
	}
	return strings.TrimRight(t, " ,;:-–—") + "…"
}

func hasLetter(s string) bool {
	return strings.ContainsFunc(s, unicode.IsLetter)
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

func hasDigitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
