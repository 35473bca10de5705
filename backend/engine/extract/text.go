package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/gabriel-vasile/mimetype"
)

// extractText handles plain text and source code, the bulk of most folders,
// so it reads small files once and copies the text once.
func extractText(s *source, d *Document) error {
	text, ok, err := readText(s)
	if !ok {
		binaryDoc(s, d)
		return err
	}
	s.text.set(text)
	return err
}

// readText decodes the file as text, or reports that it is binary. It reads
// no more than the text limit needs.
func readText(s *source) (string, bool, error) {
	if isBinary(s.head) {
		return "", false, nil
	}
	data := s.head
	whole := int64(len(data)) == s.size
	if !whole {
		// UTF-16 takes up to two bytes per output byte; others at most one.
		want := min(s.size, int64(s.opt.MaxTextBytes)+4)
		if isUTF16(data) || utf16NoBOM(data) != nil {
			want = min(s.size, int64(s.opt.MaxTextBytes)*2+4)
		}
		data = make([]byte, want)
		n, err := s.r.ReadAt(data, 0)
		data = data[:n]
		if err != nil && n < int(want) {
			return decodeText(data, false), true, nil
		}
		whole = want == s.size
	}
	return decodeText(data, whole), true, nil
}

// decodeText turns bytes into UTF-8: a BOM decides for UTF-16, valid UTF-8
// stays as it is, and anything else goes to the charset detector
// (charset.go).
func decodeText(b []byte, whole bool) string {
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		b = b[3:]
	case bytes.HasPrefix(b, []byte("\xff\xfe")):
		return decodeUTF16(b[2:], false)
	case bytes.HasPrefix(b, []byte("\xfe\xff")):
		return decodeUTF16(b[2:], true)
	}
	if e := utf16NoBOM(b); e != nil {
		return decodeWith(e, b[:len(b)&^1])
	}
	check := b
	if !whole {
		// The read may have stopped inside a character.
		for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					check = b[:i]
				}
				break
			}
		}
	}
	if utf8.Valid(check) {
		return string(check)
	}
	return legacyDecode(b)
}

// isBinary looks for NUL bytes and a high share of control characters. A
// UTF-16 BOM makes NULs expected.
func isBinary(head []byte) bool {
	if isUTF16(head) || utf16NoBOM(head) != nil {
		return false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	h := head[:min(len(head), 4096)]
	ctrl := 0
	for _, c := range h {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
			ctrl++
		}
	}
	return ctrl*10 > len(h)
}

// binaryDoc describes a file with no text of its own: the sniffer names its
// type, and its family follows from that.
func binaryDoc(s *source, d *Document) {
	d.Mime = mimetype.Detect(s.head).String()
	d.Format = mediaFamily(d.Mime, s.ext)
}

func mediaFamily(mime, ext string) string {
	top, _, _ := strings.Cut(mime, "/")
	switch top {
	case "image", "audio", "video":
		return top
	}
	switch f := extFamily[ext]; f {
	case "image", "audio", "video", "archive":
		return f
	}
	if strings.Contains(mime, "zip") || strings.Contains(mime, "compressed") || strings.Contains(mime, "x-tar") {
		return "archive"
	}
	return "metadata"
}

// textOf decodes the file for the text-based formats, so that they share
// the encoding rules; ok is false for binary content.
func textOf(s *source, limit int) (string, bool) {
	if isBinary(s.head) {
		return "", false
	}
	if int64(len(s.head)) == s.size {
		return decodeText(s.head, true), true
	}
	want := min(s.size, int64(limit))
	data := make([]byte, want)
	n, _ := s.r.ReadAt(data, 0)
	return decodeText(data[:n], int64(n) == s.size), true
}

func isUTF16(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff"))
}
