package extract

import (
	"encoding/binary"
	"strings"
)

// The shared string table of a BIFF8 workbook spans its SST record and the
// CONTINUE records after it. A string's characters may break across
// records; the record that carries on repeats only the flag that says
// whether the characters are 8-bit or UTF-16.

type sstReader struct {
	segs [][]byte
	pos  int
}

func (r *sstReader) left() int {
	if len(r.segs) == 0 {
		return 0
	}
	return len(r.segs[0]) - r.pos
}

func (r *sstReader) next() bool {
	if len(r.segs) <= 1 {
		r.segs = nil
		return false
	}
	r.segs, r.pos = r.segs[1:], 0
	return true
}

// take reads n bytes, across records if need be; nil when the table ends.
func (r *sstReader) take(n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		if r.left() == 0 && !r.next() {
			return nil
		}
		k := min(n-len(out), r.left())
		out = append(out, r.segs[0][r.pos:r.pos+k]...)
		r.pos += k
	}
	return out
}

// skip passes n bytes of formatting runs or phonetic data.
func (r *sstReader) skip(n int) bool {
	for n > 0 {
		if r.left() == 0 && !r.next() {
			return false
		}
		k := min(n, r.left())
		r.pos += k
		n -= k
	}
	return true
}

func readSST(recs []xlsRecord) []string {
	if len(recs[0].data) < 8 {
		return nil
	}
	unique := int(binary.LittleEndian.Uint32(recs[0].data[4:]))
	r := &sstReader{segs: [][]byte{recs[0].data[8:]}}
	for _, c := range recs[1:] {
		r.segs = append(r.segs, c.data)
	}
	var out []string
	for len(out) < min(unique, xlsMaxStrings) {
		s, ok := r.str()
		if !ok {
			break
		}
		out = append(out, s)
	}
	return out
}

// str reads one XLUnicodeRichExtendedString.
func (r *sstReader) str() (string, bool) {
	if r.left() < 3 && !r.next() {
		return "", false
	}
	h := r.take(3)
	if h == nil {
		return "", false
	}
	cch, flags := int(binary.LittleEndian.Uint16(h)), h[2]
	runs, ext := 0, 0
	if flags&0x08 != 0 {
		b := r.take(2)
		if b == nil {
			return "", false
		}
		runs = int(binary.LittleEndian.Uint16(b))
	}
	if flags&0x04 != 0 {
		b := r.take(4)
		if b == nil {
			return "", false
		}
		ext = int(binary.LittleEndian.Uint32(b))
	}
	s, ok := r.chars(cch, flags&1 != 0)
	if !ok {
		return s, false
	}
	return s, r.skip(4*runs) && r.skip(ext)
}

// chars reads cch characters; each record the characters continue into
// starts with a new flags byte.
func (r *sstReader) chars(cch int, wide bool) (string, bool) {
	var b strings.Builder
	for got := 0; got < cch; {
		if r.left() == 0 {
			if !r.next() || r.left() == 0 {
				return b.String(), false
			}
			wide = r.segs[0][r.pos]&1 != 0
			r.pos++
		}
		width := 1
		if wide {
			width = 2
		}
		k := min(cch-got, r.left()/width)
		if k == 0 {
			r.pos = len(r.segs[0]) // an odd byte before the break: damage
			continue
		}
		b.WriteString(xlsChars(r.segs[0][r.pos:], k, wide))
		r.pos += k * width
		got += k
	}
	return b.String(), true
}
