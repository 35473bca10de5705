package extract

import (
	"bytes"
	"encoding/binary"
	"io"
	"strconv"
	"strings"

	"github.com/dhowden/tag"
)

// Images, audio and video are indexed by name and type elsewhere; here only
// what their first bytes give cheaply: image size, EXIF date and camera,
// audio tags. The parsers are small and bounded on purpose: every offset
// and count they read is checked against the bytes actually there.

const mediaHeadMax = 256 << 10

func extractMedia(s *source, d *Document) error {
	head := s.head
	if int64(len(head)) < s.size {
		head = make([]byte, min(s.size, mediaHeadMax))
		n, _ := s.r.ReadAt(head, 0)
		head = head[:n]
	}
	switch {
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		jpegMeta(head, d)
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		tiffMeta(head, d, true)
	case bytes.HasPrefix(head, []byte("\x89PNG")) && len(head) >= 24:
		setSize(d, int(binary.BigEndian.Uint32(head[16:])), int(binary.BigEndian.Uint32(head[20:])))
	case bytes.HasPrefix(head, []byte("GIF8")) && len(head) >= 10:
		setSize(d, int(binary.LittleEndian.Uint16(head[6:])), int(binary.LittleEndian.Uint16(head[8:])))
	case bytes.HasPrefix(head, []byte("ID3")):
		id3Meta(head, d)
	case bytes.HasPrefix(head, []byte("fLaC")):
		flacMeta(head, d)
	case bytes.HasPrefix(head, []byte("OggS")):
		oggMeta(head, d)
	case len(head) >= 8 && string(head[4:8]) == "ftyp":
		mp4Meta(s, d)
	}
	if d.Format == "audio" && d.Meta["title"] == "" && s.size >= 128 {
		id3v1Meta(s, d)
	}
	if t := d.Meta["title"]; t != "" {
		d.Title = t
		delete(d.Meta, "title")
	}
	return nil
}

// mp4Meta reads the iTunes-style tags of MP4 and M4A files with
// dhowden/tag. The moov atom may sit at the end of the file, so the whole
// file is its reader; the library caps each up-front allocation.
func mp4Meta(s *source, d *Document) {
	m, err := tag.ReadAtoms(io.NewSectionReader(s.r, 0, s.size))
	if err != nil || m == nil {
		return
	}
	setMeta(d, "title", m.Title())
	setMeta(d, "artist", m.Artist())
	setMeta(d, "album", m.Album())
	setMeta(d, "genre", m.Genre())
	if y := m.Year(); y > 0 {
		setMeta(d, "year", strconv.Itoa(y))
	}
}

func setSize(d *Document, w, h int) {
	if w > 0 && h > 0 {
		setMeta(d, "width", strconv.Itoa(w))
		setMeta(d, "height", strconv.Itoa(h))
	}
}

// jpegMeta walks the markers up to the frame header: APP1 holds EXIF, SOFn
// the image size.
func jpegMeta(b []byte, d *Document) {
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xff {
			return
		}
		marker := b[i+1]
		if marker == 0xff {
			i++
			continue
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 {
			return
		}
		seg := b[i+4 : min(len(b), i+2+n)]
		switch {
		case marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")):
			tiffMeta(seg[6:], d, false)
		case marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc:
			if len(seg) >= 5 {
				setSize(d, int(binary.BigEndian.Uint16(seg[3:])), int(binary.BigEndian.Uint16(seg[1:])))
			}
			return
		case marker == 0xda:
			return
		}
		i += 2 + n
	}
}

