package extract

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// palmDocCompress is PalmDOC's LZ77 as writers apply it: back-references
// of 3 to 10 bytes within 2047, a space folded into the next letter, and
// other bytes escaped in runs.
func palmDocCompress(in []byte) []byte {
	var out []byte
	for i := 0; i < len(in); {
		bestLen, bestDist := 0, 0
		for d := 1; d <= min(i, 2047); d++ {
			n := 0
			for n < 10 && i+n < len(in) && in[i+n-d] == in[i+n] {
				n++
			}
			if n > bestLen {
				bestLen, bestDist = n, d
			}
		}
		c := in[i]
		switch {
		case bestLen >= 3:
			v := 0x8000 | bestDist<<3 | (bestLen - 3)
			out = append(out, byte(v>>8), byte(v))
			i += bestLen
		case c == ' ' && i+1 < len(in) && in[i+1] >= 0x40 && in[i+1] <= 0x7F:
			out = append(out, in[i+1]^0x80)
			i += 2
		case c == 0 || c >= 0x09 && c <= 0x7F:
			out = append(out, c)
			i++
		default:
			out = append(out, 1, c)
			i++
		}
	}
	return out
}

type mobiBook struct {
	html       string
	compress   bool
	recordSize int
	drm, huff  bool
	trailing   bool // each record ends with a trailing entry and a multibyte count
}

