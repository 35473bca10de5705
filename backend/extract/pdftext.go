package extract

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pdfText interprets the text operators of content streams; graphics are
// ignored. Line breaks follow the text position operators.
type pdfText struct {
	p     *pdfFile
	out   *sink
	fonts map[pdfName]*pdfFont // fonts given inline, by resource name
	font  *pdfFont
	lastY float64
	forms int
}

const pdfMaxOperands = 32

// pdfOperand is one operand of a content stream operator. Content streams
// hold most of a PDF's tokens, so they are read without boxing each number
// in an interface, and strings without escapes alias the stream.
type pdfOperand struct {
	kind byte // 'n' number, 's' string, '/' name, '[' array (in arr), 'x' other
	num  float64
	str  []byte
}

func (t *pdfText) run(content []byte, res pdfDict, depth int) {
	l := &pdfLexer{b: content, noRefs: true}
	ops := make([]pdfOperand, 0, pdfMaxOperands)
	var arr []pdfOperand // the last array operand (TJ)
	for !t.out.full() {
		if t.p.tk.err() != nil {
			return
		}
		l.skipSpace()
		if l.pos >= len(l.b) {
			return
		}
		var op pdfOperand
		switch c := l.b[l.pos]; {
		case c == '(' || c == '<' && (l.pos+1 >= len(l.b) || l.b[l.pos+1] != '<'):
			op = pdfOperand{kind: 's', str: l.stringBytes()}
		case c == '[':
			l.pos++
			arr = l.operandArray(arr[:0])
			op.kind = '['
		case c == '/':
			op = pdfOperand{kind: '/', str: []byte(l.name())}
		case c == '<' || c == '{' || c == '}' || c == ']' || c == ')' || c == '>':
			l.object(0) // dictionaries (marked content, inline images) and stray delimiters
			op.kind = 'x'
		default:
			start := l.pos
			for l.pos < len(l.b) && !isPDFSpace(l.b[l.pos]) && !isPDFDelim(l.b[l.pos]) {
				l.pos++
			}
			word := l.b[start:l.pos]
			if f, ok := pdfNumber(word); ok {
				op = pdfOperand{kind: 'n', num: f}
				break
			}
			t.operator(l, string(word), ops, arr, res, depth)
			ops = ops[:0]
			continue
		}
		if len(ops) < pdfMaxOperands {
			ops = append(ops, op)
		}
	}
}

// stringBytes reads a literal or hex string; a literal without escapes is
// returned in place.
func (l *pdfLexer) stringBytes() []byte {
	if l.b[l.pos] == '(' {
		end := l.pos + 1
		for end < len(l.b) && l.b[end] != ')' && l.b[end] != '(' && l.b[end] != '\\' {
			end++
		}
		if end < len(l.b) && l.b[end] == ')' {
			str := l.b[l.pos+1 : end]
			l.pos = end + 1
			return str
		}
		return []byte(l.literal())
	}
	return []byte(l.hex())
}

// operandArray reads the elements of a TJ array up to its ']'.
func (l *pdfLexer) operandArray(arr []pdfOperand) []pdfOperand {
	for len(arr) < 1<<16 {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return arr
		}
		switch c := l.b[l.pos]; {
		case c == ']':
			l.pos++
			return arr
		case c == '(' || c == '<' && (l.pos+1 >= len(l.b) || l.b[l.pos+1] != '<'):
			arr = append(arr, pdfOperand{kind: 's', str: l.stringBytes()})
		default:
			save := l.pos
			tok, _ := l.token()
			if f, ok := tok.(float64); ok {
				arr = append(arr, pdfOperand{kind: 'n', num: f})
			} else if l.pos == save {
				l.pos++
			}
		}
	}
	return arr
}