// tiffMeta reads IFD0 (camera, date, size) and the EXIF IFD (original date).
func tiffMeta(b []byte, d *Document, withSize bool) {
	if len(b) < 8 {
		return
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if b[0] == 'M' {
		bo = binary.BigEndian
	}
	t := tiff{b: b, bo: bo}
	ifd0 := t.ifd(int(bo.Uint32(b[4:])))
	make_, model := t.ascii(ifd0[0x010f]), t.ascii(ifd0[0x0110])
	if !strings.HasPrefix(model, make_) {
		model = strings.TrimSpace(make_ + " " + model)
	}
	setMeta(d, "camera", model)
	date := t.ascii(ifd0[0x0132])
	if e, ok := ifd0[0x8769]; ok {
		if orig := t.ascii(t.ifd(int(e.value))[0x9003]); orig != "" {
			date = orig
		}
	}
	setMeta(d, "created", exifDate(date))
	if withSize {
		setSize(d, int(ifd0[0x0100].value), int(ifd0[0x0101].value))
	}
}

type tiff struct {
	b  []byte
	bo binary.ByteOrder
}

type tiffEntry struct {
	typ   uint16
	count uint32
	value uint32 // the value itself when it fits, else its offset
}

func (t tiff) ifd(off int) map[uint16]tiffEntry {
	out := map[uint16]tiffEntry{}
	if off < 0 || off+2 > len(t.b) {
		return out
	}
	n := int(t.bo.Uint16(t.b[off:]))
	for i := 0; i < n && i < 512; i++ {
		p := off + 2 + 12*i
		if p+12 > len(t.b) {
			break
		}
		e := tiffEntry{typ: t.bo.Uint16(t.b[p+2:]), count: t.bo.Uint32(t.b[p+4:]), value: t.bo.Uint32(t.b[p+8:])}
		if e.typ == 3 && e.count == 1 { // SHORT, stored in the first two bytes
			e.value = uint32(t.bo.Uint16(t.b[p+8:]))
		}
		if e.typ == 2 && e.count <= 4 {
			e.value = uint32(p + 8) // ASCII stored inline: point at it
		}
		out[t.bo.Uint16(t.b[p:])] = e
	}
	return out
}

func (t tiff) ascii(e tiffEntry) string {
	if e.typ != 2 || e.count == 0 || e.count > 256 {
		return ""
	}
	start, end := int(e.value), int(e.value)+int(e.count)
	if start < 0 || end > len(t.b) {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(string(t.b[start:end]), "\x00"))
}

// exifDate turns "2006:01:02 15:04:05" into "2006-01-02 15:04:05".
func exifDate(s string) string {
	if len(s) >= 10 && s[4] == ':' && s[7] == ':' {
		return s[:4] + "-" + s[5:7] + "-" + s[8:]
	}
	return s
}

// id3Meta reads ID3v2.2-2.4 text frames from the start of the file.
func id3Meta(b []byte, d *Document) {
	if len(b) < 10 {
		return
	}
	ver := b[3]
	size := syncsafe(b[6:10])
	tag := b[10:min(len(b), 10+size)]
	if b[5]&0x40 != 0 && ver == 3 && len(tag) >= 4 { // extended header
		tag = tag[min(len(tag), 4+int(binary.BigEndian.Uint32(tag))):]
	}
	idLen, hdr := 4, 10
	if ver == 2 {
		idLen, hdr = 3, 6
	}
	names := map[string]string{"TIT2": "title", "TT2": "title", "TPE1": "artist", "TP1": "artist",
		"TALB": "album", "TAL": "album", "TYER": "year", "TYE": "year", "TDRC": "year", "TCON": "genre", "TCO": "genre"}
	for len(tag) >= hdr && tag[0] != 0 {
		id := tag[:idLen]
		var n int
		switch ver {
		case 2:
			n = int(tag[3])<<16 | int(tag[4])<<8 | int(tag[5])
		case 4:
			n = syncsafe(tag[4:8])
		default:
			n = int(binary.BigEndian.Uint32(tag[4:8]))
		}
		if n < 0 || hdr+n > len(tag) {
			return
		}
		if k := names[string(id)]; k != "" && d.Meta[k] == "" {
			setMeta(d, k, id3Text(tag[hdr:hdr+n]))
		}
		tag = tag[hdr+n:]
	}
}

func syncsafe(b []byte) int {
	return int(b[0]&0x7f)<<21 | int(b[1]&0x7f)<<14 | int(b[2]&0x7f)<<7 | int(b[3]&0x7f)
}

func id3Text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	enc, b := b[0], b[1:]
	var s string
	switch enc {
	case 1, 2:
		s = utf16Text(b, enc == 2)
	case 3:
		s = decodeText(b, true)
	default:
		s = decode1252(b)
	}
	return strings.TrimSpace(strings.ReplaceAll(s, "\x00", " "))
}

// utf16Text decodes UTF-16, its BOM (when there is one) deciding the order.
func utf16Text(b []byte, bigEndian bool) string {
	switch {
	case bytes.HasPrefix(b, []byte("\xff\xfe")):
		b, bigEndian = b[2:], false
	case bytes.HasPrefix(b, []byte("\xfe\xff")):
		b, bigEndian = b[2:], true
	}
	return decodeUTF16(b, bigEndian)
}

// id3v1Meta reads the fixed 128-byte tag at the end of an MP3.
func id3v1Meta(s *source, d *Document) {
	b := make([]byte, 128)
	if n, _ := s.r.ReadAt(b, s.size-128); n < 128 || !bytes.HasPrefix(b, []byte("TAG")) {
		return
	}
	field := func(f []byte) string { return strings.TrimSpace(decode1252(bytes.TrimRight(f, "\x00 "))) }
	setMeta(d, "title", field(b[3:33]))
	setMeta(d, "artist", field(b[33:63]))
	setMeta(d, "album", field(b[63:93]))
	setMeta(d, "year", field(b[93:97]))
}

// flacMeta finds the VORBIS_COMMENT block among the metadata blocks.
func flacMeta(b []byte, d *Document) {
	for i := 4; i+4 <= len(b); {
		last, typ := b[i]&0x80 != 0, b[i]&0x7f
		n := int(b[i+1])<<16 | int(b[i+2])<<8 | int(b[i+3])
		if i+4+n > len(b) {
			return
		}
		if typ == 4 {
			vorbisComments(b[i+4:i+4+n], d)
			return
		}
		if last {
			return
		}
		i += 4 + n
	}
}

// oggMeta looks for the comment header of Vorbis or Opus in the first pages.
func oggMeta(b []byte, d *Document) {
	for _, sig := range []string{"\x03vorbis", "OpusTags"} {
		if i := bytes.Index(b, []byte(sig)); i >= 0 {
			vorbisComments(b[i+len(sig):], d)
			return
		}
	}
}

var vorbisKeys = map[string]string{"TITLE": "title", "ARTIST": "artist", "ALBUM": "album",
	"DATE": "year", "GENRE": "genre"}

func vorbisComments(b []byte, d *Document) {
	next := func() ([]byte, bool) {
		if len(b) < 4 {
			return nil, false
		}
		n := int(binary.LittleEndian.Uint32(b))
		if n < 0 || n > len(b)-4 {
			return nil, false
		}
		v := b[4 : 4+n]
		b = b[4+n:]
		return v, true
	}
	if _, ok := next(); !ok { // vendor string
		return
	}
	if len(b) < 4 {
		return
	}
	count := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	for i := 0; i < count && i < 1000; i++ {
		c, ok := next()
		if !ok {
			return
		}
		k, v, _ := strings.Cut(string(c), "=")
		if key := vorbisKeys[strings.ToUpper(k)]; key != "" && d.Meta[key] == "" {
			setMeta(d, key, decodeText([]byte(v), true))
		}
	}
}
