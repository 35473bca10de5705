package extract

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/bodgit/sevenzip"
	"github.com/stangelandcl/ppmd"
	"github.com/ulikunitz/xz/lzma"
)

// 7z archives are read with bodgit/sevenzip and go through the member
// loop like zip entries. Entries are opened in archive order: the library
// keeps a solid stream's decoder where the last entry stopped, so a solid
// archive is decompressed once, front to back.

// ppmdMaxMemory bounds the model a PPMd coder may ask for: 7-Zip's
// strongest preset uses 192 MB.
const ppmdMaxMemory = 256 << 20

// The library's own LZMA, LZMA2 and PPMd decoders allocate whatever a
// coder's properties ask for (up to 4 GiB from a few bytes). These take
// their place and refuse such coders before allocating.
func init() {
	sevenzip.RegisterDecompressor([]byte{0x03, 0x01, 0x01}, sevenzip.Decompressor(newLZMA7z))
	sevenzip.RegisterDecompressor([]byte{0x21}, sevenzip.Decompressor(newLZMA2of7z))
	sevenzip.RegisterDecompressor([]byte{0x03, 0x04, 0x01}, sevenzip.Decompressor(newPPMd7z))
}

var err7zDict = warnf("7z archive needs a dictionary larger than %d MB: contents not indexed", decoderMaxWindow>>20)

type readCloser struct {
	io.Reader
	io.Closer
}

func one7zInput(readers []io.ReadCloser) (io.ReadCloser, error) {
	if len(readers) != 1 {
		return nil, errors.New("7z coder needs exactly one input")
	}
	return readers[0], nil
}

func newLZMA7z(p []byte, size uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	in, err := one7zInput(readers)
	if err != nil {
		return nil, err
	}
	if len(p) != 5 {
		return nil, errors.New("7z LZMA coder without its properties")
	}
	if binary.LittleEndian.Uint32(p[1:]) > decoderMaxWindow {
		return nil, err7zDict
	}
	// The decoder wants the .lzma header: properties, then the size.
	h := append(bytes.Clone(p), binary.LittleEndian.AppendUint64(nil, size)...)
	lr, err := lzma.NewReader(io.MultiReader(bytes.NewReader(h), in))
	if err != nil {
		return nil, err
	}
	return readCloser{lr, in}, nil
}

func newLZMA2of7z(p []byte, _ uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	in, err := one7zInput(readers)
	if err != nil {
		return nil, err
	}
	if len(p) != 1 || p[0] > 40 {
		return nil, errors.New("7z LZMA2 coder with bad properties")
	}
	dict := (2 | int64(p[0])&1) << (p[0]/2 + 11) // as in 7-Zip's Lzma2Dec.c
	if dict > decoderMaxWindow {
		return nil, err7zDict
	}
	cfg := lzma.Reader2Config{DictCap: int(dict)}
	lr, err := cfg.NewReader2(in)
	if err != nil {
		return nil, err
	}
	return readCloser{lr, in}, nil
}

func newPPMd7z(p []byte, size uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	in, err := one7zInput(readers)
	if err != nil {
		return nil, err
	}
	if len(p) != 5 {
		return nil, errors.New("7z PPMd coder without its properties")
	}
	mem := binary.LittleEndian.Uint32(p[1:])
	if mem > ppmdMaxMemory || size > 1<<40 {
		return nil, warnf("7z archive needs a PPMd model larger than %d MB: contents not indexed", ppmdMaxMemory>>20)
	}
	pr, err := ppmd.NewH7zReader(in, int(p[0]), int(mem), int(size))
	if err != nil {
		return nil, err
	}
	return readCloser{&pr, in}, nil
}

func extract7z(s *source, d *Document) error {
	if err := check7zHeader(s); err != nil {
		return err
	}
	var zr *sevenzip.Reader
	err := protect(func() (err error) {
		zr, err = sevenzip.NewReader(ctxReaderAt{s.ctx, s.r}, s.size)
		return err
	})
	// The library dereferences parts of the header that a damaged file
	// leaves out: a panic there is damage, not a fault of ours.
	var p *panicError
	if errors.As(err, &p) {
		return warnf("corrupt 7z archive (%v): contents not indexed", p.val)
	}
	if err != nil {
		return sevenzipErr(err, "its names are encrypted: contents not indexed")
	}
	exp := newExpansion(s.ctx)
	loop := newMemberLoop(s, &exp)
	for _, f := range zr.File {
		m := member{name: f.Name, size: int64(min(f.UncompressedSize, 1<<62)), packed: -1, dir: f.FileInfo().IsDir()}
		m.open = func() (io.ReadCloser, error) {
			rc, err := f.Open()
			if err != nil {
				return nil, sevenzipErr(err, "")
			}
			return readCloser{errMapReader{rc}, rc}, nil
		}
		if !loop.add(m) {
			break
		}
	}
	return loop.finish(d)
}

// sevenzipErr tells a password the archive needs from damage.
func sevenzipErr(err error, encrypted string) error {
	var re *sevenzip.ReadError
	var w warning
	switch {
	case errors.As(err, &w):
		return w
	case errors.As(err, &re) && re.Encrypted && encrypted != "":
		return warnf("encrypted: 7z archive that needs a password; %s", encrypted)
	case errors.As(err, &re) && re.Encrypted:
		return errMemberEncrypted
	}
	return err
}

// errMapReader turns the library's read errors into the loop's.
type errMapReader struct{ r io.Reader }

func (e errMapReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		err = sevenzipErr(err, "")
	}
	return n, err
}
