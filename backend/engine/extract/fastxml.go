package extract

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// A lenient streaming XML scanner for the parts of office documents. Word
// files carry forty bytes of markup per byte of text, and encoding/xml reads
// them at a few tens of MB/s; this reads them an order of magnitude faster
// because it only splits tags from text and leaves attributes unparsed
// until asked. It checks no well-formedness: office parts are machine
// written, and a damaged one still yields its readable text.

const xmlMaxToken = 1 << 20 // one tag or comment longer than this is an error

var errTokenTooLong = errors.New("XML markup too long")

type xmlElem struct {
	prefix, local string
	attrs         []byte // raw attribute text, parsed on demand
}

// attr returns the value of the attribute whose local name is name.
func (e *xmlElem) attr(name string) string {
	a := e.attrs
	for len(a) > 0 {
		a = bytes.TrimLeft(a, " \t\r\n")
		eq := bytes.IndexByte(a, '=')
		if eq < 0 {
			return ""
		}
		key := bytes.TrimSpace(a[:eq])
		a = bytes.TrimLeft(a[eq+1:], " \t\r\n")
		if len(a) == 0 || (a[0] != '"' && a[0] != '\'') {
			return ""
		}
		end := bytes.IndexByte(a[1:], a[0])
		if end < 0 {
			return ""
		}
		val := a[1 : 1+end]
		a = a[end+2:]
		if i := bytes.IndexByte(key, ':'); i >= 0 {
			key = key[i+1:]
		}
		if string(key) == name {
			return string(appendEntities(nil, val))
		}
	}
	return ""
}

type xmlVisitor struct {
	start func(*xmlElem)
	end   func(local string)
	text  func([]byte)
}

type xmlScanner struct {
	r       io.Reader
	buf     []byte
	pos     int
	eof     bool
	err     error
	names   map[string]string
	recent  [64]string // a direct-mapped cache in front of names
	scratch []byte
}

// more reads further bytes, keeping the unread ones; false means no more
// will come.
func (x *xmlScanner) more() bool {
	if x.eof {
		return false
	}
	if x.pos > 0 {
		n := copy(x.buf, x.buf[x.pos:])
		x.buf, x.pos = x.buf[:n], 0
	}
	if len(x.buf) == cap(x.buf) {
		if cap(x.buf) >= xmlMaxToken {
			x.err, x.eof = errTokenTooLong, true
			return false
		}
		nb := make([]byte, len(x.buf), 2*cap(x.buf))
		copy(nb, x.buf)
		x.buf = nb
	}
	n, err := x.r.Read(x.buf[len(x.buf):cap(x.buf)])
	x.buf = x.buf[:len(x.buf)+n]
	if err != nil {
		x.eof = true
		if err != io.EOF {
			x.err = err
		}
	}
	return n > 0 || !x.eof
}

// walkXML streams one part through a visitor, capping the nesting depth.
func walkXML(ctx interface{ Err() error }, r io.Reader, v xmlVisitor, out *sink) error {
	x := &xmlScanner{r: r, buf: make([]byte, 0, 16<<10), names: map[string]string{}}
	depth, n := 0, 0
	for !out.full() {
		if n++; n&255 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rest := x.buf[x.pos:]
		i := bytes.IndexByte(rest, '<')
		if i < 0 {
			keep := len(rest)
			if !x.eof {
				keep = safeTextEnd(rest)
			}
			x.text(v, rest[:keep])
			x.pos += keep
			if !x.more() {
				return x.err
			}
			continue
		}
		x.text(v, rest[:i])
		x.pos += i
		end := markupEnd(x.buf[x.pos:])
		if end < 0 {
			if !x.more() {
				return x.err // a truncated tag at the end: nothing more to read
			}
			continue
		}
		tok := x.buf[x.pos : x.pos+end]
		x.pos += end
		var err error
		if depth, err = x.markup(v, tok, depth); err != nil {
			return err
		}
	}
	return nil
}

func (x *xmlScanner) text(v xmlVisitor, t []byte) {
	if len(t) == 0 || v.text == nil {
		return
	}
	if bytes.IndexByte(t, '&') < 0 {
		v.text(t)
		return
	}
	x.scratch = appendEntities(x.scratch[:0], t)
	v.text(x.scratch)
}

// safeTextEnd keeps back a trailing entity reference that may continue in
// the next read.
func safeTextEnd(t []byte) int {
	if i := bytes.LastIndexByte(t, '&'); i >= 0 && len(t)-i < 12 && bytes.IndexByte(t[i:], ';') < 0 {
		return i
	}
	return len(t)
}

