package extract

import (
	"bytes"
	"strconv"
	"strings"
)

// A small PDF object reader. It is lenient (broken files are common) and
// bounded: nesting, string sizes and lookups are capped, and it never
// recurses on data it has not checked.

type pdfName string

type pdfRef struct{ num, gen int }

type pdfDict map[pdfName]any

type pdfStream struct {
	dict      pdfDict
	raw       []byte
	num, gen  int  // the object holding it, for its decryption key
	encrypted bool // raw is encrypted
}

// pdfKeyword is a bare word: an operator in content streams, or obj, R,
// stream and the like in the file body.
type pdfKeyword string

const pdfMaxNesting = 64

type pdfLexer struct {
	b      []byte
	pos    int
	noRefs bool // content streams and CMaps have no "n g R" references
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isPDFDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *pdfLexer) skipSpace() {
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		switch {
		case isPDFSpace(c):
			l.pos++
		case c == '%':
			for l.pos < len(l.b) && l.b[l.pos] != '\n' && l.b[l.pos] != '\r' {
				l.pos++
			}
		default:
			return
		}
	}
}

// token returns the next token: delimiters as pdfKeyword ("[", "<<", ...),
// names, strings (as string), numbers (float64) and keywords. ok is false
// at the end.
func (l *pdfLexer) token() (any, bool) {
	l.skipSpace()
	if l.pos >= len(l.b) {
		return nil, false
	}
	c := l.b[l.pos]
	switch c {
	case '/':
		return l.name(), true
	case '(':
		return l.literal(), true
	case '<':
		if l.pos+1 < len(l.b) && l.b[l.pos+1] == '<' {
			l.pos += 2
			return pdfKeyword("<<"), true
		}
		return l.hex(), true
	case '>':
		if l.pos+1 < len(l.b) && l.b[l.pos+1] == '>' {
			l.pos += 2
			return pdfKeyword(">>"), true
		}
		l.pos++
		return pdfKeyword(">"), true
	case '[', ']', '{', '}', ')':
		l.pos++
		return pdfKeyword(string(c)), true
	}
	start := l.pos
	for l.pos < len(l.b) && !isPDFSpace(l.b[l.pos]) && !isPDFDelim(l.b[l.pos]) {
		l.pos++
	}
	word := l.b[start:l.pos]
	if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' {
		if f, ok := pdfNumber(word); ok {
			return f, true
		}
	}
	if k, ok := pdfKeywords[string(word)]; ok {
		return k, true
	}
	return pdfKeyword(word), true
}

// pdfKeywords are the words met most, returned without allocating.
var pdfKeywords = func() map[string]pdfKeyword {
	m := map[string]pdfKeyword{}
	for _, k := range strings.Fields(`obj endobj stream endstream R true false null BT ET Tf Tj TJ ' " Td TD
		T* Tm Tc Tw Tz TL Ts Tr Do q Q cm re f F f* n W W* S s B B* b b* m l c v y h g G rg RG k K cs CS
		sc SC scn SCN gs ri i d w J j M BI ID EI BMC BDC EMC MP DP sh d0 d1 begincmap endcmap
		beginbfchar endbfchar beginbfrange endbfrange begincodespacerange endcodespacerange def`) {
		m[k] = pdfKeyword(k)
	}
	return m
}()

// pdfNumber parses the plain decimal numbers PDF uses, without the
// generality (and cost) of strconv.ParseFloat.
func pdfNumber(w []byte) (float64, bool) {
	neg := false
	if w[0] == '-' || w[0] == '+' {
		neg, w = w[0] == '-', w[1:]
	}
	var v, scale float64 = 0, 0
	digits := 0
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			v = v*10 + float64(c-'0')
			if scale > 0 {
				scale *= 10
			}
			digits++
		case c == '.' && scale == 0:
			scale = 1
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	if scale > 1 {
		v /= scale
	}
	if neg {
		v = -v
	}
	return v, true
}

func (l *pdfLexer) name() pdfName { return pdfName(l.nameBytes()) }

