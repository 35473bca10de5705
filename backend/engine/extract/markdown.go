package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"trove/backend/engine/text/markdown"
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
		markdown.WriteInline(&b, stripBlockMarks(trim))
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

func inlineText(s string) string { return markdown.Inline(s) }

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