func (t *pdfText) operator(l *pdfLexer, op string, ops, arr []pdfOperand, res pdfDict, depth int) {
	n := len(ops)
	num := func(i int) float64 {
		if i < 0 || i >= n || ops[i].kind != 'n' {
			return 0
		}
		return ops[i].num
	}
	switch op {
	case "Tf":
		if n >= 2 && ops[n-2].kind == '/' {
			t.font = t.fontFor(res, pdfName(ops[n-2].str))
		}
	case "Tj":
		t.showLast(ops)
	case "'", "\"":
		t.out.nl()
		t.showLast(ops)
	case "TJ":
		if n == 0 || ops[n-1].kind != '[' {
			return
		}
		for _, e := range arr {
			switch {
			case e.kind == 's':
				t.show(e.str)
			case e.num < -200:
				t.out.sp()
			}
		}
	case "Td", "TD":
		if num(n-1) != 0 {
			t.out.nl()
		} else if num(n-2) > 0 {
			t.out.sp()
		}
	case "T*":
		t.out.nl()
	case "Tm":
		if y := num(n - 1); y != t.lastY {
			t.out.nl()
			t.lastY = y
		} else {
			t.out.sp()
		}
	case "ET":
		t.out.sp()
	case "Do":
		if n >= 1 && ops[n-1].kind == '/' {
			t.form(res, pdfName(ops[n-1].str), depth)
		}
	case "ID":
		skipInlineImage(l)
	}
}

// skipInlineImage jumps over the binary data of BI ... ID data EI.
func skipInlineImage(l *pdfLexer) {
	l.pos++
	for l.pos < len(l.b) {
		i := bytes.Index(l.b[l.pos:], []byte("EI"))
		if i < 0 {
			l.pos = len(l.b)
			return
		}
		at := l.pos + i
		l.pos = at + 2
		if at > 0 && isPDFSpace(l.b[at-1]) && (at+2 == len(l.b) || isPDFSpace(l.b[at+2])) {
			return
		}
	}
}

// form runs a form XObject's content, a few levels deep at most.
func (t *pdfText) form(res pdfDict, name pdfName, depth int) {
	if depth >= pdfFormDepth || t.forms >= 1000 {
		return
	}
	xobjs := t.p.dict(res["XObject"])
	st, ok := t.p.resolve(xobjs[name]).(*pdfStream)
	if !ok || st.dict["Subtype"] != pdfName("Form") {
		return
	}
	t.forms++
	inner := t.p.dict(st.dict["Resources"])
	if inner == nil {
		inner = res
	}
	saved := t.font
	data := t.p.decode(st)
	t.run(data, inner, depth+1)
	t.p.mem.give(data)
	t.font = saved
}

func (t *pdfText) showLast(ops []pdfOperand) {
	if n := len(ops); n > 0 && ops[n-1].kind == 's' {
		t.show(ops[n-1].str)
	}
}

func (t *pdfText) show(s []byte) {
	if t.font == nil {
		t.out.WriteString(decode1252(s))
		return
	}
	t.font.decode(t.out, s)
}

func (t *pdfText) fontFor(res pdfDict, name pdfName) *pdfFont {
	ref := t.p.dict(res["Font"])[name]
	if r, ok := ref.(pdfRef); ok {
		// Fonts are shared by pages: their CMaps are parsed once per file.
		if f := t.p.fonts[r]; f != nil {
			return f
		}
		f := t.p.loadFont(t.p.dict(r))
		t.p.fonts[r] = f
		return f
	}
	if f := t.fonts[name]; f != nil {
		return f
	}
	f := t.p.loadFont(t.p.dict(ref))
	t.fonts[name] = f
	return f
}

// pdfFont maps character codes to text: through the ToUnicode CMap when
// there is one, else through the simple font's encoding.
type pdfFont struct {
	cmap    map[string]string
	codeLen int // 1 or 2 when all CMap codes have that length; 0 when mixed
	twoByte bool
	ucs2    bool
	simple  [256]rune
}

