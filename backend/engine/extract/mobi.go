package extract

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// MOBI, AZW and AZW3 e-books, and PalmDOC texts, are Palm databases: a
// table of records, the first holding the headers, the next ones the
// book's markup in chunks of about 4 KB, each compressed on its own with
// PalmDOC's LZ77 (or stored). The chunks are joined and read as HTML.
// Books compressed with HUFF/CDIC and books with DRM are reported, not read.

const (
	mobiMaxRecords = 1 << 16 // a record number is 16 bits
	mobiHuffCDIC   = 17480
)

type palmDB struct {
	data    []byte
	offsets []int
}

// record returns record i, or nil when the table says nonsense.
func (p *palmDB) record(i int) []byte {
	if i < 0 || i+1 > len(p.offsets) {
		return nil
	}
	start, end := p.offsets[i], len(p.data)
	if i+1 < len(p.offsets) {
		end = p.offsets[i+1]
	}
	if start < 0 || start > end || end > len(p.data) {
		return nil
	}
	return p.data[start:end]
}

func parsePalmDB(data []byte) (*palmDB, error) {
	if len(data) < 78 {
		return nil, warning("e-book shorter than its header: contents not indexed")
	}
	n := int(binary.BigEndian.Uint16(data[76:]))
	if 78+8*n > len(data) || n == 0 {
		return nil, warning("e-book whose record table runs past its end: contents not indexed")
	}
	p := &palmDB{data: data, offsets: make([]int, n)}
	for i := range n {
		p.offsets[i] = int(binary.BigEndian.Uint32(data[78+8*i:]))
	}
	return p, nil
}

// mobiHeader is what the text needs from record 0.
type mobiHeader struct {
	compression, encryption int
	records                 int // text records, from 1
	textLength              int
	utf8, html              bool
	extraFlags              uint16
	flow0                   int // KF8: the end of the HTML; stylesheets follow it
	title, author           string
}

func parseMobiHeader(p *palmDB) (mobiHeader, error) {
	r0 := p.record(0)
	var h mobiHeader
	if len(r0) < 16 {
		return h, warning("e-book without its header record: contents not indexed")
	}
	h.compression = int(binary.BigEndian.Uint16(r0))
	h.textLength = int(binary.BigEndian.Uint32(r0[4:]))
	h.records = int(binary.BigEndian.Uint16(r0[8:]))
	h.encryption = int(binary.BigEndian.Uint16(r0[12:]))
	name, _, _ := bytes.Cut(p.data[:32], []byte{0})
	h.title = decode1252(name)
	if len(r0) < 24 || string(r0[16:20]) != "MOBI" {
		return h, nil // PalmDOC: plain text
	}
	h.html = true
	hlen := int(binary.BigEndian.Uint32(r0[20:]))
	h.utf8 = binary.BigEndian.Uint32(r0[28:]) == 65001
	if binary.BigEndian.Uint32(r0[36:]) >= 8 && len(r0) >= 0xC4 {
		h.flow0 = kf8Flow0(p.record(int(binary.BigEndian.Uint32(r0[0xC0:]))))
	}
	if hlen >= 0xE4 && len(r0) >= 16+0xE4 {
		h.extraFlags = binary.BigEndian.Uint16(r0[16+0xE2:])
	}
	if len(r0) >= 92 {
		off, n := int(binary.BigEndian.Uint32(r0[84:])), int(binary.BigEndian.Uint32(r0[88:]))
		if off >= 0 && n >= 0 && off+n <= len(r0) && n > 0 {
			h.title = h.decode(r0[off : off+n])
		}
	}
	if len(r0) >= 132 && binary.BigEndian.Uint32(r0[128:])&0x40 != 0 && 16+hlen < len(r0) {
		h.exth(r0[16+hlen:])
	}
	return h, nil
}

// kf8Flow0 reads where the first flow (the HTML) ends from a KF8 book's
// FDST record; 0 when there is none.
func kf8Flow0(fdst []byte) int {
	if len(fdst) < 20 || string(fdst[:4]) != "FDST" || binary.BigEndian.Uint32(fdst[8:]) == 0 {
		return 0
	}
	return int(binary.BigEndian.Uint32(fdst[16:]))
}

func (h *mobiHeader) decode(b []byte) string {
	if h.utf8 {
		return decodeText(b, true)
	}
	return decode1252(b)
}

