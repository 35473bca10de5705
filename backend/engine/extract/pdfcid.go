package extract

import (
	"golang.org/x/image/font/sfnt"
)

// A CID font without a ToUnicode map shows glyph ids. When the codes are
// the glyph ids (Identity-H or -V, no /CIDToGIDMap stream) and the font
// embeds a TrueType program that kept its cmap table, that table read
// backwards gives the text.

const pdfMaxFontProgram = 16 << 20

// descendant is a Type 0 font's CID font, or nil.
func (p *pdfFile) descendant(fd pdfDict) pdfDict {
	kids, _ := p.resolve(fd["DescendantFonts"]).([]any)
	if len(kids) == 0 {
		return nil
	}
	return p.dict(kids[0])
}

// cidFontCmap maps the codes of an Identity-encoded Type 0 font to text,
// or returns nil.
func (p *pdfFile) cidFontCmap(fd pdfDict) map[uint16]rune {
	enc, _ := p.resolve(fd["Encoding"]).(pdfName)
	if enc != "Identity-H" && enc != "Identity-V" {
		return nil
	}
	cid := p.descendant(fd)
	if cid == nil {
		return nil
	}
	if m, ok := p.resolve(cid["CIDToGIDMap"]).(pdfName); cid["CIDToGIDMap"] != nil && (!ok || m != "Identity") {
		return nil
	}
	st, ok := p.resolve(p.dict(cid["FontDescriptor"])["FontFile2"]).(*pdfStream)
	if !ok || len(st.raw) > pdfMaxFontProgram {
		return nil
	}
	data := p.decode(st)
	defer p.mem.give(data)
	font, err := sfnt.Parse(data)
	if err != nil {
		return nil
	}
	var buf sfnt.Buffer
	out := map[uint16]rune{}
	for r := rune(0x20); r <= 0xFFFF && p.tk.err() == nil; r++ {
		if r >= 0xD800 && r < 0xE000 {
			continue
		}
		gid, err := font.GlyphIndex(&buf, r)
		if err != nil || gid == 0 {
			continue
		}
		if _, seen := out[uint16(gid)]; !seen {
			out[uint16(gid)] = r
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