func (p *pdfFile) loadFont(fd pdfDict) *pdfFont {
	f := &pdfFont{simple: winAnsi}
	if fd == nil {
		return f
	}
	f.twoByte = fd["Subtype"] == pdfName("Type0")
	if enc, ok := p.resolve(fd["Encoding"]).(pdfName); ok && f.twoByte {
		f.ucs2 = strings.Contains(string(enc), "UCS2") || strings.Contains(string(enc), "UTF16")
	}
	if st, ok := p.resolve(fd["ToUnicode"]).(*pdfStream); ok {
		data := p.decode(st)
		f.cmap, f.codeLen = parseCMap(data)
		p.mem.give(data)
	}
	if encDict := p.dict(fd["Encoding"]); encDict != nil {
		f.differences(p, encDict)
	}
	return f
}

func (f *pdfFont) differences(p *pdfFile, enc pdfDict) {
	diffs, _ := p.resolve(enc["Differences"]).([]any)
	code := -1
	for _, d := range diffs {
		switch x := d.(type) {
		case float64:
			code = int(x)
		case pdfName:
			if code >= 0 && code < 256 {
				if r := glyphRune(string(x)); r != 0 {
					f.simple[code] = r
				}
				code++
			}
		}
	}
}

// decode writes the text of a shown string.
func (f *pdfFont) decode(out *sink, s []byte) {
	switch {
	case f.cmap != nil:
		f.decodeCMap(out, s)
	case f.ucs2:
		out.WriteString(utf16Text(s, true))
	case f.twoByte:
		// glyph ids without a map: nothing readable
	default:
		var buf [utf8.UTFMax]byte
		for _, c := range s {
			n := utf8.EncodeRune(buf[:], f.simple[c])
			out.Write(buf[:n])
		}
	}
}

func (f *pdfFont) decodeCMap(out *sink, s []byte) {
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		if f.codeLen > 0 {
			end := min(len(s), i+f.codeLen)
			out.WriteString(f.cmap[string(s[i:end])])
			i = end
			continue
		}
		done := false
		for n := 1; n <= 4 && i+n <= len(s); n++ {
			if u, ok := f.cmap[string(s[i:i+n])]; ok {
				out.WriteString(u)
				i += n
				done = true
				break
			}
		}
		if !done {
			if !f.twoByte {
				n := utf8.EncodeRune(buf[:], f.simple[s[i]])
				out.Write(buf[:n])
			}
			i++
		}
	}
}

// winAnsi is the default single-byte encoding.
var winAnsi = func() (t [256]rune) {
	for i := range t {
		t[i] = []rune(decode1252([]byte{byte(i)}))[0]
	}
	return t
}()

const cmapMaxEntries = 1 << 17

// parseCMap reads bfchar and bfrange mappings of a ToUnicode CMap.
func parseCMap(data []byte) (map[string]string, int) {
	m := map[string]string{}
	l := &pdfLexer{b: data, noRefs: true}
	var ops []any
	mode := ""
	for len(m) < cmapMaxEntries {
		tok, ok := l.object(0)
		if !ok {
			break
		}
		kw, isKw := tok.(pdfKeyword)
		if !isKw {
			if mode != "" {
				ops = append(ops, tok)
				if mode == "char" && len(ops) == 2 {
					src, _ := ops[0].(string)
					dst, _ := ops[1].(string)
					if src != "" {
						m[src] = utf16Text([]byte(dst), true)
					}
					ops = ops[:0]
				} else if mode == "range" && len(ops) == 3 {
					cmapRange(m, ops)
					ops = ops[:0]
				}
			}
			continue
		}
		switch kw {
		case "beginbfchar":
			mode, ops = "char", ops[:0]
		case "beginbfrange":
			mode, ops = "range", ops[:0]
		case "endbfchar", "endbfrange":
			mode, ops = "", ops[:0]
		}
	}
	return m, uniformLen(m)
}