// markupEnd returns the length of the markup at the start of b, or -1 when
// b does not hold all of it yet.
func markupEnd(b []byte) int {
	find := func(from int, s string) int {
		if i := bytes.Index(b[min(from, len(b)):], []byte(s)); i >= 0 {
			return min(from, len(b)) + i + len(s)
		}
		return -1
	}
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		return find(4, "-->")
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		return find(9, "]]>")
	case bytes.HasPrefix(b, []byte("<?")):
		return find(2, "?>")
	case len(b) < 9 && (bytes.HasPrefix([]byte("<![CDATA["), b) || bytes.HasPrefix([]byte("<!--"), b)):
		return -1 // too short to tell yet
	}
	for j := 1; j < len(b); j++ {
		switch b[j] {
		case '>':
			return j + 1
		case '"', '\'':
			k := bytes.IndexByte(b[j+1:], b[j])
			if k < 0 {
				return -1
			}
			j += k + 1
		}
	}
	return -1
}

func (x *xmlScanner) markup(v xmlVisitor, tok []byte, depth int) (int, error) {
	switch {
	case bytes.HasPrefix(tok, []byte("<![CDATA[")):
		if v.text != nil {
			v.text(tok[9 : len(tok)-3])
		}
		return depth, nil
	case len(tok) < 3 || tok[1] == '!' || tok[1] == '?':
		return depth, nil
	case tok[1] == '/':
		if v.end != nil {
			_, local := x.name(bytes.TrimSpace(tok[2 : len(tok)-1]))
			v.end(local)
		}
		return max(depth-1, 0), nil
	}
	body := tok[1 : len(tok)-1]
	self := len(body) > 0 && body[len(body)-1] == '/'
	if self {
		body = body[:len(body)-1]
	}
	nameEnd := 0
	for nameEnd < len(body) && !isSpace(body[nameEnd]) {
		nameEnd++
	}
	if depth++; depth > maxNesting {
		return depth, warnf("XML nested deeper than %d levels: the rest is not indexed", maxNesting)
	}
	prefix, local := x.name(body[:nameEnd])
	if v.start != nil {
		v.start(&xmlElem{prefix: prefix, local: local, attrs: body[nameEnd:]})
	}
	if self {
		if v.end != nil {
			v.end(local)
		}
		depth--
	}
	return depth, nil
}

// name splits prefix:local, reusing strings already seen: a part repeats
// the same few names millions of times.
func (x *xmlScanner) name(b []byte) (string, string) {
	var prefix []byte
	if i := bytes.IndexByte(b, ':'); i >= 0 {
		prefix, b = b[:i], b[i+1:]
	}
	return x.intern(prefix), x.intern(b)
}

func (x *xmlScanner) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	h := (len(b)*31 + int(b[0])*7 + int(b[len(b)-1])) & (len(x.recent) - 1)
	if x.recent[h] == string(b) {
		return x.recent[h]
	}
	s, ok := x.names[string(b)]
	if !ok {
		s = string(b)
		if len(x.names) < 4096 {
			x.names[s] = s
		}
	}
	x.recent[h] = s
	return s
}

var xmlEntities = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'"}

// appendEntities decodes the predefined and numeric character references;
// any other stays as written.
func appendEntities(dst, t []byte) []byte {
	for len(t) > 0 {
		i := bytes.IndexByte(t, '&')
		if i < 0 {
			return append(dst, t...)
		}
		dst = append(dst, t[:i]...)
		t = t[i:]
		semi := bytes.IndexByte(t[:min(len(t), 12)], ';')
		if semi < 0 {
			dst = append(dst, '&')
			t = t[1:]
			continue
		}
		ref := string(t[1:semi])
		switch {
		case xmlEntities[ref] != "":
			dst = append(dst, xmlEntities[ref]...)
		case len(ref) > 1 && ref[0] == '#':
			base, digits := 10, ref[1:]
			if digits[0] == 'x' || digits[0] == 'X' {
				base, digits = 16, digits[1:]
			}
			r, err := strconv.ParseUint(digits, base, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				dst = append(dst, t[:semi+1]...)
			} else {
				dst = utf8.AppendRune(dst, rune(r))
			}
		default:
			dst = append(dst, t[:semi+1]...)
		}
		t = t[semi+1:]
	}
	return dst
}
