package enrich

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"trove/backend/engine/text/markdown"
)

// Bounds on the text that is analysed: short texts whole, long ones as a
// head plus evenly spaced windows, so the cost per file stays bounded.
const (
	sampleWhole   = 48 << 10
	sampleHead    = 32 << 10
	sampleWindows = 8
	sampleWindow  = 2 << 10
)

// sample returns text itself when it is short, else its first sampleHead
// bytes and sampleWindows windows spread over the rest, each cut at line
// (or at least rune) boundaries and separated by blank lines.
func sample(text string) string {
	if len(text) <= sampleWhole {
		return text
	}
	var b strings.Builder
	b.Grow(sampleHead + sampleWindows*(sampleWindow+2))
	b.WriteString(cutBack(text[:sampleHead]))
	rest := len(text) - sampleHead
	step := rest / sampleWindows
	for i := range sampleWindows {
		from := sampleHead + i*step + step/2 - sampleWindow/2
		to := min(from+sampleWindow, len(text))
		w := text[from:to]
		// Start after the first line break, if there is one early enough.
		if j := strings.IndexByte(w, '\n'); j >= 0 && j < len(w)/2 {
			w = w[j+1:]
		} else {
			for len(w) > 0 && !utf8.RuneStart(w[0]) {
				w = w[1:]
			}
		}
		b.WriteString("\n\n")
		b.WriteString(cutBack(w))
	}
	return b.String()
}

// cutBack drops an unfinished last line (or at least an unfinished rune).
func cutBack(s string) string {
	if j := strings.LastIndexByte(s, '\n'); j >= len(s)/2 {
		return s[:j]
	}
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			break
		}
	}
	return s
}

type unitKind uint8

const (
	kSentence unitKind = iota // prose: a summary candidate
	kHeading                  // a heading or a title-like line
	kOther                    // list fragments, metadata lines: keywords only
	kTable                    // table rows and log lines: keywords only, never quoted
)

// unit is one piece of prose after the line structure is understood.
type unit struct {
	text string
	kind unitKind
	item bool // from a list item (may lack final punctuation)
	para int  // paragraph number
}

// segmenter turns plain text or Markdown into units, skipping code,
// tables, front matter and licence boilerplate.
type segmenter struct {
	units        []unit
	para         []string
	paraItem     bool
	paraBoiler   bool
	nPara        int
	inFence      bool
	fence        string
	inFront      bool
	lines        int // non-empty lines seen
	firstLine    string
	firstHeading string
	firstIsHead  bool
}

func (s *segmenter) reset() {
	*s = segmenter{units: s.units[:0], para: s.para[:0]}
}

func (s *segmenter) run(text string) {
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		s.line(line)
	}
	s.flush()
}

func (s *segmenter) line(raw string) {
	l := strings.TrimSpace(raw)
	if s.inFront {
		if l == "---" || l == "..." {
			s.inFront = false
		}
		return
	}
	if s.inFence {
		if strings.HasPrefix(l, s.fence) {
			s.inFence = false
		}
		return
	}
	if l == "" {
		s.flush()
		return
	}
	s.lines++
	if s.lines == 1 && l == "---" {
		s.inFront = true
		return
	}
	if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
		s.flush()
		s.inFence, s.fence = true, l[:3]
		return
	}
	first := false
	if s.firstLine == "" && !preamble(l) {
		s.firstLine, first = l, true
	}
	// ATX heading.
	if l[0] == '#' {
		n := 0
		for n < len(l) && l[n] == '#' {
			n++
		}
		if n <= 6 && (n == len(l) || l[n] == ' ') {
			s.flush()
			h := strings.TrimSpace(strings.TrimRight(l[n:], "#"))
			s.heading(h, first)
			return
		}
	}
	// Setext underline or horizontal rule.
	if len(l) >= 3 && (allOf(l, '=') || allOf(l, '-') || allOf(l, '*') || allOf(l, '_') || l == "* * *" || l == "- - -") {
		if len(s.para) == 1 && !s.paraItem && !s.paraBoiler && (l[0] == '=' || l[0] == '-') {
			h := s.para[0]
			s.para = s.para[:0]
			s.heading(h, h == s.firstLine)
			return
		}
		s.flush()
		return
	}
	if strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "[//]:") {
		return
	}
	for len(l) > 0 && l[0] == '>' { // block quote
		l = strings.TrimSpace(l[1:])
	}
	if l == "" {
		return
	}
	if rest, ok := listItem(l); ok {
		s.flush()
		s.paraItem = true
		l = rest
		if l == "" {
			return
		}
	}
	if isBoilerplate(l) {
		s.paraBoiler = true
	}
	if looksLikeTable(l) {
		s.flush()
		s.units = append(s.units, unit{text: l, kind: kTable, para: s.nPara})
		s.nPara++
		return
	}
	if looksLikeCode(l, raw) {
		s.flush()
		return
	}
	if !s.paraItem && len(s.para) == 0 {
		if key, val, ok := metaLine(l); ok {
			_ = key
			s.units = append(s.units, unit{text: markdown.Inline(val), kind: kOther, para: s.nPara})
			s.nPara++
			return
		}
	}
	s.para = append(s.para, l)
}

