package extract

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// The 7z library allocates one entry per file the header declares, up to
// 2^32 of them, before reading any: a header of a few bytes can ask for
// more memory than the machine has, which no recover can catch. This
// walk reads the header as far as the file count and refuses archives
// that declare more files than the entry cap. A header compressed with
// LZMA or LZMA2 (7-Zip's default) is decompressed first, within the same
// dictionary limits; other header codings (an encrypted header) are left
// to the library, which cannot read them without the password.

const sevenMaxHeader = 64 << 20

var err7zHeader = errors.New("malformed 7z header")

type sevenHeader struct {
	b   []byte
	off int
}

func (h *sevenHeader) byte() byte {
	if h.off >= len(h.b) {
		panic(err7zHeader)
	}
	h.off++
	return h.b[h.off-1]
}

// num reads 7z's variable-length number: the first byte's leading ones
// count the bytes that follow.
func (h *sevenHeader) num() uint64 {
	first := h.byte()
	var v uint64
	mask := byte(0x80)
	for i := 0; i < 8; i++ {
		if first&mask == 0 {
			return v | uint64(first&(mask-1))<<(8*i)
		}
		v |= uint64(h.byte()) << (8 * i)
		mask >>= 1
	}
	return v
}

// count reads a number used as a loop bound: it cannot exceed the bytes
// left, since every item takes at least one.
func (h *sevenHeader) count() int {
	n := h.num()
	if n > uint64(len(h.b)-h.off) {
		panic(err7zHeader)
	}
	return int(n)
}

func (h *sevenHeader) skip(n uint64) {
	if n > uint64(len(h.b)-h.off) {
		panic(err7zHeader)
	}
	h.off += int(n)
}

// digests skips a CRC list and says which are defined.
func (h *sevenHeader) digests(n int) []bool {
	defined := make([]bool, n)
	all := h.byte() != 0
	var bits byte
	for i := range defined {
		if all {
			defined[i] = true
			continue
		}
		if i%8 == 0 {
			bits = h.byte()
		}
		defined[i] = bits&(0x80>>(i%8)) != 0
	}
	for _, d := range defined {
		if d {
			h.skip(4)
		}
	}
	return defined
}

type sevenCoder struct {
	id, props []byte
}

type sevenFolder struct {
	coders []sevenCoder
	outs   int
	sizes  []uint64
	crc    bool
}

func (h *sevenHeader) folder() sevenFolder {
	var f sevenFolder
	ins := 0
	for range h.count() {
		flags := h.byte()
		var c sevenCoder
		start := h.off
		h.skip(uint64(flags & 0x0F))
		c.id = h.b[start:h.off]
		in, out := 1, 1
		if flags&0x10 != 0 {
			in, out = h.count(), h.count()
		}
		if flags&0x20 != 0 {
			n := h.num()
			start := h.off
			h.skip(n)
			c.props = h.b[start:h.off]
		}
		ins += in
		f.outs += out
		f.coders = append(f.coders, c)
	}
	for range f.outs - 1 { // bind pairs
		h.num()
		h.num()
	}
	if packed := ins - (f.outs - 1); packed > 1 {
		for range packed {
			h.num()
		}
	}
	return f
}

// streamsInfo walks pack, unpack and substreams information; it returns
// the first pack stream's position and size, and the folders.
func (h *sevenHeader) streamsInfo() (packPos, packSize uint64, folders []sevenFolder) {
	for {
		switch h.byte() {
		case 0x00:
			return packPos, packSize, folders
		case 0x06:
			packPos, packSize = h.packInfo()
		case 0x07:
			folders = h.unpackInfo()
		case 0x08:
			h.substreams(folders)
		default:
			panic(err7zHeader)
		}
	}
}

func (h *sevenHeader) packInfo() (pos, first uint64) {
	pos = h.num()
	n := h.count()
	for {
		switch h.byte() {
		case 0x00:
			return pos, first
		case 0x09:
			for i := range n {
				if v := h.num(); i == 0 {
					first = v
				}
			}
		case 0x0A:
			h.digests(n)
		default:
			panic(err7zHeader)
		}
	}
}

func (h *sevenHeader) unpackInfo() []sevenFolder {
	if h.byte() != 0x0B {
		panic(err7zHeader)
	}
	folders := make([]sevenFolder, h.count())
	if h.byte() != 0 {
		panic(err7zHeader) // folders kept elsewhere: not written by any tool
	}
	for i := range folders {
		folders[i] = h.folder()
	}
	if h.byte() != 0x0C {
		panic(err7zHeader)
	}
	for i := range folders {
		for range folders[i].outs {
			folders[i].sizes = append(folders[i].sizes, h.num())
		}
	}
	for {
		switch h.byte() {
		case 0x00:
			return folders
		case 0x0A:
			for i, d := range h.digests(len(folders)) {
				folders[i].crc = d
			}
		default:
			panic(err7zHeader)
		}
	}
}

