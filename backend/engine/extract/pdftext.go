package extract

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pdfText interprets the text operators of content streams; graphics are
// ignored. It follows the text position through the text and graphics
// matrices and each glyph's width, so that a page's pieces of text can be
// put in reading order by where they stand (see pdflayout.go).
type pdfText struct {
	p     *pdfFile
	out   *sink
	fonts map[pdfName]*pdfFont // fonts given inline, by resource name
	forms int

	gs     pdfGState
	stack  []pdfGState
	tm     pdfMatrix // text matrix
	tlm    pdfMatrix // text line matrix
	layout pdfLayout
}

// pdfGState is the part of the graphics state that places text.
type pdfGState struct {
	ctm                  pdfMatrix
	font                 *pdfFont
	size, tc, tw, th, tl float64
	rise                 float64
}

const pdfMaxOperands = 32

// pdfOperands is the storage of a content stream's operands.
type pdfOperands struct {
	ops, arr []pdfOperand
	strs     []byte
}

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
	// The operands' storage serves every page; a form's content, run
	// while its caller's operator runs, has the next depth's.
	buf := &t.p.operands[depth]
	ops := buf.ops[:0]
	arr := buf.arr[:0] // the last array operand (TJ)
	// Strings with escapes are decoded into strs, which is emptied at each
	// operator: an operator's operands are read after the one before ran.
	strs := buf.strs[:0]
	defer func() { buf.ops, buf.arr, buf.strs = ops, arr, strs }()
	for !t.out.full() && !t.layout.full() {
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
			op.kind = 's'
			op.str, strs = l.stringBytes(strs)
		case c == '[':
			l.pos++
			arr, strs = l.operandArray(arr[:0], strs)
			op.kind = '['
		case c == '/':
			op = pdfOperand{kind: '/', str: l.nameBytes()}
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
			ops, strs = ops[:0], strs[:0]
			continue
		}
		if len(ops) < pdfMaxOperands {
			ops = append(ops, op)
		}
	}
}

// stringBytes reads a literal or hex string: a literal without escapes in
// place, else decoded at the end of buf. It returns the string and buf.
func (l *pdfLexer) stringBytes(buf []byte) ([]byte, []byte) {
	start := len(buf)
	if l.b[l.pos] == '(' {
		end := l.pos + 1
		for end < len(l.b) && l.b[end] != ')' && l.b[end] != '(' && l.b[end] != '\\' {
			end++
		}
		if end < len(l.b) && l.b[end] == ')' {
			str := l.b[l.pos+1 : end]
			l.pos = end + 1
			return str, buf
		}
		buf = l.appendLiteral(buf)
	} else {
		buf = l.appendHex(buf)
	}
	return buf[start:len(buf):len(buf)], buf
}

// operandArray reads the elements of a TJ array up to its ']', strings
// decoded into buf as by stringBytes.
func (l *pdfLexer) operandArray(arr []pdfOperand, buf []byte) ([]pdfOperand, []byte) {
	for len(arr) < 1<<16 {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return arr, buf
		}
		switch c := l.b[l.pos]; {
		case c == ']':
			l.pos++
			return arr, buf
		case c == '(' || c == '<' && (l.pos+1 >= len(l.b) || l.b[l.pos+1] != '<'):
			op := pdfOperand{kind: 's'}
			op.str, buf = l.stringBytes(buf)
			arr = append(arr, op)
		case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
			// A number, read as token would without boxing it; a word
			// that is not one is passed over, as token would.
			start := l.pos
			for l.pos < len(l.b) && !isPDFSpace(l.b[l.pos]) && !isPDFDelim(l.b[l.pos]) {
				l.pos++
			}
			if f, ok := pdfNumber(l.b[start:l.pos]); ok {
				arr = append(arr, pdfOperand{kind: 'n', num: f})
			}
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
	return arr, buf
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
	case "q":
		if len(t.stack) < 64 {
			t.stack = append(t.stack, t.gs)
		}
	case "Q":
		if k := len(t.stack); k > 0 {
			t.gs = t.stack[k-1]
			t.stack = t.stack[:k-1]
		}
	case "cm":
		if n >= 6 {
			t.gs.ctm = lastMatrix(num, n).mul(t.gs.ctm)
		}
	case "BT":
		t.tm, t.tlm = pdfIdentity, pdfIdentity
	case "Tf":
		if n >= 2 && ops[n-2].kind == '/' {
			t.gs.font = t.fontFor(res, pdfName(ops[n-2].str))
			t.gs.size = num(n - 1)
		}
	case "Tc":
		t.gs.tc = num(n - 1)
	case "Tw":
		t.gs.tw = num(n - 1)
	case "Tz":
		t.gs.th = num(n-1) / 100
	case "TL":
		t.gs.tl = num(n - 1)
	case "Ts":
		t.gs.rise = num(n - 1)
	case "Td":
		t.moveLine(num(n-2), num(n-1))
	case "TD":
		t.gs.tl = -num(n - 1)
		t.moveLine(num(n-2), num(n-1))
	case "Tm":
		if n >= 6 {
			t.tm = lastMatrix(num, n)
			t.tlm = t.tm
		}
	case "T*":
		t.moveLine(0, -t.gs.tl)
	case "Tj":
		t.showLast(ops)
	case "'":
		t.moveLine(0, -t.gs.tl)
		t.showLast(ops)
	case "\"":
		if n >= 3 {
			t.gs.tw, t.gs.tc = num(n-3), num(n-2)
		}
		t.moveLine(0, -t.gs.tl)
		t.showLast(ops)
	case "TJ":
		if n == 0 || ops[n-1].kind != '[' {
			return
		}
		for _, e := range arr {
			if e.kind == 's' {
				t.show(e.str)
			} else {
				t.advance(-e.num / 1000 * t.gs.size * t.gs.th)
			}
		}
	case "Do":
		if n >= 1 && ops[n-1].kind == '/' {
			t.form(res, pdfName(ops[n-1].str), depth)
		}
	case "ID":
		skipInlineImage(l)
	}
}