func cmapRange(m map[string]string, ops []any) {
	lo, _ := ops[0].(string)
	hi, _ := ops[1].(string)
	if lo == "" || len(lo) != len(hi) || len(lo) > 4 {
		return
	}
	a, b := codeValue(lo), codeValue(hi)
	if b < a || b-a > 0xffff {
		return
	}
	for c := a; c <= b && len(m) < cmapMaxEntries; c++ {
		key := codeBytes(c, len(lo))
		switch dst := ops[2].(type) {
		case string:
			m[key] = incrementUTF16(dst, int(c-a))
		case []any:
			if i := int(c - a); i < len(dst) {
				if s, ok := dst[i].(string); ok {
					m[key] = utf16Text([]byte(s), true)
				}
			}
		}
	}
}

func codeValue(s string) uint32 {
	var v uint32
	for i := 0; i < len(s); i++ {
		v = v<<8 | uint32(s[i])
	}
	return v
}

func codeBytes(v uint32, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return string(b)
}

// incrementUTF16 adds delta to the last code unit of a UTF-16BE string.
func incrementUTF16(s string, delta int) string {
	b := []byte(s)
	if len(b) < 2 {
		return ""
	}
	last := int(b[len(b)-2])<<8 | int(b[len(b)-1])
	last += delta
	b[len(b)-2], b[len(b)-1] = byte(last>>8), byte(last)
	return utf16Text(b, true)
}

func uniformLen(m map[string]string) int {
	n := 0
	for k := range m {
		switch {
		case n == 0:
			n = len(k)
		case len(k) != n:
			return 0
		}
	}
	return n
}

// glyphRune maps the glyph names met in /Differences arrays.
func glyphRune(name string) rune {
	if len(name) == 1 {
		return rune(name[0])
	}
	if r, ok := glyphNames[name]; ok {
		return r
	}
	for _, prefix := range []string{"uni", "u"} {
		if h, ok := strings.CutPrefix(name, prefix); ok && len(h) >= 4 && len(h) <= 6 {
			if v, err := strconv.ParseUint(h[:4], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
				return rune(v)
			}
		}
	}
	return 0
}

var glyphNames = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
	"ampersand": '&', "quotesingle": '\'', "parenleft": '(', "parenright": ')', "asterisk": '*',
	"plus": '+', "comma": ',', "hyphen": '-', "period": '.', "slash": '/', "zero": '0', "one": '1',
	"two": '2', "three": '3', "four": '4', "five": '5', "six": '6', "seven": '7', "eight": '8',
	"nine": '9', "colon": ':', "semicolon": ';', "less": '<', "equal": '=', "greater": '>',
	"question": '?', "at": '@', "bracketleft": '[', "backslash": '\\', "bracketright": ']',
	"underscore": '_', "grave": '`', "braceleft": '{', "bar": '|', "braceright": '}',
	"asciitilde": '~', "quoteleft": '‘', "quoteright": '’', "quotedblleft": '“', "quotedblright": '”',
	"endash": '–', "emdash": '—', "bullet": '•', "ellipsis": '…', "fi": 'ﬁ', "fl": 'ﬂ',
	"eacute": 'é', "egrave": 'è', "ecircumflex": 'ê', "agrave": 'à', "aacute": 'á', "acircumflex": 'â',
	"adieresis": 'ä', "odieresis": 'ö', "udieresis": 'ü', "Adieresis": 'Ä', "Odieresis": 'Ö',
	"Udieresis": 'Ü', "germandbls": 'ß', "ccedilla": 'ç', "ntilde": 'ñ', "oacute": 'ó', "uacute": 'ú',
	"iacute": 'í', "Eacute": 'É', "degree": '°', "copyright": '©', "registered": '®', "trademark": '™',
	"Euro": '€', "sterling": '£', "section": '§', "paragraph": '¶', "minus": '−', "nbspace": ' ',
}
