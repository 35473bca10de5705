// Package markdown holds Trove's one reading of Markdown's inline markup,
// used where text is extracted from Markdown files (extract) and where
// titles, summaries and keywords are picked from any text (enrich).
package markdown

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inline returns a line without its inline markup: emphasis and code marks,
// link targets (links and images keep their text), HTML tags and comments
// go; autolinks and backslash-escaped characters stay. Searches for a
// closing bracket look a bounded distance ahead, so hostile lines cost
// linear time.
func Inline(s string) string {
	if !strings.ContainsAny(s, "\\`![*~_<") {
		return strings.TrimSpace(s)
	}
	var b bytes.Buffer
	b.Grow(len(s))
	WriteInline(&b, s)
	return strings.TrimSpace(b.String())
}

// WriteInline writes line to b as Inline returns it, untrimmed.
func WriteInline(b *bytes.Buffer, line string) { mdInline(b, line, 0) }

func mdInline(b *bytes.Buffer, line string, depth int) {
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && isASCIIPunct(line[i+1]):
			b.WriteByte(line[i+1])
			i += 2
		case c == '`':
			j := strings.IndexByte(line[i+1:min(len(line), i+1+4096)], '`')
			if j < 0 {
				i++
				continue
			}
			b.WriteString(line[i+1 : i+1+j])
			i += j + 2
		case c == '!' && i+1 < len(line) && line[i+1] == '[' && depth < 4:
			if text, next, ok := mdLink(line, i+1); ok {
				mdInline(b, text, depth+1)
				i = next
				continue
			}
			b.WriteByte(c)
			i++
		case c == '[' && depth < 4:
			if text, next, ok := mdLink(line, i); ok {
				mdInline(b, text, depth+1)
				i = next
				continue
			}
			b.WriteByte(c)
			i++
		case c == '*' || c == '~':
			i++
		case c == '_':
			if wordByte(line, i-1) && wordByte(line, i+1) {
				b.WriteByte(c)
			}
			i++
		case c == '<':
			i = mdAngle(b, line, i)
		default:
			b.WriteByte(c)
			i++
		}
	}
}

const mdLookahead = 2048

// mdLink reads [text](target), [text][ref] or [text][] at i and returns the
// text and where the link ends.
func mdLink(line string, i int) (string, int, bool) {
	end := min(len(line), i+mdLookahead)
	level := 0
	close := -1
	for j := i; j < end && close < 0; j++ {
		switch line[j] {
		case '\\':
			j++
		case '[':
			level++
		case ']':
			level--
			if level == 0 {
				close = j
			}
		}
	}
	if close < 0 || close+1 >= len(line) {
		return "", 0, false
	}
	text := line[i+1 : close]
	var opener, closer byte
	switch line[close+1] {
	case '(':
		opener, closer = '(', ')'
	case '[':
		opener, closer = '[', ']'
	default:
		return "", 0, false
	}
	level = 0
	for j := close + 1; j < min(len(line), close+1+mdLookahead); j++ {
		switch line[j] {
		case opener:
			level++
		case closer:
			level--
			if level == 0 {
				return text, j + 1, true
			}
		}
	}
	return "", 0, false
}

// mdAngle keeps autolinks and drops HTML tags and comments.
func mdAngle(b *bytes.Buffer, line string, i int) int {
	rest := line[i+1:]
	end := strings.IndexByte(rest[:min(len(rest), mdLookahead)], '>')
	if end < 0 {
		b.WriteByte('<')
		return i + 1
	}
	inner := rest[:end]
	switch {
	case strings.HasPrefix(inner, "http://"), strings.HasPrefix(inner, "https://"), strings.HasPrefix(inner, "mailto:"):
		b.WriteString(strings.TrimPrefix(inner, "mailto:"))
	case strings.HasPrefix(inner, "!--"), strings.HasPrefix(inner, "/"), inner != "" && isASCIILetter(inner[0]):
		// A tag between two words ("one<br>two") still separates them.
		next := i + 1 + end + 1
		if w := b.Bytes(); len(w) > 0 && w[len(w)-1] != ' ' && next < len(line) && line[next] != ' ' {
			b.WriteByte(' ')
		}
	default:
		b.WriteByte('<')
		return i + 1
	}
	return i + 1 + end + 1
}

func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && i > 0 {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isASCIILetter(c) && (c < '0' || c > '9')
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