// lastMatrix is the matrix given by the last six of n operands.
func lastMatrix(num func(int) float64, n int) pdfMatrix {
	return pdfMatrix{num(n - 6), num(n - 5), num(n - 4), num(n - 3), num(n - 2), num(n - 1)}
}

func (t *pdfText) moveLine(tx, ty float64) {
	t.tlm = pdfMatrix{1, 0, 0, 1, tx, ty}.mul(t.tlm)
	t.tm = t.tlm
}

// advance moves the text position along the line by tx text-space units.
func (t *pdfText) advance(tx float64) {
	t.tm = t.tm.translated(tx)
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
	saved, savedTM, savedTLM, savedStack := t.gs, t.tm, t.tlm, len(t.stack)
	if m, ok := t.p.resolve(st.dict["Matrix"]).([]any); ok && len(m) == 6 {
		var fm pdfMatrix
		for i := range fm {
			fm[i], _ = t.p.resolve(m[i]).(float64)
		}
		t.gs.ctm = fm.mul(t.gs.ctm)
	}
	data := t.p.decode(st)
	t.run(data, inner, depth+1)
	t.p.mem.give(data)
	t.gs, t.tm, t.tlm, t.stack = saved, savedTM, savedTLM, t.stack[:savedStack]
}

func (t *pdfText) showLast(ops []pdfOperand) {
	if n := len(ops); n > 0 && ops[n-1].kind == 's' {
		t.show(ops[n-1].str)
	}
}

// show places a string: its text becomes one span of the page, from the
// current text position to where its glyphs' widths end.
func (t *pdfText) show(s []byte) {
	f := t.gs.font
	if f == nil {
		f = pdfNoFont
	}
	if t.layout.full() {
		return
	}
	g := &t.gs
	trm := pdfMatrix{g.size * g.th, 0, 0, g.size, 0, g.rise}.mul(t.tm).mul(g.ctm)
	start := len(t.layout.text)
	var tx float64
	gap := 0.15 * math.Abs(g.size)
	t.layout.text = f.walk(t.layout.text, s, func(w float64, space bool) bool {
		extra := g.tc
		if space {
			extra += g.tw
		}
		tx += (w*g.size + extra) * g.th
		return extra > gap
	})
	t.tm = t.tm.translated(tx)
	ex, ey := t.tm.mulEF(g.ctm)
	t.layout.add(start, trm, ex, ey)
	t.p.unmapped += f.unmapped
	f.unmapped = 0
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
	cmap     map[string]string
	codeLen  int // 1 or 2 when all CMap codes have that length; 0 when mixed
	twoByte  bool
	ucs2     bool
	simple   [256]rune
	multi    map[byte]string
	gidText  map[uint16]rune // an Identity-H font's codes read back through its TrueType cmap
	unmapped int             // codes shown that gave no text // codes whose glyph names spell several characters (f_f_i)
	// widths, in text space units per unit of font size
	scale  float64            // glyph space to text space (1/1000, or a Type 3 font's matrix)
	first  int                // the code of widths[0] in a simple font
	widths []float64          // a simple font's /Widths, or nil
	cidW   map[uint32]float64 // a CID font's /W
	dw     float64            // the width of codes without one
}

