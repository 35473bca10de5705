package extract

import (
	"bytes"
	"encoding/binary"
	"io"
)

// The xz decoder allocates, for each block, the whole LZMA2 dictionary the
// block header asks for: up to 4 GiB for a file of a hundred bytes. Its
// configuration sets a floor for that size, not a ceiling. xzGuard sits
// between the file and the decoder and walks the container as the bytes
// pass (stream headers, block headers, LZMA2 chunk headers, the index), so
// that a block asking for more than maxDict fails before the decoder reads
// its header. The walk follows the chunk headers only; it decodes nothing.

// errXZDict refuses a block whose dictionary exceeds the limit.
var errXZDict = warnf("xz file needs a dictionary larger than %d MB: not read", decoderMaxWindow>>20)

type xzGuard struct {
	r       io.Reader
	maxDict uint64
	err     error // sticky: the decoder may call again after a failure

	buf  []byte // the header being gathered
	need int    // its length: then runs when buf holds need bytes
	then func(h []byte) error
	skip int64 // bytes passed unexamined (chunk data, padding, checks)

	check int   // the current stream's check size
	comp  int64 // the current block's compressed bytes so far
	index xzIndexWalk
}

// xzIndexWalk counts the variable-length integers of a stream's index.
type xzIndexWalk struct {
	n     int64  // bytes of the index so far
	left  int64  // integers still to read; -1 before the record count
	v     uint64 // the integer being read
	shift uint
}

func newXZGuard(r io.Reader, maxDict uint64) *xzGuard {
	g := &xzGuard{r: r, maxDict: maxDict}
	g.want(12, g.streamHeader)
	return g
}

func (g *xzGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	if ferr := g.feed(p[:n]); ferr != nil {
		g.err = ferr
		return 0, ferr
	}
	return n, err
}

func (g *xzGuard) want(n int, then func([]byte) error) { g.need, g.then = n, then }

// feed walks the bytes the decoder is about to receive.
func (g *xzGuard) feed(b []byte) error {
	for len(b) > 0 {
		if g.skip > 0 {
			k := int(min(g.skip, int64(len(b))))
			g.skip -= int64(k)
			b = b[k:]
			continue
		}
		k := min(g.need-len(g.buf), len(b))
		g.buf = append(g.buf, b[:k]...)
		b = b[k:]
		if len(g.buf) < g.need {
			continue
		}
		h := bytes.Clone(g.buf) // a handler may start the next header
		g.buf = g.buf[:0]
		if err := g.then(h); err != nil {
			return err
		}
	}
	return nil
}

var errXZFormat = warning("corrupt xz file: contents not indexed")

func (g *xzGuard) streamHeader(h []byte) error {
	if !bytes.HasPrefix(h, []byte("\xfd7zXZ\x00")) || h[6] != 0 || h[7] > 15 {
		return errXZFormat
	}
	g.check = 0
	if id := int(h[7]); id > 0 {
		g.check = 4 << ((id - 1) / 3)
	}
	g.want(1, g.blockStart)
	return nil
}

// blockStart reads a block header's size byte, or the index indicator.
func (g *xzGuard) blockStart(h []byte) error {
	if h[0] == 0 {
		g.index = xzIndexWalk{n: 1, left: -1}
		g.want(1, g.indexByte)
		return nil
	}
	g.want((int(h[0])+1)*4-1, g.blockHeader)
	return nil
}

// blockHeader checks the dictionary size of the block's LZMA2 filter.
func (g *xzGuard) blockHeader(h []byte) error {
	flags := h[0]
	// The optional compressed and uncompressed sizes, then the filters;
	// the last four bytes are a CRC.
	r := bytes.NewReader(h[1 : len(h)-4])
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} {
		if present {
			if _, err := binary.ReadUvarint(r); err != nil {
				return errXZFormat
			}
		}
	}
	for range int(flags&3) + 1 {
		id, err1 := binary.ReadUvarint(r)
		size, err2 := binary.ReadUvarint(r)
		if err1 != nil || err2 != nil || size > uint64(r.Len()) {
			return errXZFormat
		}
		props := make([]byte, size)
		r.Read(props)
		if id == 0x21 && (size != 1 || xzDictSize(props[0]) > g.maxDict) {
			return errXZDict
		}
	}
	g.comp = 0
	g.want(1, g.chunkControl)
	return nil
}

// xzDictSize decodes LZMA2's dictionary size property.
func xzDictSize(b byte) uint64 {
	if b > 40 {
		return 1 << 63
	}
	if b == 40 {
		return 1<<32 - 1
	}
	return uint64(2|b&1) << (b/2 + 11)
}

// chunkControl reads an LZMA2 chunk's first byte.
func (g *xzGuard) chunkControl(h []byte) error {
	g.comp++
	switch c := h[0]; {
	case c == 0: // the end of the block's data: padding to 4 bytes, then the check
		g.skip = (4-g.comp%4)%4 + int64(g.check)
		g.want(1, g.blockStart)
	case c == 1 || c == 2:
		g.want(2, g.chunkSizes)
	case c >= 0xc0:
		g.want(5, g.chunkSizes) // unpacked size, packed size, properties
	case c >= 0x80:
		g.want(4, g.chunkSizes)
	default:
		return errXZFormat
	}
	return nil
}

// chunkSizes skips an LZMA2 chunk's data: an uncompressed chunk gives its
// size, a compressed one its unpacked and then its packed size.
func (g *xzGuard) chunkSizes(h []byte) error {
	data := int64(binary.BigEndian.Uint16(h)) + 1
	if len(h) >= 4 {
		data = int64(binary.BigEndian.Uint16(h[2:4])) + 1
	}
	g.comp += int64(len(h)) + data
	g.skip = data
	g.want(1, g.chunkControl)
	return nil
}

// indexByte walks the index: the record count, two integers per record,
// padding to 4 bytes and a CRC; then comes the stream footer, and stream
// padding or another stream.
func (g *xzGuard) indexByte(h []byte) error {
	x := &g.index
	x.n++
	x.v |= uint64(h[0]&0x7f) << x.shift
	x.shift += 7
	if h[0]&0x80 != 0 {
		if x.shift > 63 {
			return errXZFormat
		}
		return nil
	}
	switch {
	case x.left < 0:
		if x.v > 1<<40 {
			return errXZFormat
		}
		x.left = int64(x.v) * 2
	default:
		x.left--
	}
	x.v, x.shift = 0, 0
	if x.left == 0 {
		g.skip = (4-x.n%4)%4 + 4 + 12
		g.want(1, g.streamPadding)
	}
	return nil
}

// streamPadding passes zero bytes until another stream begins.
func (g *xzGuard) streamPadding(h []byte) error {
	if h[0] == 0 {
		return nil
	}
	g.buf = append(g.buf, h[0])
	g.want(12, g.streamHeader)
	return nil
}
