package extract

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// PowerPoint 97-2003: the "PowerPoint Document" stream is a tree of
// records. The Current User stream points at the last edit; each edit's
// persist directory maps object ids to offsets, later edits overriding
// earlier ones. The document's slide list gives the slides in order, and
// each slide's text is in text atoms, in the slide list after the slide's
// entry and in the slide's own drawing, followed by its notes. When that
// chain is damaged the text atoms are read in stream order, masters left
// out.

const (
	pptDocument       = 0x03E8
	pptSlide          = 0x03EE
	pptSlideAtom      = 0x03EF
	pptNotes          = 0x03F0
	pptSlidePersist   = 0x03F3
	pptMainMaster     = 0x03F8
	pptSlideList      = 0x0FF0
	pptUserEdit       = 0x0FF5
	pptPersistDir     = 0x1772
	pptTextChars      = 0x0FA0
	pptTextBytes      = 0x0FA8
	pptMaxDepth       = 64
	pptMaxEdits       = 4096
	pptEncryptedToken = 0xF3D1C4DF
)

type pptRecord struct {
	ver, inst uint16
	typ       uint16
	data      []byte
}

// pptAt reads the record at off; ok is false past the stream's end.
func pptAt(b []byte, off int64) (pptRecord, bool) {
	if off < 0 || off+8 > int64(len(b)) {
		return pptRecord{}, false
	}
	h := b[off:]
	vi := binary.LittleEndian.Uint16(h)
	n := int64(binary.LittleEndian.Uint32(h[4:]))
	end := min(off+8+n, int64(len(b)))
	return pptRecord{ver: vi & 0xF, inst: vi >> 4, typ: binary.LittleEndian.Uint16(h[2:]), data: b[off+8 : end]}, true
}

// children calls fn for each record inside a container's data.
func (r pptRecord) children(fn func(pptRecord) bool) {
	for off := int64(0); off+8 <= int64(len(r.data)); {
		c, _ := pptAt(r.data, off)
		if !fn(c) {
			return
		}
		off += 8 + int64(len(c.data))
	}
}

type pptReader struct {
	s       *source
	doc     []byte
	persist map[uint32]int64
	tk      tick
	err     error
}

func extractPowerPoint(o *oleFile) error {
	if o.has("EncryptedSummary") {
		return oleEncrypted("PowerPoint presentation")
	}
	doc, err := o.stream("PowerPoint Document")
	if err != nil {
		return err
	}
	user, _ := o.stream("Current User")
	return readPowerPoint(o.s, doc, user)
}

// readPowerPoint reads the PowerPoint Document stream, starting from the
// Current User stream's pointer to the last edit.
func readPowerPoint(s *source, doc, user []byte) error {
	p := &pptReader{s: s, doc: doc, tk: tick{ctx: s.ctx}}
	docRef, err := p.readEdits(user)
	if err != nil {
		return err
	}
	if docRef == 0 || !p.slidesInOrder(docRef) {
		p.s.text.reset()
		p.walk(pptRecord{ver: 0xF, data: doc}, 0)
	}
	return p.err
}

// readEdits follows the chain of edits from the newest back and fills the
// persist directory, oldest first; it returns the document's id, or 0.
func (p *pptReader) readEdits(user []byte) (uint32, error) {
	if len(user) < 20 {
		return 0, nil
	}
	if binary.LittleEndian.Uint32(user[12:]) == pptEncryptedToken {
		return 0, oleEncrypted("PowerPoint presentation")
	}
	var edits []pptRecord
	seen := map[int64]bool{}
	for off := int64(binary.LittleEndian.Uint32(user[16:])); off > 0 && !seen[off] && len(edits) < pptMaxEdits; {
		seen[off] = true
		r, ok := pptAt(p.doc, off)
		if !ok || r.typ != pptUserEdit || len(r.data) < 28 {
			break
		}
		if binary.LittleEndian.Uint32(p.doc[off+4:]) >= 32 {
			// It declares an encryptSessionPersistIdRef: the content is encrypted.
			return 0, oleEncrypted("PowerPoint presentation")
		}
		edits = append(edits, r)
		off = int64(binary.LittleEndian.Uint32(r.data[8:]))
	}
	if len(edits) == 0 {
		return 0, nil
	}
	p.persist = map[uint32]int64{}
	for i := len(edits) - 1; i >= 0; i-- {
		p.readPersistDir(int64(binary.LittleEndian.Uint32(edits[i].data[12:])))
	}
	return binary.LittleEndian.Uint32(edits[0].data[16:]), nil
}