func (h *sevenHeader) substreams(folders []sevenFolder) {
	streams := make([]int, len(folders))
	for i := range streams {
		streams[i] = 1
	}
	for {
		switch h.byte() {
		case 0x00:
			return
		case 0x0D:
			for i := range streams {
				streams[i] = h.count()
			}
		case 0x09:
			for _, n := range streams {
				for range n - 1 {
					h.num()
				}
			}
		case 0x0A:
			n := 0
			for i, k := range streams {
				if k != 1 || !folders[i].crc {
					n += k
				}
			}
			h.digests(n)
		default:
			panic(err7zHeader)
		}
	}
}

// files walks a plain header up to its file count; 0 when it has none.
func (h *sevenHeader) files() uint64 {
	for {
		switch h.byte() {
		case 0x00:
			return 0
		case 0x02:
			for h.byte() != 0 {
				h.skip(h.num())
			}
		case 0x03, 0x04:
			h.streamsInfo()
		case 0x05:
			return h.num()
		default:
			panic(err7zHeader)
		}
	}
}

// errNo7zWalk: the header is coded in a way the walk does not read (an
// encrypted header), or lies wholly outside the file; either way the
// library can read no file list from it.
var errNo7zWalk = errors.New("7z header not walked")

// check7zHeader refuses an archive whose header declares more files than
// the entry cap, or that the walk finds damaged before its file count.
func check7zHeader(s *source) error {
	n, err := declared7zFiles(s)
	switch {
	case errors.Is(err, err7zHeader):
		return warning("damaged 7z header: contents not indexed")
	case err != nil:
		return nil
	case n > zipMaxEntries:
		return warnf("archive has more than %d entries: contents not indexed", zipMaxEntries)
	}
	return nil
}

// declared7zFiles reads the file count of a 7z header. Like the library,
// it reads a header that claims to run past the file's end as far as the
// file goes.
func declared7zFiles(s *source) (n uint64, err error) {
	var start [32]byte
	if n, _ := s.r.ReadAt(start[:], 0); n < 32 {
		return 0, errNo7zWalk
	}
	off, size := binary.LittleEndian.Uint64(start[12:]), binary.LittleEndian.Uint64(start[20:])
	if off >= uint64(s.size) || 32+off >= uint64(s.size) {
		return 0, errNo7zWalk
	}
	b := make([]byte, min(size, sevenMaxHeader, uint64(s.size)-32-off))
	if n, _ := s.r.ReadAt(b, int64(32+off)); n < len(b) {
		return 0, errNo7zWalk
	}
	defer func() {
		if r := recover(); r != nil {
			if r != err7zHeader {
				panic(r)
			}
			n, err = 0, err7zHeader
		}
	}()
	h := &sevenHeader{b: b}
	if len(b) > 0 && b[0] == 0x17 {
		h.off = 1
		if h = decode7zHeader(s, h); h == nil {
			return 0, errNo7zWalk
		}
	}
	if h.byte() != 0x01 {
		return 0, errNo7zWalk
	}
	return h.files(), nil
}

// decode7zHeader decompresses a header kept in one LZMA or LZMA2 stream.
func decode7zHeader(s *source, enc *sevenHeader) *sevenHeader {
	pos, packed, folders := enc.streamsInfo()
	if len(folders) != 1 || len(folders[0].coders) != 1 || len(folders[0].sizes) != 1 {
		return nil
	}
	c, size := folders[0].coders[0], folders[0].sizes[0]
	if size > sevenMaxHeader || packed > uint64(s.size) || 32+pos > uint64(s.size) {
		return nil
	}
	in := io.NopCloser(io.NewSectionReader(s.r, int64(32+pos), int64(packed)))
	var rc io.ReadCloser
	var err error
	switch {
	case bytes.Equal(c.id, []byte{0x03, 0x01, 0x01}):
		rc, err = newLZMA7z(c.props, size, []io.ReadCloser{in})
	case bytes.Equal(c.id, []byte{0x21}):
		rc, err = newLZMA2of7z(c.props, size, []io.ReadCloser{in})
	default:
		return nil
	}
	if err != nil {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(rc, int64(size)))
	return &sevenHeader{b: b}
}
