package enrich

import (
	"path/filepath"
	"strconv"
	"strings"
)

// tableDelimiter recognises delimited tables (CSV, TSV and the like) by
// name, MIME type or shape: most of the first lines split into the same
// number of fields. It returns the delimiter, or 0.
func tableDelimiter(filename, mime, text string) byte {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".csv":
		return guessDelimiter(text, ',')
	case ".tsv", ".tab":
		return '\t'
	case ".psv":
		return '|'
	}
	m := strings.ToLower(mime)
	switch {
	case strings.HasPrefix(m, "text/csv"), strings.HasPrefix(m, "application/csv"):
		return guessDelimiter(text, ',')
	case strings.HasPrefix(m, "text/tab-separated-values"):
		return '\t'
	}
	return guessDelimiter(text, 0)
}

// guessDelimiter finds the delimiter that splits at least five of the
// first twenty lines, and four in five of them, into the same number of
// fields (two or more). def is returned when nothing fits.
func guessDelimiter(text string, def byte) byte {
	var lines [20]string
	n := 0
	for t := text; len(t) > 0 && n < len(lines); {
		var l string
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			l, t = t[:i], t[i+1:]
		} else {
			l, t = t, ""
		}
		if l = strings.TrimSpace(l); l != "" {
			lines[n] = l
			n++
		}
	}
	if n < 5 && def == 0 {
		return 0
	}
	for _, d := range []byte{'\t', ',', ';', '|'} {
		counts := map[int]int{}
		best := 0
		for _, l := range lines[:n] {
			c := countFields(l, d)
			if c >= 2 {
				counts[c]++
				best = max(best, counts[c])
			}
		}
		minFields := 3
		if def != 0 {
			minFields = 2
		}
		if best*5 >= n*4 && best >= min(n, 5) {
			for c, k := range counts {
				if k == best && c >= minFields {
					return d
				}
			}
		}
	}
	return def
}

// countFields counts the fields of one delimited line, honouring double
// quotes.
func countFields(l string, d byte) int {
	n := 1
	quoted := false
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '"':
			quoted = !quoted
		case d:
			if !quoted {
				n++
			}
		}
	}
	return n
}

// splitRow splits one delimited line, honouring double quotes.
func splitRow(l string, d byte) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == '"' && quoted && i+1 < len(l) && l[i+1] == '"':
			b.WriteByte('"')
			i++
		case c == '"' && (quoted || b.Len() == 0):
			quoted = !quoted
		case c == d && !quoted:
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(b.String()))
}

// tableInfo describes a delimited table for its summary and keywords.
type tableInfo struct {
	header []string // column names, nil when the first row is data
	cols   int
	rows   int
}

func analyzeTable(full, sampled string, d byte) tableInfo {
	var first, second string
	for t := sampled; len(t) > 0 && second == ""; {
		var l string
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			l, t = t[:i], t[i+1:]
		} else {
			l, t = t, ""
		}
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if first == "" {
			first = l
		} else {
			second = l
		}
	}
	info := tableInfo{}
	h := splitRow(first, d)
	info.cols = len(h)
	header := true
	for _, f := range h {
		if f == "" || !hasLetter(f) || isNumber(f) {
			header = false
			break
		}
	}
	// A first row like the rows under it is data, not a header.
	if header && second != "" {
		r2 := splitRow(second, d)
		numeric := 0
		for _, f := range r2 {
			if isNumber(f) {
				numeric++
			}
		}
		if numeric == 0 && len(r2) == len(h) && sameShape(h, r2) {
			header = false
		}
	}
	if header {
		info.header = h
	}
	// Rows of the whole text, not just the sample.
	info.rows = strings.Count(full, "\n")
	if !strings.HasSuffix(full, "\n") {
		info.rows++
	}
	info.rows -= strings.Count(full, "\n\n")
	if header {
		info.rows--
	}
	info.rows = max(info.rows, 0)
	return info
}

// sameShape guesses that two rows are both data when their fields look
// alike (similar lengths).
func sameShape(a, b []string) bool {
	diff := 0
	for i := range a {
		if la, lb := len(a[i]), len(b[i]); la > 2*lb+3 || lb > 2*la+3 {
			diff++
		}
	}
	return diff == 0 && len(a) > 0 && strings.ToLower(a[0]) != a[0]
}

func isNumber(s string) bool {
	s = strings.TrimSpace(strings.Trim(s, "$€£%"))
	s = strings.ReplaceAll(s, ",", "")
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || isDateLike(s)
}

func isDateLike(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case c == '-' || c == '/' || c == ':' || c == '.' || c == ' ' || c == 'T':
		default:
			return false
		}
	}
	return digits >= 4
}

func tableSummary(info tableInfo) string {
	rows := plural(info.rows, "row")
	if len(info.header) == 0 {
		return "A table of " + rows + " and " + plural(info.cols, "column") + "."
	}
	names := make([]string, 0, len(info.header))
	for _, h := range info.header {
		names = append(names, truncateRunes(cleanLine(h), 40))
	}
	var s string
	if len(names) <= 8 {
		list := strings.Join(names[:len(names)-1], ", ")
		if list != "" {
			list += " and "
		}
		s = "A table of " + rows + " with columns " + list + names[len(names)-1] + "."
	} else {
		s = "A table of " + rows + " and " + strconv.Itoa(len(names)) + " columns, including " + strings.Join(names[:8], ", ") + "."
	}
	return truncateRunes(s, maxSummaryRunes)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
