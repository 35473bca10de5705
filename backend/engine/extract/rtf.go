package extract

import (
	"bufio"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// rtfSkip lists destinations whose content is not document text.
var rtfSkip = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "listtable": true,
	"listoverridetable": true, "pict": true, "object": true, "themedata": true,
	"colorschememapping": true, "datastore": true, "latentstyles": true, "generator": true,
	"rsidtbl": true, "fldinst": true, "xmlnstbl": true, "mmathPr": true, "info": true,
	"bkmkstart": true, "bkmkend": true, "filetbl": true, "revtbl": true, "pgdsctbl": true,
	"operator": true, "company": true, "comment": true, "keywords": true, "doccomm": true,
	"subject": true, "nonshppict": true, "blipuid": true, "panose": true, "falt": true,
}

var rtfSymbols = map[string]string{
	"par": "\n", "line": "\n", "sect": "\n", "page": "\n", "row": "\n", "tab": "\t", "cell": "\t",
	"emdash": "—", "endash": "–", "bullet": "•", "lquote": "‘", "rquote": "’",
	"ldblquote": "“", "rdblquote": "”", "emspace": " ", "enspace": " ", "qmspace": " ",
}

type rtfGroup struct {
	skip      bool
	fontTable bool   // inside \fonttbl: \fN and \fcharsetN describe fonts
	cp        string // the code page of the current font, "" for the document's
	capture   string // "title" or "author": text goes to metadata
	uc        int    // characters to skip after \uN
}

type rtfParser struct {
	s       *source
	r       *bufio.Reader
	stack   []rtfGroup
	cur     rtfGroup
	pending []byte // \'xx bytes awaiting decoding as a run
	skipN   int    // fallback characters still to skip after \uN
	cp      string // the document's code page, as a charset name
	meta    map[string]*strings.Builder
	fontCP  map[int]string // font number -> its \fcharset's code page
	font    int            // the font being described in the font table
	high    rune           // a \uN high surrogate awaiting its low half
}

// extractRTF interprets the control words a reader needs for the text and
// skips the rest: fonts, styles, pictures, field instructions.
func extractRTF(s *source, d *Document) error {
	p := &rtfParser{s: s, r: bufio.NewReaderSize(s.reader(), 64<<10), cur: rtfGroup{uc: 1},
		cp: "windows-1252", meta: map[string]*strings.Builder{}, fontCP: map[int]string{}}
	err := p.run()
	p.flush()
	if b := p.meta["title"]; b != nil {
		d.Title = b.String()
	}
	if b := p.meta["author"]; b != nil {
		setMeta(d, "author", b.String())
	}
	return err
}

func (p *rtfParser) run() error {
	tk := tick{ctx: p.s.ctx}
	for !p.s.text.full() {
		c, err := p.r.ReadByte()
		if err != nil {
			return nil
		}
		if err := tk.err(); err != nil {
			return err
		}
		switch c {
		case '{':
			p.flush()
			if len(p.stack) >= maxNesting {
				return warnf("RTF nested deeper than %d groups: the rest is not indexed", maxNesting)
			}
			p.stack = append(p.stack, p.cur)
		case '}':
			p.flush()
			if n := len(p.stack); n > 0 {
				p.cur, p.stack = p.stack[n-1], p.stack[:n-1]
			}
		case '\\':
			p.control()
		case '\r', '\n':
		default:
			p.char(c)
		}
	}
	return nil
}

func (p *rtfParser) control() {
	c, err := p.r.ReadByte()
	if err != nil {
		return
	}
	switch {
	case isASCIILetter(c):
		p.r.UnreadByte()
		word, param, hasParam := p.readWord()
		p.word(word, param, hasParam)
	case c == '\'':
		h := make([]byte, 2)
		h[0], _ = p.r.ReadByte()
		h[1], _ = p.r.ReadByte()
		if v, err := strconv.ParseUint(string(h), 16, 8); err == nil {
			if p.skipN > 0 {
				p.skipN--
				return
			}
			p.pending = append(p.pending, byte(v))
		}
	case c == '*':
		p.cur.skip = true
	case c == '~':
		p.emit(" ")
	case c == '_':
		p.emit("-")
	case c == '\r', c == '\n':
		p.emit("\n")
	case c == '{', c == '}', c == '\\':
		p.char(c)
	}
}