// exth reads the author (100) and the updated title (503).
func (h *mobiHeader) exth(b []byte) {
	if len(b) < 12 || string(b[:4]) != "EXTH" {
		return
	}
	n := int(binary.BigEndian.Uint32(b[8:]))
	b = b[12:]
	for i := 0; i < n && len(b) >= 8; i++ {
		typ, size := binary.BigEndian.Uint32(b), int(binary.BigEndian.Uint32(b[4:]))
		if size < 8 || size > len(b) {
			return
		}
		v := strings.TrimSpace(h.decode(b[8:size]))
		switch {
		case typ == 100 && h.author == "":
			h.author = v
		case typ == 503 && v != "":
			h.title = v
		}
		b = b[size:]
	}
}

func extractMOBI(s *source, d *Document) error {
	data, cut, err := s.prefix(s.opt.MaxFileSize)
	if err != nil {
		return err
	}
	p, err := parsePalmDB(data)
	if err != nil {
		return err
	}
	h, err := parseMobiHeader(p)
	if err != nil {
		return err
	}
	d.Title = h.title
	setMeta(d, "author", h.author)
	switch {
	case h.encryption != 0:
		return warning("encrypted: e-book with DRM: contents not indexed")
	case h.compression == mobiHuffCDIC:
		return warning("e-book compressed with HUFF/CDIC: not supported, contents not indexed")
	case h.compression != 1 && h.compression != 2:
		return warnf("e-book with unknown compression %d: contents not indexed", h.compression)
	}
	text, damaged := mobiText(s, p, h)
	if h.flow0 > 0 && h.flow0 < len(text) {
		text = text[:h.flow0]
	}
	if h.html {
		if _, err := htmlText(s.ctx, strings.NewReader(h.decode(text)), s.text); err != nil {
			return err
		}
	} else {
		s.text.WriteString(h.decode(text))
	}
	switch {
	case s.ctx.Err() != nil:
		return s.ctx.Err()
	case cut || damaged:
		return warning("e-book cut short or damaged: contents not fully indexed")
	}
	return nil
}

// mobiText joins the text records, each decompressed and without its
// trailing entries, up to the markup budget.
func mobiText(s *source, p *palmDB, h mobiHeader) (text []byte, damaged bool) {
	budget := markupBudget(s)
	tk := tick{ctx: s.ctx}
	for i := 1; i <= min(h.records, mobiMaxRecords); i++ {
		if tk.err() != nil || len(text) >= budget {
			break
		}
		rec := p.record(i)
		if rec == nil {
			return text, true
		}
		rec = trimTrailing(rec, h.extraFlags)
		if h.compression == 2 {
			text = palmDocInflate(text, rec, budget)
		} else {
			text = append(text, rec[:min(len(rec), budget-len(text))]...)
		}
	}
	// The header says how long the text is: a last record cut short
	// decompresses to less.
	return text, len(text) < min(h.textLength, budget) && s.ctx.Err() == nil
}

// trimTrailing drops the entries Mobipocket appends to text records: one
// backward-encoded size per flag bit above the lowest, then, with the
// lowest bit, the bytes of a character cut by the record's end.
func trimTrailing(rec []byte, flags uint16) []byte {
	for f := flags >> 1; f != 0; f >>= 1 {
		if f&1 == 0 {
			continue
		}
		n := 0
		for _, c := range rec[max(0, len(rec)-4):] {
			if c&0x80 != 0 {
				n = 0
			}
			n = n<<7 | int(c&0x7F)
		}
		if n > len(rec) {
			return nil
		}
		rec = rec[:len(rec)-n]
	}
	if flags&1 != 0 && len(rec) > 0 {
		n := int(rec[len(rec)-1]&3) + 1
		if n > len(rec) {
			return nil
		}
		rec = rec[:len(rec)-n]
	}
	return rec
}

// palmDocInflate appends the decompression of one record to out, which
// stops growing at limit. Back-references reach only into this record's
// output.
func palmDocInflate(out, in []byte, limit int) []byte {
	start := len(out)
	for i := 0; i < len(in) && len(out) < limit; i++ {
		c := in[i]
		switch {
		case c == 0 || c >= 0x09 && c <= 0x7F:
			out = append(out, c)
		case c <= 0x08:
			n := min(int(c), len(in)-i-1)
			out = append(out, in[i+1:i+1+n]...)
			i += n
		case c >= 0xC0:
			out = append(out, ' ', c^0x80)
		default:
			if i+1 >= len(in) {
				return out
			}
			v := int(c)<<8 | int(in[i+1])
			i++
			dist, n := (v&0x3FFF)>>3, v&7+3
			if dist == 0 || dist > len(out)-start {
				continue // a reference before the record: damage
			}
			for k := 0; k < n; k++ {
				out = append(out, out[len(out)-dist])
			}
		}
	}
	return out[:min(len(out), limit)]
}
