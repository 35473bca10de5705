package extract

import (
	"bufio"
	"bytes"
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// glyphlist.txt is the Adobe Glyph List (BSD licence, in its header).
//
//go:embed data/glyphlist.txt
var glyphListData []byte

var glyphList = sync.OnceValue(func() map[string]rune {
	m := make(map[string]rune, 4300)
	sc := bufio.NewScanner(bytes.NewReader(glyphListData))
	for sc.Scan() {
		line := sc.Text()
		name, code, ok := strings.Cut(line, ";")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		// A few names map to several code points; the first is the letter.
		code, _, _ = strings.Cut(code, " ")
		if v, err := strconv.ParseUint(code, 16, 32); err == nil {
			m[name] = rune(v)
		}
	}
	return m
})

// glyphRune maps a glyph name to its character by the Adobe Glyph List
// rules: the list itself, then uniXXXX and uXXXX[XX] names; a suffix after
// a period (a.sc, one.oldstyle) names a variant of the same character.
// Ligature names (f_f_i) give their first letter here: the caller keeps
// one rune per code.
func glyphRune(name string) rune {
	if base, _, ok := strings.Cut(name, "."); ok && base != "" {
		name = base
	}
	if first, _, ok := strings.Cut(name, "_"); ok && first != "" {
		name = first
	}
	if len(name) == 1 {
		return rune(name[0])
	}
	if r, ok := glyphList()[name]; ok {
		return r
	}
	if h, ok := strings.CutPrefix(name, "uni"); ok && len(h) >= 4 {
		if v, err := strconv.ParseUint(h[:4], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return rune(v)
		}
	}
	if h, ok := strings.CutPrefix(name, "u"); ok && len(h) >= 4 && len(h) <= 6 {
		if v, err := strconv.ParseUint(h, 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return rune(v)
		}
	}
	return 0
}

// glyphLigature spells a ligature's name (f_f_i), or "".
func glyphLigature(name string) string {
	name, _, _ = strings.Cut(name, ".")
	if !strings.Contains(name, "_") {
		return ""
	}
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if r := glyphRune(part); r != 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// winAnsi is the Windows-1252 encoding PDF names WinAnsiEncoding.
var winAnsi = charmapTable(charmap.Windows1252)

// macRoman is MacRomanEncoding.
var macRoman = charmapTable(charmap.Macintosh)

func charmapTable(cm *charmap.Charmap) (t [256]rune) {
	for i := range t {
		if r := cm.DecodeByte(byte(i)); r != utf8.RuneError {
			t[i] = r
		}
	}
	return t
}

// standardEncoding is Adobe's StandardEncoding: ASCII with curly quotes at
// 0x27 and 0x60, and its own upper half.
var standardEncoding = func() (t [256]rune) {
	for i := 32; i < 127; i++ {
		t[i] = rune(i)
	}
	t[0x27], t[0x60] = '’', '‘'
	upper := map[byte]rune{
		0xA1: '¡', 0xA2: '¢', 0xA3: '£', 0xA4: '⁄', 0xA5: '¥', 0xA6: 'ƒ', 0xA7: '§', 0xA8: '¤',
		0xA9: '\'', 0xAA: '“', 0xAB: '«', 0xAC: '‹', 0xAD: '›', 0xAE: 'ﬁ', 0xAF: 'ﬂ', 0xB1: '–',
		0xB2: '†', 0xB3: '‡', 0xB4: '·', 0xB6: '¶', 0xB7: '•', 0xB8: '‚', 0xB9: '„', 0xBA: '”',
		0xBB: '»', 0xBC: '…', 0xBD: '‰', 0xBF: '¿', 0xC1: '`', 0xC2: '´', 0xC3: 'ˆ', 0xC4: '˜',
		0xC5: '¯', 0xC6: '˘', 0xC7: '˙', 0xC8: '¨', 0xCA: '˚', 0xCB: '¸', 0xCD: '˝', 0xCE: '˛',
		0xCF: 'ˇ', 0xD0: '—', 0xE1: 'Æ', 0xE3: 'ª', 0xE8: 'Ł', 0xE9: 'Ø', 0xEA: 'Œ', 0xEB: 'º',
		0xF1: 'æ', 0xF5: 'ı', 0xF8: 'ł', 0xF9: 'ø', 0xFA: 'œ', 0xFB: 'ß',
	}
	for c, r := range upper {
		t[c] = r
	}
	return t
}()