func (s *segmenter) heading(h string, first bool) {
	h = markdown.Inline(h)
	if h == "" {
		return
	}
	if s.firstHeading == "" && s.lines <= 40 {
		s.firstHeading = h
		s.firstIsHead = first
	}
	s.units = append(s.units, unit{text: h, kind: kHeading, para: s.nPara})
	s.nPara++
}

func (s *segmenter) flush() {
	if len(s.para) == 0 {
		s.paraItem, s.paraBoiler = false, false
		return
	}
	var text string
	if len(s.para) == 1 {
		text = s.para[0]
	} else {
		text = strings.Join(s.para, " ")
	}
	item, boiler := s.paraItem, s.paraBoiler
	s.para = s.para[:0]
	s.paraItem, s.paraBoiler = false, false
	if boiler {
		return
	}
	text = collapseSpaces(markdown.Inline(text))
	if text == "" {
		return
	}
	para := s.nPara
	s.nPara++
	// A lone short line without final punctuation reads as a heading.
	if !item && !strings.ContainsAny(text[len(text)-1:], ".!?:;,") && wordCount(text, 13) <= 12 {
		s.units = append(s.units, unit{text: text, kind: kHeading, para: para})
		return
	}
	splitSentences(text, func(sent string) {
		k := kOther
		if isSentence(sent, item) {
			k = kSentence
		}
		s.units = append(s.units, unit{text: sent, kind: k, item: item, para: para})
	})
}

// isSentence decides whether a unit is prose worth quoting in a summary:
// enough words, mostly letters, not ending like a label or a fragment.
func isSentence(t string, item bool) bool {
	last := t[len(t)-1]
	if last == ':' || last == ',' || last == ';' {
		return false
	}
	words, letters, other := 0, 0, 0
	in := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		sp := c == ' '
		if !sp && !in {
			words++
		}
		in = !sp
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c >= 0x80:
			if utf8.RuneStart(c) {
				r, _ := utf8.DecodeRuneInString(t[i:])
				if unicode.IsLetter(r) {
					letters++
				} else if r != '’' && r != '“' && r != '”' && r != '–' && r != '—' {
					other++
				}
			}
		case sp || c == ',' || c == '.' || c == '\'' || c == '-' || c == '"':
		default:
			other++
		}
	}
	if words < 4 || words > 150 || !item && words < 5 {
		return false
	}
	return letters >= 3*other && letters >= 12
}

func wordCount(s string, limit int) int {
	n := 0
	in := false
	for i := 0; i < len(s); i++ {
		sp := s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		if !sp && !in {
			n++
			if n > limit {
				return n
			}
		}
		in = !sp
	}
	return n
}

func allOf(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != c && s[i] != ' ' {
			return false
		}
	}
	return true
}

// listItem strips a bullet or number marker ("- ", "* ", "1. ", "a) ",
// "[ ] ").
func listItem(l string) (string, bool) {
	rest, ok := "", false
	switch {
	case len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && l[1] == ' ':
		rest, ok = l[2:], true
	case strings.HasPrefix(l, "• ") || strings.HasPrefix(l, "· ") || strings.HasPrefix(l, "– "):
		_, n := utf8.DecodeRuneInString(l)
		rest, ok = l[n+1:], true
	default:
		i := 0
		for i < len(l) && i < 3 && isDigit(l[i]) {
			i++
		}
		if i == 0 && len(l) >= 3 && l[0] >= 'a' && l[0] <= 'z' && l[1] == ')' {
			i = 1
		}
		if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' ' {
			rest, ok = l[i+2:], true
		}
	}
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	for _, box := range []string{"[ ]", "[x]", "[X]"} {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, box))
	}
	return rest, true
}