// pdfNoFont decodes strings shown before any font was set.
var pdfNoFont = &pdfFont{simple: winAnsi, scale: 0.001, dw: 0.5}

func (p *pdfFile) loadFont(fd pdfDict) *pdfFont {
	f := &pdfFont{simple: winAnsi, scale: 0.001, dw: 0.5}
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
	if f.twoByte {
		f.cidWidths(p, fd)
		if f.cmap == nil && !f.ucs2 {
			f.gidText = p.cidFontCmap(fd)
		}
		return f
	}
	f.simpleWidths(p, fd)
	f.simple = p.baseEncoding(fd)
	if encDict := p.dict(fd["Encoding"]); encDict != nil {
		f.differences(p, encDict)
	}
	return f
}

// simpleWidths reads /FirstChar and /Widths, and a Type 3 font's matrix.
func (f *pdfFont) simpleWidths(p *pdfFile, fd pdfDict) {
	if fd["Subtype"] == pdfName("Type3") {
		if m, ok := p.resolve(fd["FontMatrix"]).([]any); ok && len(m) == 6 {
			if a, ok := p.resolve(m[0]).(float64); ok && a > 0 {
				f.scale = a
			}
		}
	}
	f.first, _ = pdfInt(p.resolve(fd["FirstChar"]), 255)
	ws, _ := p.resolve(fd["Widths"]).([]any)
	for _, w := range ws[:min(len(ws), 256)] {
		v, _ := p.resolve(w).(float64)
		f.widths = append(f.widths, v)
	}
	if w, ok := p.resolve(p.dict(fd["FontDescriptor"])["MissingWidth"]).(float64); ok && w > 0 {
		f.dw = w * f.scale
	}
}

// cidWidths reads the descendant font's /DW and /W.
func (f *pdfFont) cidWidths(p *pdfFile, fd pdfDict) {
	f.dw = 1
	f.cidW = map[uint32]float64{}
	cid := p.descendant(fd)
	if cid == nil {
		return
	}
	if dw, ok := p.resolve(cid["DW"]).(float64); ok {
		f.dw = dw * f.scale
	}
	w, _ := p.resolve(cid["W"]).([]any)
	for i := 0; i+1 < len(w) && len(f.cidW) < cmapMaxEntries; {
		c, ok := pdfInt(p.resolve(w[i]), math.MaxInt32)
		if !ok {
			return
		}
		if list, isList := p.resolve(w[i+1]).([]any); isList {
			for j, v := range list {
				x, _ := p.resolve(v).(float64)
				f.cidW[uint32(c+j)] = x
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			return
		}
		last, ok := pdfInt(p.resolve(w[i+1]), math.MaxInt32)
		x, _ := p.resolve(w[i+2]).(float64)
		for k := c; ok && k <= last && k-c < 1<<16 && len(f.cidW) < cmapMaxEntries; k++ {
			f.cidW[uint32(k)] = x
		}
		i += 3
	}
}

// baseEncoding is a simple font's encoding before /Differences: the named
// /BaseEncoding, else a Type 1 font's built-in encoding (its embedded
// program's, else Adobe's standard one), else WinAnsi.
func (p *pdfFile) baseEncoding(fd pdfDict) [256]rune {
	name, _ := p.resolve(fd["Encoding"]).(pdfName)
	if d := p.dict(fd["Encoding"]); d != nil {
		name, _ = p.resolve(d["BaseEncoding"]).(pdfName)
	}
	switch name {
	case "WinAnsiEncoding":
		return winAnsi
	case "MacRomanEncoding":
		return macRoman
	case "StandardEncoding":
		return standardEncoding
	case "PDFDocEncoding":
		return winAnsi
	}
	switch fd["Subtype"] {
	case pdfName("Type1"), pdfName("MMType1"):
		if enc, ok := p.type1Encoding(p.dict(fd["FontDescriptor"])); ok {
			return enc
		}
		if flags, _ := p.resolve(p.dict(fd["FontDescriptor"])["Flags"]).(float64); int(flags)&4 != 0 {
			return winAnsi // symbolic: its codes are its own, WinAnsi keeps ASCII readable
		}
		return standardEncoding
	}
	return winAnsi
}

// type1Encoding reads the "dup code /name put" lines of an embedded Type 1
// program's clear-text part.
func (p *pdfFile) type1Encoding(desc pdfDict) ([256]rune, bool) {
	st, ok := p.resolve(desc["FontFile"]).(*pdfStream)
	if !ok {
		return [256]rune{}, false
	}
	data := p.decode(st)
	defer p.mem.give(data)
	if n, ok := pdfInt(p.resolve(st.dict["Length1"]), len(data)); ok {
		data = data[:n]
	}
	i := bytes.Index(data, []byte("/Encoding"))
	if i < 0 || bytes.HasPrefix(bytes.TrimSpace(data[i+9:]), []byte("StandardEncoding")) {
		return [256]rune{}, false
	}
	enc := standardEncoding
	for i := range enc {
		enc[i] = 0
	}
	found := false
	for _, m := range type1DupRe.FindAllSubmatch(data[i:], 256) {
		code, err := strconv.Atoi(string(m[1]))
		if err != nil || code > 255 {
			continue
		}
		if r := glyphRune(string(m[2])); r != 0 {
			enc[code], found = r, true
		}
	}
	return enc, found
}

var type1DupRe = regexp.MustCompile(`dup\s+(\d{1,3})\s*/([A-Za-z0-9._]+)\s+put`)

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
				if lig := glyphLigature(string(x)); lig != "" {
					if f.multi == nil {
						f.multi = map[byte]string{}
					}
					f.multi[byte(code)] = lig
				}
				code++
			}
		}
	}
}