func (b mobiBook) bytes() []byte {
	size := max(b.recordSize, 64)
	text := []byte(b.html)
	var records [][]byte
	for off := 0; off < len(text); off += size {
		chunk := text[off:min(off+size, len(text))]
		overlap := 0
		for overlap < 3 && off+size+overlap < len(text) && !isRuneStart(text[off+size+overlap]) {
			overlap++
		}
		rec := chunk
		if b.compress {
			rec = palmDocCompress(chunk)
		}
		rec = bytes.Clone(rec)
		if b.trailing {
			rec = append(rec, text[off+len(chunk):off+len(chunk)+overlap]...)
			rec = append(rec, byte(overlap))    // multibyte: the cut character's bytes, then their count
			rec = append(rec, 0xAB, 0xCD, 0x83) // a trailing entry of 3 bytes, its size last
		}
		records = append(records, rec)
	}
	exth := []byte("EXTH")
	entries := [][2]string{{"\x00\x00\x00\x64", "Ursula Vernon"}, {"\x00\x00\x01\xf7", "The Quoll Compendium"}}
	var body []byte
	for _, e := range entries {
		body = append(body, e[0]...)
		body = binary.BigEndian.AppendUint32(body, uint32(8+len(e[1])))
		body = append(body, e[1]...)
	}
	exth = binary.BigEndian.AppendUint32(exth, uint32(12+len(body)))
	exth = binary.BigEndian.AppendUint32(exth, uint32(len(entries)))
	exth = append(exth, body...)
	r0 := make([]byte, 16+0xE8)
	comp := 1
	switch {
	case b.huff:
		comp = mobiHuffCDIC
	case b.compress:
		comp = 2
	}
	binary.BigEndian.PutUint16(r0, uint16(comp))
	binary.BigEndian.PutUint32(r0[4:], uint32(len(text)))
	binary.BigEndian.PutUint16(r0[8:], uint16(len(records)))
	binary.BigEndian.PutUint16(r0[10:], uint16(size))
	if b.drm {
		binary.BigEndian.PutUint16(r0[12:], 2)
	}
	copy(r0[16:], "MOBI")
	binary.BigEndian.PutUint32(r0[20:], 0xE8)
	binary.BigEndian.PutUint32(r0[28:], 65001)
	binary.BigEndian.PutUint32(r0[128:], 0x40)
	if b.trailing {
		binary.BigEndian.PutUint16(r0[16+0xE2:], 3)
	}
	name := "Quoll Compendium (full name)"
	r0 = append(r0, exth...)
	binary.BigEndian.PutUint32(r0[84:], uint32(len(r0)))
	binary.BigEndian.PutUint32(r0[88:], uint32(len(name)))
	r0 = append(r0, name...)
	records = append([][]byte{r0}, records...)
	h := make([]byte, 78+8*len(records)+2)
	copy(h, "quoll_compendium")
	copy(h[60:], "BOOKMOBI")
	binary.BigEndian.PutUint16(h[76:], uint16(len(records)))
	off := len(h)
	for i, r := range records {
		binary.BigEndian.PutUint32(h[78+8*i:], uint32(off))
		off += len(r)
	}
	for _, r := range records {
		h = append(h, r...)
	}
	return h
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

const mobiHTML = `<html><head><guide></guide></head><body><h1>Chapter One</h1>
<p>The quollcrumble recipe, naïve and déjà vu, repeated: quollcrumble quollcrumble.</p><mbp:pagebreak/>
<p>Chapter two speaks of the antechinus and its ＵＴＦ-8 glyphs: 袋鼬.</p></body></html>`

func TestMOBI(t *testing.T) {
	for _, b := range []mobiBook{
		{html: mobiHTML, compress: true, recordSize: 64, trailing: true},
		{html: mobiHTML, recordSize: 100},
		{html: mobiHTML, compress: true, recordSize: 4096},
	} {
		doc := extractBytes(t, "book.azw3", b.bytes(), Options{})
		checkDoc(t, doc, fixture{file: "book.azw3", format: "mobi", title: "The Quoll Compendium",
			words:  []string{"Chapter One", "quollcrumble recipe, naïve and déjà vu", "antechinus", "袋鼬"},
			absent: []string{"<p>", "pagebreak", "\xab"}, meta: map[string]string{"author": "Ursula Vernon"}})
	}
	doc := extractBytes(t, "book-noext", mobiBook{html: mobiHTML, compress: true}.bytes(), Options{})
	if doc.Format != "mobi" || doc.Mime != "application/x-mobipocket-ebook" {
		t.Errorf("without extension: %+v", doc)
	}
}

func TestMOBIRefused(t *testing.T) {
	cases := map[string]mobiBook{
		"encrypted: e-book with DRM":       {html: mobiHTML, compress: true, drm: true},
		"e-book compressed with HUFF/CDIC": {html: mobiHTML, huff: true},
	}
	for want, b := range cases {
		doc := extractBytes(t, "book.mobi", b.bytes(), Options{})
		if !strings.HasPrefix(doc.Warning, want) || doc.Text != "" || doc.Title != "The Quoll Compendium" {
			t.Errorf("%s: %+v", want, doc)
		}
	}
}

func TestMOBIHostile(t *testing.T) {
	book := mobiBook{html: strings.Repeat(mobiHTML, 20), compress: true, recordSize: 512, trailing: true}.bytes()
	for _, n := range []int{10, 78, 100, len(book) / 3, len(book) - 5} {
		doc := extractBytes(t, "cut.mobi", book[:n], Options{})
		if doc.Warning == "" || strings.Contains(doc.Warning, "internal error") {
			t.Errorf("cut at %d: %+v", n, doc)
		}
	}
	// The record table claims more records than the file holds, and
	// record 0 claims 65535 text records.
	lying := bytes.Clone(book)
	binary.BigEndian.PutUint16(lying[76:], 0xFFFF)
	if doc := extractBytes(t, "lying.mobi", lying, Options{}); !strings.Contains(doc.Warning, "record table") {
		t.Errorf("record table: %+v", doc)
	}
	lying = bytes.Clone(book)
	r0 := int(binary.BigEndian.Uint32(lying[78:]))
	binary.BigEndian.PutUint16(lying[r0+8:], 0xFFFF)
	if doc := extractBytes(t, "lying.mobi", lying, Options{}); !strings.Contains(doc.Warning, "damaged") || !strings.Contains(doc.Text, "quollcrumble") {
		t.Errorf("record count: %+v", doc)
	}
	// Records that point backwards or past the end.
	backwards := bytes.Clone(book)
	binary.BigEndian.PutUint32(backwards[78+8*2:], 0xFFFFFF00)
	if doc := extractBytes(t, "back.mobi", backwards, Options{}); doc.Warning == "" {
		t.Errorf("offsets: %+v", doc)
	}
}

// A stream of back-references only expands a record tenfold at most, and
// a reference before the record's start is ignored.
func TestPalmDocInflateBounds(t *testing.T) {
	refs := bytes.Repeat([]byte{0x80 | 0x00, 0x0F}, 1000) // distance 1, length 10, with nothing before
	if out := palmDocInflate(nil, refs, 1<<20); len(out) != 0 {
		t.Errorf("references before the start gave %d bytes", len(out))
	}
	in := append([]byte("ab"), refs...)
	if out := palmDocInflate(nil, in, 1<<20); len(out) != 2+10*1000 {
		t.Errorf("got %d bytes", len(out))
	}
	if out := palmDocInflate([]byte("before"), in, 500); len(out) != 500 {
		t.Errorf("limit: %d bytes", len(out))
	}
}