// readPersistDir reads runs of (first id and count, then offsets).
func (p *pptReader) readPersistDir(off int64) {
	r, ok := pptAt(p.doc, off)
	if !ok || r.typ != pptPersistDir {
		return
	}
	d := r.data
	for len(d) >= 4 {
		info := binary.LittleEndian.Uint32(d)
		id, n := info&0xFFFFF, int(info>>20)
		d = d[4:]
		for i := 0; i < n && len(d) >= 4; i++ {
			p.persist[id+uint32(i)] = int64(binary.LittleEndian.Uint32(d))
			d = d[4:]
		}
	}
}

func (p *pptReader) object(id uint32, typ uint16) (pptRecord, bool) {
	off, ok := p.persist[id]
	if !ok {
		return pptRecord{}, false
	}
	r, ok := pptAt(p.doc, off)
	return r, ok && r.typ == typ
}

// slideEntry is a slide or notes page in its list, with the text atoms
// that follow its entry there.
type slideEntry struct {
	ref, id uint32
	texts   []pptRecord
}

// slidesInOrder writes each slide's text, then its notes; false when the
// document or its slide list cannot be found.
func (p *pptReader) slidesInOrder(docRef uint32) bool {
	doc, ok := p.object(docRef, pptDocument)
	if !ok {
		return false
	}
	lists := map[uint16][]slideEntry{}
	doc.children(func(c pptRecord) bool {
		if c.typ == pptSlideList {
			lists[c.inst] = append(lists[c.inst], slideEntries(c)...)
		}
		return true
	})
	if len(lists[0]) == 0 {
		return false
	}
	notes := map[uint32]slideEntry{}
	for _, n := range lists[2] {
		notes[n.id] = n
	}
	for _, sl := range lists[0] {
		if p.s.text.full() || p.err != nil {
			break
		}
		p.page(sl, pptSlide)
		if r, ok := p.object(sl.ref, pptSlide); ok {
			if n, ok := notes[notesID(r)]; ok {
				p.page(n, pptNotes)
			}
		}
	}
	return true
}

func slideEntries(list pptRecord) []slideEntry {
	var out []slideEntry
	list.children(func(c pptRecord) bool {
		switch {
		case c.typ == pptSlidePersist && len(c.data) >= 16:
			out = append(out, slideEntry{ref: binary.LittleEndian.Uint32(c.data), id: binary.LittleEndian.Uint32(c.data[12:])})
		case (c.typ == pptTextChars || c.typ == pptTextBytes) && len(out) > 0:
			out[len(out)-1].texts = append(out[len(out)-1].texts, c)
		}
		return true
	})
	return out
}

// notesID is the id of a slide's notes page, from its SlideAtom.
func notesID(slide pptRecord) uint32 {
	id := uint32(0)
	slide.children(func(c pptRecord) bool {
		if c.typ == pptSlideAtom && len(c.data) >= 20 {
			id = binary.LittleEndian.Uint32(c.data[16:])
			return false
		}
		return true
	})
	return id
}

// page writes the text of one slide or notes page.
func (p *pptReader) page(e slideEntry, typ uint16) {
	p.s.text.nl()
	p.s.text.WriteString("\n")
	for _, t := range e.texts {
		p.atom(t)
	}
	if r, ok := p.object(e.ref, typ); ok {
		p.walk(r, 0)
	}
}

// walk writes the text atoms inside a record, depth first, leaving out
// the masters' placeholder text.
func (p *pptReader) walk(r pptRecord, depth int) {
	if p.err != nil || p.s.text.full() {
		return
	}
	if p.err = p.tk.err(); p.err != nil {
		return
	}
	switch {
	case r.typ == pptTextChars || r.typ == pptTextBytes:
		p.atom(r)
	case r.ver != 0xF || r.typ == pptMainMaster || depth > pptMaxDepth:
	case r.typ == pptSlideList && r.inst == 1:
	default:
		r.children(func(c pptRecord) bool {
			p.walk(c, depth+1)
			return p.err == nil
		})
	}
}

// atom writes one text atom: UTF-16, or the low bytes of UTF-16 code
// units. Paragraphs end in CR, soft line breaks are vertical tabs.
func (p *pptReader) atom(r pptRecord) {
	var s string
	if r.typ == pptTextChars {
		u := make([]uint16, len(r.data)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(r.data[2*i:])
		}
		s = string(utf16.Decode(u))
	} else {
		s = xlsChars(r.data, len(r.data), false)
	}
	s = strings.NewReplacer("\r", "\n", "\v", "\n", "\x00", "").Replace(s)
	p.s.text.nl()
	p.s.text.WriteString(s)
	p.s.text.WriteString("\n")
}
