package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/saintfish/chardet"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// Text that is not UTF-8 is decoded by the charset a detector (ICU's
// statistics, ported to Go by chardet) finds in its first bytes:
// Windows-1251 and KOI8-R for Russian, Shift-JIS and EUC-JP for Japanese,
// GB 18030 for Chinese, EUC-KR for Korean, the ISO 8859 family, and
// Windows-1252 when nothing is confident (the usual encoding of old
// Western files). golang.org/x/text does the decoding.

const charsetSample = 64 << 10

// charsetMinConfidence is the detector's confidence (0-100) below which
// Windows-1252 is assumed.
const charsetMinConfidence = 10

// legacyDecode decodes text that is neither UTF-8 nor UTF-16 (decodeText
// has ruled both out).
func legacyDecode(b []byte) string {
	return decodeWith(detectCharset(b[:min(len(b), charsetSample)]), b)
}

func detectCharset(sample []byte) encoding.Encoding {
	r, err := chardet.NewTextDetector().DetectBest(sample)
	if err != nil || r.Confidence < charsetMinConfidence {
		return charmap.Windows1252
	}
	name := strings.ToLower(r.Charset)
	switch name {
	case "utf-8", "iso-8859-1", "utf-32be", "utf-32le":
		// Invalid UTF-8 is not UTF-8; Latin-1 text is read as its superset.
		return charmap.Windows1252
	case "gb-18030":
		name = "gb18030"
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		return charmap.Windows1252
	}
	return e
}

func decodeWith(e encoding.Encoding, b []byte) string {
	out, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return decode1252(b)
	}
	return string(out)
}

// utf16NoBOM recognises UTF-16 without a byte order mark by where the
// zero bytes of its ASCII characters fall; nil when it is not.
func utf16NoBOM(b []byte) encoding.Encoding {
	h := b[:min(len(b), 4096)&^1]
	if len(h) < 8 || bytes.IndexByte(h, 0) < 0 { // most text: no NUL, not UTF-16
		return nil
	}
	var even, odd int
	for i := 0; i < len(h); i += 2 {
		if h[i] == 0 {
			even++
		}
		if h[i+1] == 0 {
			odd++
		}
	}
	pairs := len(h) / 2
	switch {
	case odd*10 >= pairs*4 && even*20 <= pairs:
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case even*10 >= pairs*4 && odd*20 <= pairs:
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	}
	return nil
}

// decodeUTF16 decodes UTF-16 without its BOM.
func decodeUTF16(b []byte, bigEndian bool) string {
	order := unicode.LittleEndian
	if bigEndian {
		order = unicode.BigEndian
	}
	return decodeWith(unicode.UTF16(order, unicode.IgnoreBOM), b[:len(b)&^1])
}

// decode1252 reads Windows-1252, the superset of Latin-1's printables.
func decode1252(b []byte) string {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			out, _ := charmap.Windows1252.NewDecoder().Bytes(b)
			return string(out)
		}
	}
	return string(b)
}