// nameBytes reads a name; one without # escapes is returned in place.
func (l *pdfLexer) nameBytes() []byte {
	l.pos++
	start := l.pos
	for l.pos < len(l.b) && !isPDFSpace(l.b[l.pos]) && !isPDFDelim(l.b[l.pos]) {
		l.pos++
	}
	raw := l.b[start:l.pos]
	if bytes.IndexByte(raw, '#') < 0 {
		return raw
	}
	var out []byte
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			if v, err := strconv.ParseUint(string(raw[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return out
}

func (l *pdfLexer) literal() string { return string(l.appendLiteral(nil)) }

// appendLiteral appends the bytes of a literal string to out.
func (l *pdfLexer) appendLiteral(out []byte) []byte {
	l.pos++
	depth := 1
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return out
			}
		case '\\':
			if l.pos >= len(l.b) {
				return out
			}
			c = l.b[l.pos]
			l.pos++
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.b) && l.b[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for k := 0; k < 2 && l.pos < len(l.b) && l.b[l.pos] >= '0' && l.b[l.pos] <= '7'; k++ {
						v = v*8 + int(l.b[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func (l *pdfLexer) hex() string { return string(l.appendHex(nil)) }

// appendHex appends the bytes of a hex string to out.
func (l *pdfLexer) appendHex(out []byte) []byte {
	l.pos++
	var hi byte
	half := false
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		var v byte
		switch {
		case c == '>':
			if half {
				out = append(out, hi<<4)
			}
			return out
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	return out
}

// object parses one object; "n g R" becomes a pdfRef. depth bounds
// nesting of arrays and dictionaries.
func (l *pdfLexer) object(depth int) (any, bool) {
	tok, ok := l.token()
	if !ok {
		return nil, false
	}
	switch t := tok.(type) {
	case pdfKeyword:
		switch t {
		case "[":
			return l.array(depth + 1), true
		case "<<":
			return l.dict(depth + 1), true
		case "true":
			return true, true
		case "false":
			return false, true
		case "null":
			return nil, true
		}
		return t, true
	case float64:
		if l.noRefs {
			return t, true
		}
		return l.maybeRef(t), true
	}
	return tok, true
}

func (l *pdfLexer) maybeRef(num float64) any {
	save := l.pos
	gen, ok := l.token()
	if g, isNum := gen.(float64); ok && isNum && g >= 0 && g < 1<<16 && num >= 0 && num < 1<<31 && num == float64(int(num)) {
		if r, ok := l.token(); ok && r == pdfKeyword("R") {
			return pdfRef{int(num), int(g)}
		}
	}
	l.pos = save
	return num
}

func (l *pdfLexer) array(depth int) []any {
	var out []any
	for {
		if depth > pdfMaxNesting {
			l.skipTo("]")
			return out
		}
		save := l.pos
		tok, ok := l.token()
		if !ok || tok == pdfKeyword("]") {
			return out
		}
		if tok == pdfKeyword("endobj") || tok == pdfKeyword("stream") {
			l.pos = save
			return out
		}
		l.pos = save
		v, _ := l.object(depth)
		out = append(out, v)
	}
}

func (l *pdfLexer) dict(depth int) pdfDict {
	out := pdfDict{}
	for {
		if depth > pdfMaxNesting {
			l.skipTo(">>")
			return out
		}
		tok, ok := l.token()
		if !ok || tok == pdfKeyword(">>") {
			return out
		}
		key, isName := tok.(pdfName)
		if !isName {
			if kw, isKw := tok.(pdfKeyword); isKw && (kw == "endobj" || kw == "stream") {
				return out
			}
			continue
		}
		save := l.pos
		v, ok := l.object(depth)
		if !ok {
			return out
		}
		if v == pdfKeyword(">>") {
			l.pos = save
			continue
		}
		out[key] = v
	}
}

// skipTo moves past the next occurrence of the delimiter, ignoring what is
// inside: used when nesting is too deep to be worth parsing.
func (l *pdfLexer) skipTo(delim string) {
	if i := bytes.Index(l.b[l.pos:], []byte(delim)); i >= 0 {
		l.pos += i + len(delim)
	} else {
		l.pos = len(l.b)
	}
}
