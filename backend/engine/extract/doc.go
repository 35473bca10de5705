package extract

import (
	"encoding/binary"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// Word 97-2003: the WordDocument stream starts with the FIB, which says
// where the piece table (the CLX, in the 0Table or 1Table stream) lies.
// The pieces map character positions to runs of 8-bit (Windows-1252) or
// UTF-16 text in the WordDocument stream, in document order, including
// the incremental pieces of fast-saved files. Word 6 and 95 files keep
// their text in one run that the FIB points at.

const (
	wordIdent    = 0xA5EC
	wordNFib97   = 0x00C1 // Word 97 and later write this or more
	wordMaxPiece = 1 << 22
)

// fib holds what the text needs from a Word File Information Block.
type fib struct {
	nFib               uint16
	complex, encrypted bool
	table1             bool     // the piece table is in 1Table, else 0Table
	ccp                []uint32 // characters per story: main text, footnotes, headers, ...
	fcClx, lcbClx      uint32
	fcMin, fcMac       uint32 // Word 6/95: where the text lies
	obfuscated, tooOld bool
}

func parseFIB(w []byte) (fib, error) {
	var f fib
	if len(w) < 0x20 || binary.LittleEndian.Uint16(w) != wordIdent {
		return f, warning("Word document without a valid header: contents not indexed")
	}
	f.nFib = binary.LittleEndian.Uint16(w[2:])
	flags := binary.LittleEndian.Uint16(w[0x0A:])
	f.complex = flags&0x0004 != 0
	f.encrypted = flags&0x0100 != 0
	f.table1 = flags&0x0200 != 0
	f.obfuscated = flags&0x8000 != 0
	f.fcMin = binary.LittleEndian.Uint32(w[0x18:])
	f.fcMac = binary.LittleEndian.Uint32(w[0x1C:])
	if f.nFib < wordNFib97 {
		f.tooOld = true
		return f, nil
	}
	// FibBase (32 bytes), then three arrays, each after its count.
	off := 32
	csw := int(u16at(w, off))
	off += 2 + 2*csw
	cslw := int(u16at(w, off))
	lw := off + 2
	off = lw + 4*cslw
	cbRgFcLcb := int(u16at(w, off))
	rg := off + 2
	if cslw < 11 || cbRgFcLcb < 34 || rg+34*8 > len(w) {
		return f, warning("Word document with a damaged header: contents not indexed")
	}
	// ccpText, ccpFtn, ccpHdd, (ccpMcr), ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx
	for _, i := range []int{3, 4, 5, 7, 8, 9, 10} {
		f.ccp = append(f.ccp, binary.LittleEndian.Uint32(w[lw+4*i:]))
	}
	f.fcClx = binary.LittleEndian.Uint32(w[rg+33*8:])
	f.lcbClx = binary.LittleEndian.Uint32(w[rg+33*8+4:])
	return f, nil
}

func u16at(b []byte, off int) uint16 {
	if off < 0 || off+2 > len(b) {
		return 0
	}
	return binary.LittleEndian.Uint16(b[off:])
}

func u32at(b []byte, off int) uint32 {
	if off < 0 || off+4 > len(b) {
		return 0
	}
	return binary.LittleEndian.Uint32(b[off:])
}

func extractWord(o *oleFile) error {
	w, err := o.stream("WordDocument")
	if err != nil {
		return err
	}
	return readWord(o.s, w, func(table string) ([]byte, error) { return o.stream(table) })
}

// readWord reads the text of a WordDocument stream; table fetches the
// stream that holds the piece table.
func readWord(s *source, w []byte, table func(string) ([]byte, error)) error {
	f, err := parseFIB(w)
	if err != nil {
		return err
	}
	if f.encrypted || f.obfuscated {
		return oleEncrypted("Word document")
	}
	out := &wordText{out: s.text}
	if f.tooOld {
		return word95Text(w, f, out)
	}
	name := "0Table"
	if f.table1 {
		name = "1Table"
	}
	t, err := table(name)
	if err != nil {
		return partErr("doc", name, err)
	}
	if uint64(f.fcClx)+uint64(f.lcbClx) > uint64(len(t)) {
		return warnf("Word document whose piece table lies past its end: contents not indexed")
	}
	pieces, err := parseCLX(t[f.fcClx : f.fcClx+f.lcbClx])
	if err != nil {
		return err
	}
	return readPieces(s, w, pieces, f.textLength(), out)
}

// word95Text reads a Word 6 or 95 document saved in full, whose text is
// one run of 8-bit characters.
func word95Text(w []byte, f fib, out *wordText) error {
	if f.complex {
		return warning("fast-saved Word 6/95 document: not supported, contents not indexed")
	}
	if f.fcMin > f.fcMac || int64(f.fcMac) > int64(len(w)) {
		return warning("Word 6/95 document with a damaged header: contents not indexed")
	}
	out.write8(w[f.fcMin:f.fcMac])
	return nil
}

// textLength is the number of characters of all stories: the main text,
// then, if any other story has text, all of them and a final mark.
func (f fib) textLength() int64 {
	var n int64
	for _, c := range f.ccp {
		n += int64(c)
	}
	if n > int64(f.ccp[0]) {
		n++
	}
	return n
}

// piece is a run of text: characters [cp, cpEnd) at byte offset fc.
type piece struct {
	cp, cpEnd  uint32
	fc         uint32
	compressed bool
}

// parseCLX skips the property modifiers (Prc) and reads the piece table
// (Pcdt).
func parseCLX(clx []byte) ([]piece, error) {
	for len(clx) > 0 {
		switch clx[0] {
		case 0x01:
			n := int(int16(u16at(clx, 1)))
			if n < 0 || 3+n > len(clx) {
				return nil, warning("Word document with a damaged piece table: contents not indexed")
			}
			clx = clx[3+n:]
		case 0x02:
			lcb := int64(u32at(clx, 1))
			if lcb < 4 || 5+lcb > int64(len(clx)) {
				return nil, warning("Word document with a damaged piece table: contents not indexed")
			}
			return parsePlcPcd(clx[5 : 5+lcb])
		default:
			return nil, warning("Word document with a damaged piece table: contents not indexed")
		}
	}
	return nil, warning("Word document without a piece table: contents not indexed")
}

// parsePlcPcd reads n+1 character positions, then n 8-byte descriptors.
func parsePlcPcd(plc []byte) ([]piece, error) {
	n := (len(plc) - 4) / 12
	if n <= 0 || n > wordMaxPiece {
		return nil, warning("Word document with a damaged piece table: contents not indexed")
	}
	pieces := make([]piece, 0, n)
	for i := range n {
		cp, end := u32at(plc, 4*i), u32at(plc, 4*i+4)
		fc := u32at(plc, 4*(n+1)+8*i+2)
		p := piece{cp: cp, cpEnd: end, fc: fc & 0x3FFFFFFF, compressed: fc&0x40000000 != 0}
		if p.compressed {
			p.fc /= 2
		}
		if end > cp {
			pieces = append(pieces, p)
		}
	}
	return pieces, nil
}

// readPieces writes the text of the pieces up to total characters.
func readPieces(s *source, w []byte, pieces []piece, total int64, out *wordText) error {
	tk := tick{ctx: s.ctx}
	damaged := false
	for _, p := range pieces {
		if err := tk.err(); err != nil {
			return err
		}
		if int64(p.cp) >= total || s.text.full() {
			break
		}
		n := int64(min(p.cpEnd, uint32(min(total, 1<<32-1)))) - int64(p.cp)
		width := int64(2)
		if p.compressed {
			width = 1
		}
		start, end := int64(p.fc), int64(p.fc)+n*width
		if end > int64(len(w)) {
			damaged = true
			end = int64(len(w))
		}
		if start >= end {
			continue
		}
		if p.compressed {
			out.write8(w[start:end])
		} else {
			out.write16(w[start:end])
		}
	}
	if damaged {
		return warning("Word document whose text runs past its end: contents not fully indexed")
	}
	return nil
}

// wordText turns Word's characters into plain text: paragraph, cell and
// break marks become line ends, field codes are dropped (their results
// kept), object anchors vanish.
type wordText struct {
	out    *sink
	fields []bool // per open field: true once its result begins
	buf    []byte
}

func (t *wordText) write8(b []byte) {
	for _, c := range b {
		if c < 0x80 {
			t.char(rune(c))
			continue
		}
		r := charmap.Windows1252.DecodeByte(c)
		t.char(r)
	}
	t.flush()
}

func (t *wordText) write16(b []byte) {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	for _, r := range utf16.Decode(u) {
		t.char(r)
	}
	t.flush()
}

func (t *wordText) char(r rune) {
	switch r {
	case 0x13: // field begins: its code follows
		t.fields = append(t.fields, false)
		return
	case 0x14: // field separator: its result follows
		if n := len(t.fields); n > 0 {
			t.fields[n-1] = true
		}
		return
	case 0x15:
		if n := len(t.fields); n > 0 {
			t.fields = t.fields[:n-1]
		}
		return
	}
	for _, shown := range t.fields {
		if !shown {
			return
		}
	}
	switch {
	case r == '\r' || r == 0x0B || r == 0x0C || r == 0x0E:
		r = '\n'
	case r == 0x07:
		r = '\t' // the end of a table cell or row
	case r == 0x1E:
		r = '-' // non-breaking hyphen
	case r == 0xA0:
		r = ' '
	case r < 0x20 && r != '\t', r == 0x1F, r == 0xFFFD:
		return
	}
	t.buf = append(t.buf, string(r)...)
	if len(t.buf) >= 4096 {
		t.flush()
	}
}

func (t *wordText) flush() {
	t.out.Write(t.buf)
	t.buf = t.buf[:0]
}
