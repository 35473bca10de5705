package extract

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// extractMarkdown keeps Markdown readable as prose: headings, list items and
// code stay, link targets and emphasis marks go.
func extractMarkdown(s *source, d *Document) error {
	src, ok := textOf(s, s.opt.MaxTextBytes+4)
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	body, fm := frontMatter(src)
	d.Title = fm["title"]
	if a := fm["author"]; a != "" {
		d.Meta = map[string]string{"author": a}
	}
	title, err := markdownText(s, body)
	if d.Title == "" {
		d.Title = title
	}
	return err
}

// frontMatter splits off a leading YAML (---) or TOML (+++) block and reads
// its simple "key: value" lines.
func frontMatter(src string) (string, map[string]string) {
	var fence string
	switch {
	case strings.HasPrefix(src, "---\n"), strings.HasPrefix(src, "---\r\n"):
		fence = "---"
	case strings.HasPrefix(src, "+++\n"), strings.HasPrefix(src, "+++\r\n"):
		fence = "+++"
	default:
		return src, nil
	}
	rest := src[strings.IndexByte(src, '\n')+1:]
	block, after, found := "", "", false
	for off := 0; off < len(rest) && off < 64<<10; {
		n := strings.IndexByte(rest[off:], '\n')
		next := len(rest)
		if n >= 0 {
			next = off + n + 1
		}
		if l := strings.TrimRight(rest[off:next], "\r\n"); l == fence || l == "..." {
			block, after, found = rest[:off], rest[next:], true
			break
		}
		off = next
	}
	if !found {
		return src, nil
	}
	fm := map[string]string{}
	for line := range strings.SplitSeq(block, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok && fence == "+++" {
			k, v, ok = strings.Cut(line, "=")
		}
		if !ok || strings.HasPrefix(k, " ") {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if _, seen := fm[k]; !seen {
			fm[k] = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return strings.TrimLeft(after, "\r\n"), fm
}

// markdownText writes the readable text and returns the first heading.
func markdownText(s *source, body string) (string, error) {
	var title, prev string
	var b bytes.Buffer
	fence := ""
	tk := tick{ctx: s.ctx}
	for line := range strings.SplitSeq(body, "\n") {
		if err := tk.err(); err != nil {
			return title, err
		}
		if s.text.full() {
			break
		}
		line = strings.TrimRight(line, "\r")
		trim := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
				continue
			}
			s.text.WriteString(line)
			s.text.WriteString("\n")
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		if isSetextUnderline(trim) && strings.TrimSpace(prev) != "" {
			if title == "" {
				title = inlineText(prev)
			}
			prev = ""
			continue
		}
		if h, ok := atxHeading(trim); ok {
			h = inlineText(h)
			if title == "" {
				title = h
			}
			s.text.nl()
			s.text.WriteString(h)
			s.text.WriteString("\n")
			prev = ""
			continue
		}
		if isRefDefinition(trim) || isTableRule(trim) {
			prev = ""
			continue
		}
		b.Reset()
		mdInline(&b, stripBlockMarks(trim), 0)
		out := bytes.TrimSpace(b.Bytes())
		if bytes.IndexByte(out, '|') >= 0 {
			out = bytes.ReplaceAll(out, []byte("|"), []byte(" "))
		}
		s.text.Write(out)
		s.text.WriteString("\n")
		prev = trim
	}
	return title, nil
}

func isSetextUnderline(t string) bool {
	if len(t) < 2 || (t[0] != '=' && t[0] != '-') {
		return false
	}
	return strings.Trim(t, t[:1]) == ""
}

func atxHeading(t string) (string, bool) {
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return "", false
	}
	h := strings.TrimSpace(t[n:])
	h = strings.TrimSpace(strings.TrimRight(h, "#"))
	return h, true
}

func isRefDefinition(t string) bool {
	if !strings.HasPrefix(t, "[") {
		return false
	}
	i := strings.Index(t, "]:")
	return i > 1 && !strings.Contains(t[:i], "](")
}

func isTableRule(t string) bool {
	if !strings.Contains(t, "-") || !strings.ContainsAny(t, "|") {
		return false
	}
	return strings.Trim(t, "|-: \t") == ""
}

// stripBlockMarks removes quote, list and task markers.
func stripBlockMarks(t string) string {
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(t[1:])
	}
	if len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		t = strings.TrimSpace(t[2:])
	} else if i := strings.IndexAny(t, ".)"); i > 0 && i < 10 && i+1 < len(t) && t[i+1] == ' ' && isDigits(t[:i]) {
		t = strings.TrimSpace(t[i+2:])
	}
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		t = strings.TrimPrefix(t, box)
	}
	return t
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func inlineText(s string) string {
	var b bytes.Buffer
	mdInline(&b, s, 0)
	return strings.TrimSpace(b.String())
}

// mdInline writes a line without emphasis marks, link targets and tags.
// Searches for closing brackets look only a bounded distance ahead, so
// hostile lines cost linear time.
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

// cleanTitle makes a title one short line.
func cleanTitle(t string) string {
	if t == "" {
		return ""
	}
	if !utf8.ValidString(t) {
		t = strings.ToValidUTF8(t, "\uFFFD")
	}
	t = strings.Join(strings.Fields(t), " ")
	return cutUTF8(t, 300)
}