// walk appends the text of a shown string to dst, calling fn with each
// code's width (text space units per unit of font size) and whether it is
// the single-byte space that word spacing widens.
// When fn says so, a space follows the glyph: character or word spacing
// wide enough to part words (justified lines) shows no space glyph.
func (f *pdfFont) walk(dst, s []byte, fn func(w float64, space bool) bool) []byte {
	for i := 0; i < len(s); {
		at := len(dst)
		var n int
		var ok bool
		dst, n, ok = f.code(dst, s[i:])
		var code uint32
		for _, c := range s[i : i+n] {
			code = code<<8 | uint32(c)
		}
		if !ok {
			f.unmapped++
		}
		spaceGlyph := len(dst) == at+1 && dst[at] == ' '
		i += n
		if fn(f.width(code), n == 1 && code == 32) && i < len(s) && ok && !spaceGlyph {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// code reads one character code at the start of s: it appends the code's
// text to dst, and says how long the code is and whether it had text.
func (f *pdfFont) code(dst, s []byte) ([]byte, int, bool) {
	if f.cmap != nil {
		if f.codeLen > 0 && len(s) >= f.codeLen {
			if u, ok := f.cmap[string(s[:f.codeLen])]; ok {
				return append(dst, u...), f.codeLen, true
			}
		} else if f.codeLen == 0 {
			for n := 1; n <= 4 && n <= len(s); n++ {
				if u, ok := f.cmap[string(s[:n])]; ok {
					return append(dst, u...), n, true
				}
			}
		}
	}
	switch {
	case f.twoByte && len(s) >= 2 && f.ucs2:
		return utf8.AppendRune(dst, rune(int(s[0])<<8|int(s[1]))), 2, true
	case f.twoByte && len(s) >= 2 && f.gidText != nil:
		if r, ok := f.gidText[uint16(s[0])<<8|uint16(s[1])]; ok {
			return utf8.AppendRune(dst, r), 2, true
		}
		return dst, 2, false
	case f.twoByte && len(s) >= 2:
		return dst, 2, false // a glyph id without a map: nothing readable
	case f.twoByte:
		return dst, len(s), false
	}
	if lig, ok := f.multi[s[0]]; ok {
		return append(dst, lig...), 1, true
	}
	r := f.simple[s[0]]
	if r == 0 {
		return dst, 1, false
	}
	return utf8.AppendRune(dst, r), 1, true
}

func (f *pdfFont) width(code uint32) float64 {
	if f.cidW != nil {
		if w, ok := f.cidW[code]; ok {
			return w * f.scale
		}
		return f.dw
	}
	if i := int(code) - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i] * f.scale
	}
	return f.dw
}

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