// metaLine matches short "Key: value" lines such as "Date: 2024-03-01" or
// "Attendees: Priya, Tom".
func metaLine(l string) (key, val string, ok bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 || i > 30 || i+1 >= len(l) || l[i+1] != ' ' {
		return "", "", false
	}
	key = l[:i]
	if wordCount(key, 4) > 3 || !hasLetter(key) || strings.ContainsAny(key, "()[]{}<>\"") {
		return "", "", false
	}
	val = strings.TrimSpace(l[i+1:])
	if wordCount(val, 9) > 8 && strings.ContainsAny(val[len(val)-1:], ".!?") {
		return "", "", false // a sentence after a label: keep it as prose
	}
	return key, val, true
}

// looksLikeTable reports table rows and lines that are mostly numbers.
func looksLikeTable(l string) bool {
	if strings.Count(l, "|") >= 2 || strings.Count(l, "\t") >= 2 || timestamped(l) {
		return true
	}
	digits, letters := 0, 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case isDigit(c):
			digits++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			letters++
		}
	}
	return digits >= 6 && digits > letters
}

// timestamped reports log lines: ones that start with a date or a time
// ("2024-03-01 10:00:01 ...", "[10:00:01] ...").
func timestamped(l string) bool {
	l = strings.TrimLeft(l, "[(")
	digits := 0
	for digits < len(l) && isDigit(l[digits]) {
		digits++
	}
	if digits == 0 || digits >= len(l) {
		return false
	}
	switch l[digits] {
	case '-', '/':
		return digits == 4 && len(l) > digits+3 && isDigit(l[digits+1]) && isDigit(l[digits+2])
	case ':':
		return digits <= 2 && len(l) > digits+2 && isDigit(l[digits+1]) && isDigit(l[digits+2])
	}
	return false
}

// looksLikeCode reports lines of program text inside prose documents.
func looksLikeCode(l, raw string) bool {
	last := l[len(l)-1]
	if last == ';' || last == '{' || last == '}' || strings.HasSuffix(l, ");") || strings.HasSuffix(l, "),") {
		return true
	}
	for _, p := range []string{"import ", "#include", "func ", "def ", "package ", "$ ", "var ", "const ", "let ", "return ", "sudo ", "npm ", "go ", "pip ", "cd ", "git ", "make ", "curl ", "docker "} {
		if strings.HasPrefix(l, p) && !strings.HasSuffix(l, ".") {
			return true
		}
	}
	sym, n := 0, 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '{', '}', '[', ']', '(', ')', ';', '=', '<', '>', '/', '\\', '|', '$', '@', '&', '^', '%', '~', '`', '+', '#':
			sym++
		case ' ':
			continue
		}
		n++
	}
	// Indented four spaces (Markdown's code block) with any symbols, or
	// dense with symbols.
	if (strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t")) && sym >= 2 {
		return true
	}
	return sym >= 4 && sym*6 > n
}