func (p *rtfParser) readWord() (string, int, bool) {
	var w []byte
	for len(w) < 32 {
		c, err := p.r.ReadByte()
		if err != nil {
			break
		}
		if !isASCIILetter(c) {
			p.r.UnreadByte()
			break
		}
		w = append(w, c)
	}
	var num []byte
	for len(num) < 11 {
		c, err := p.r.ReadByte()
		if err != nil {
			break
		}
		if !(c >= '0' && c <= '9' || c == '-' && len(num) == 0) {
			if c != ' ' {
				p.r.UnreadByte()
			}
			break
		}
		num = append(num, c)
	}
	n, err := strconv.Atoi(string(num))
	return string(w), n, err == nil
}

func (p *rtfParser) word(w string, n int, has bool) {
	p.flush()
	switch {
	case w == "u" && has:
		if n < 0 {
			n += 65536
		}
		p.unicode(rune(n))
		p.skipN = p.cur.uc
		return
	case w == "fonttbl":
		p.cur.fontTable, p.cur.skip = true, true
	case w == "f" && has && p.cur.fontTable:
		p.font = n
	case w == "fcharset" && has && p.cur.fontTable:
		if cp := fcharsetName(n); cp != "" {
			p.fontCP[p.font] = cp
		}
	case w == "f" && has:
		p.cur.cp = p.fontCP[n]
	case w == "uc" && has:
		p.cur.uc = max(0, min(n, 8))
	case w == "ansicpg" && has:
		p.cp = codePageName(n)
	case w == "bin" && has && n > 0:
		p.r.Discard(n)
	case w == "title" || w == "author":
		p.cur.skip = true
		if p.meta[w] == nil { // the first one counts: writers repeat \author
			p.cur.capture = w
		}
	case rtfSkip[w]:
		p.cur.skip = true
	case rtfSymbols[w] != "":
		p.emit(rtfSymbols[w])
	}
	if p.skipN > 0 {
		p.skipN--
	}
}

func (p *rtfParser) char(c byte) {
	if p.skipN > 0 {
		p.skipN--
		return
	}
	p.pending = append(p.pending, c)
}

// flush decodes a run of raw bytes in the document's code page.
func (p *rtfParser) flush() {
	if len(p.pending) == 0 {
		return
	}
	cp := p.cp
	if p.cur.cp != "" {
		cp = p.cur.cp
	}
	text := decodeCharset(cp, p.pending)
	p.pending = p.pending[:0]
	p.emit(text)
}

func (p *rtfParser) emit(text string) {
	if len(p.pending) > 0 {
		p.flush()
	}
	switch {
	case p.cur.capture != "":
		b := p.meta[p.cur.capture]
		if b == nil {
			b = &strings.Builder{}
			p.meta[p.cur.capture] = b
		}
		if b.Len() < 1000 {
			b.WriteString(text)
		}
	case !p.cur.skip:
		p.s.text.WriteString(text)
	}
}

// unicode emits a \uN character, joining UTF-16 surrogate pairs (emoji).
func (p *rtfParser) unicode(r rune) {
	switch {
	case r >= 0xD800 && r < 0xDC00:
		p.high = r
		return
	case r >= 0xDC00 && r < 0xE000 && p.high != 0:
		r = utf16.DecodeRune(p.high, r)
	case r >= 0xD800 && r < 0xE000:
		r = utf8.RuneError
	}
	p.high = 0
	p.emit(string(r))
}

// fcharsetName is the code page of a font's \fcharset, "" for the
// document's own (0, 1) or none that decodes text (2, symbol).
func fcharsetName(n int) string {
	cp := map[int]int{77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254,
		163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250}[n]
	switch {
	case cp == 0:
		return ""
	case cp == 10000:
		return "macintosh"
	case cp == 874:
		return "windows-874"
	}
	return codePageName(cp)
}

func codePageName(n int) string {
	switch {
	case n >= 1250 && n <= 1258:
		return "windows-" + strconv.Itoa(n)
	case n == 932:
		return "shift_jis"
	case n == 936:
		return "gbk"
	case n == 949:
		return "euc-kr"
	case n == 950:
		return "big5"
	case n == 866:
		return "ibm866"
	case n == 65001:
		return "utf-8"
	}
	return "windows-1252"
}