// isBoilerplate matches licence headers, generated-code notices and other
// text that never describes a document. It looks only at word starts, so
// it costs one pass over the line.
func isBoilerplate(l string) bool {
	// Mail: the line that introduces a quoted reply, forwarded headers and
	// phone signatures.
	if strings.HasSuffix(l, "wrote:") && (strings.HasPrefix(l, "On ") || strings.HasPrefix(l, "Am ") || strings.HasPrefix(l, "Le ") || strings.HasPrefix(l, "El ")) ||
		prefixFold(strings.TrimLeft(l, "- "), "original message") || prefixFold(strings.TrimLeft(l, "- "), "forwarded message") {
		return true
	}
	for i := 0; i < len(l); i++ {
		if i > 0 && (isLetterByte(l[i-1]) || l[i-1] >= 0x80) {
			continue
		}
		rest := l[i:]
		switch l[i] | 0x20 {
		case 'c':
			if prefixFold(rest, "copyright") {
				return true
			}
		case 'a':
			if prefixFold(rest, "all rights reserved") || prefixFold(rest, "apache license") {
				return true
			}
		case 'l':
			if prefixFold(rest, "licensed under") || prefixFold(rest, "license, version") ||
				prefixFold(rest, "license for the specific") || prefixFold(rest, "license at") {
				return true
			}
		case 'p':
			if prefixFold(rest, "permission is hereby granted") {
				return true
			}
		case 'w':
			if prefixFold(rest, "without warrant") || prefixFold(rest, "warranties of") || prefixFold(rest, "with or without modification") {
				return true
			}
		case 'm':
			if prefixFold(rest, "mit license") || prefixFold(rest, "mozilla public license") {
				return true
			}
		case 'g':
			if prefixFold(rest, "general public license") || prefixFold(rest, "gnu lesser general") {
				return true
			}
		case 'b':
			if prefixFold(rest, "bsd license") || prefixFold(rest, "be liable") {
				return true
			}
		case 's':
			if prefixFold(rest, "spdx-license") || prefixFold(rest, "see the license") || prefixFold(rest, "shall not be liable") ||
				prefixFold(rest, "sent from my") {
				return true
			}
		case 'd':
			if prefixFold(rest, "do not edit") {
				return true
			}
		case 'u':
			if prefixFold(rest, "unsubscribe") {
				return true
			}
		case 't':
			if prefixFold(rest, "this program is free software") || prefixFold(rest, "this program is distributed") {
				return true
			}
		case '(':
			if len(rest) > 4 && (rest[1]|0x20) == 'c' && rest[2] == ')' && rest[3] == ' ' && isDigit(rest[4]) {
				return true
			}
		}
		if l[i] == 0xC2 && strings.HasPrefix(rest, "© ") && len(rest) > 3 && isDigit(rest[3]) {
			return true
		}
	}
	return false
}

// prefixFold reports whether s starts with the lower-case ASCII prefix p,
// ignoring case.
func prefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// collapseSpaces turns runs of white space into single spaces.
func collapseSpaces(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ' ' && i+1 < len(s) && s[i+1] == ' ' {
			need = true
			break
		}
	}
	if !need {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// abbreviations end with a period that does not end a sentence.
var abbreviations = set(`mr mrs ms dr prof sr jr st mt vs etc e.g i.e eg ie cf al fig figs no nos vol
approx dept est inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri
sat sun p.m a.m u.s u.k ph.d gen col lt sgt rev hon op ed eds pp p ca incl min max avg`)

// splitSentences calls emit for each sentence of a paragraph, in order.
func splitSentences(p string, emit func(string)) {
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		var width int
		switch {
		case c == '.' || c == '!' || c == '?':
			width = 1
		case c == 0xE2 && strings.HasPrefix(p[i:], "…"):
			width = len("…")
		case c == 0xE3 && strings.HasPrefix(p[i:], "。"):
			width = len("。")
		default:
			continue
		}
		j := i + width
		for j < len(p) {
			if strings.IndexByte(".!?\"')]", p[j]) >= 0 {
				j++
			} else if strings.HasPrefix(p[j:], "”") || strings.HasPrefix(p[j:], "’") || strings.HasPrefix(p[j:], "»") {
				_, n := utf8.DecodeRuneInString(p[j:])
				j += n
			} else {
				break
			}
		}
		if j >= len(p) {
			break
		}
		if p[j] != ' ' && width == 1 {
			i = j - 1
			continue
		}
		k := j
		for k < len(p) && p[k] == ' ' {
			k++
		}
		if k >= len(p) {
			break
		}
		next, _ := utf8.DecodeRuneInString(p[k:])
		if c == '.' {
			w := wordBefore(p, i)
			if len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z' { // an initial
				continue
			}
			if len(w) <= 5 && abbreviations[strings.ToLower(w)] {
				continue
			}
		}
		if unicode.IsLower(next) {
			continue
		}
		if s := strings.TrimSpace(p[start:j]); s != "" {
			emit(s)
		}
		start = k
		i = k - 1
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		emit(s)
	}
}

func wordBefore(p string, i int) string {
	j := i
	for j > 0 && (isLetterByte(p[j-1]) || p[j-1] == '.') {
		j--
	}
	return p[j:i]
}
