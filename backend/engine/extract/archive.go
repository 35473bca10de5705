package extract

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// zipDoc is an opened zip-based file whose reads share one budget of
// uncompressed bytes and obey a compression-ratio cap, so a zip bomb is
// stopped after a bounded amount of work.
type zipDoc struct {
	expansion
	s     *source
	zr    *zip.Reader
	files map[string]*zip.File
}

var errMissing = errors.New("missing part")

func openZip(s *source) (*zipDoc, error) {
	if err := checkZipDirectory(s); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(s.r, s.size)
	if err != nil {
		return nil, err
	}
	z := &zipDoc{expansion: newExpansion(s.ctx), s: s, zr: zr, files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		if _, dup := z.files[f.Name]; !dup {
			z.files[f.Name] = f
		}
	}
	return z, nil
}

// checkZipDirectory reads the end record before archive/zip allocates one
// entry per directory record: a small file can claim millions of entries.
func checkZipDirectory(s *source) error {
	tailLen := min(s.size, 65535+22+20+56)
	tail := make([]byte, tailLen)
	n, _ := s.r.ReadAt(tail, s.size-tailLen)
	tail = tail[:n]
	i := bytes.LastIndex(tail, []byte("PK\x05\x06"))
	if i < 0 || len(tail)-i < 22 {
		return nil // archive/zip reports the damage
	}
	count := uint64(binary.LittleEndian.Uint16(tail[i+10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(tail[i+12:]))
	if count == 0xffff || dirSize == 0xffffffff {
		// Zip64: the real numbers are in the zip64 end record.
		j := bytes.LastIndex(tail[:i], []byte("PK\x06\x06"))
		if j < 0 || len(tail)-j < 56 {
			return nil
		}
		count, dirSize = binary.LittleEndian.Uint64(tail[j+32:]), binary.LittleEndian.Uint64(tail[j+40:])
	}
	if count > zipMaxEntries || dirSize > zipMaxEntries*1024 {
		return warnf("archive lists %d entries (more than %d): contents not indexed", count, zipMaxEntries)
	}
	return nil
}

// open returns a reader of one entry that fails once the entry expands past
// the ratio cap or the archive's budget runs out.
func (z *zipDoc) open(name string) (io.ReadCloser, error) {
	f := z.files[name]
	if f == nil {
		return nil, errMissing
	}
	return z.openFile(f)
}

func (z *zipDoc) openFile(f *zip.File) (io.ReadCloser, error) {
	if ratioBomb(int64(min(f.UncompressedSize64, 1<<62)), int64(min(f.CompressedSize64, 1<<62))) {
		z.bomb = true
		return nil, bombWarning(f.Name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	limit := int64(min(f.CompressedSize64, 1<<40))*zipMaxRatio + zipRatioSlack
	return z.guard(rc, f.Name, limit), nil
}

// walk streams one XML entry through a visitor.
func (z *zipDoc) walk(name string, v xmlVisitor) error {
	rc, err := z.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return walkXML(z.s.ctx, rc, v, z.s.text)
}

// walkMeta streams an XML entry that feeds metadata, not the text.
func (z *zipDoc) walkMeta(name string, v xmlVisitor) error {
	rc, err := z.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return walkXML(z.s.ctx, rc, v, newSink(0))
}

// extractArchive lists a zip's or tar's entries and indexes the text of
// small text entries; archives inside are listed, never opened.
func extractArchive(s *source, d *Document) error {
	switch {
	case bytes.HasPrefix(s.head, []byte("PK\x03\x04")) || bytes.HasPrefix(s.head, []byte("PK\x05\x06")):
		return extractZip(s, d)
	case bytes.HasPrefix(s.head, []byte("\x1f\x8b")):
		return extractGzip(s, d)
	case bytes.HasPrefix(s.head, []byte("BZh")):
		return extractCompressed(s, d, func(r io.Reader) (io.Reader, func(), error) { return bzip2.NewReader(r), func() {}, nil })
	case bytes.HasPrefix(s.head, []byte("\xfd7zXZ\x00")):
		return extractCompressed(s, d, func(r io.Reader) (io.Reader, func(), error) {
			xr, err := xz.NewReader(newXZGuard(r, decoderMaxWindow))
			return xr, func() {}, err
		})
	case bytes.HasPrefix(s.head, []byte("\x28\xb5\x2f\xfd")):
		return extractCompressed(s, d, func(r io.Reader) (io.Reader, func(), error) {
			zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
				zstd.WithDecoderMaxWindow(decoderMaxWindow), zstd.WithDecoderMaxMemory(uint64(s.opt.MaxTextBytes)*zipMaxRatio))
			if err != nil {
				return nil, nil, err
			}
			return zr, zr.Close, nil
		})
	case len(s.head) > 262 && string(s.head[257:262]) == "ustar":
		return listTar(s, d, s.reader())
	case bytes.HasPrefix(s.head, []byte("7z\xbc\xaf\x27\x1c")):
		return extract7z(s, d)
	case bytes.HasPrefix(s.head, []byte("Rar!\x1a\x07")):
		return extractRAR(s, d)
	}
	return nil
}

func extractZip(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	if fam := officeByEntries(z); fam != "" && fam != d.Format {
		d.Format, d.Mime = fam, familyMime[fam]
		return runner(fam)(s, d)
	}
	loop := newMemberLoop(s, &z.expansion)
	for _, f := range z.zr.File {
		m := member{name: f.Name, size: int64(min(f.UncompressedSize64, 1<<62)), packed: int64(min(f.CompressedSize64, 1<<62)),
			dir: f.FileInfo().IsDir(), encrypted: f.Flags&1 != 0}
		m.open = func() (io.ReadCloser, error) { return z.openFile(f) }
		if !loop.add(m) {
			break
		}
	}
	return loop.finish(d)
}

// textName rejects entries whose extension names a binary or container
// format; one level of archive is all that is opened.
func textName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	switch extFamily[ext] {
	case "", "markdown", "html", "csv", "json", "yaml", "toml", "xml", "eml", "rtf":
		return !binaryExt[ext]
	}
	return false
}

var binaryExt = map[string]bool{
	".exe": true, ".dll": true, ".so": true, ".o": true, ".a": true, ".class": true, ".bin": true,
	".pyc": true, ".ttf": true, ".otf": true, ".woff": true, ".woff2": true, ".bz2": true,
	".xz": true, ".zst": true,
	".db": true, ".sqlite": true, ".iso": true, ".dat": true, ".apk": true,
}

// officeByEntries recognises OOXML, ODF and EPUB files that lack their
// usual extension.
func officeByEntries(z *zipDoc) string {
	switch {
	case z.files["word/document.xml"] != nil:
		return "docx"
	case z.files["xl/workbook.xml"] != nil:
		return "xlsx"
	case z.files["ppt/presentation.xml"] != nil:
		return "pptx"
	case z.files["META-INF/container.xml"] != nil && z.files["mimetype"] != nil:
		return "epub"
	}
	return ""
}

// decoderMaxWindow bounds the window a zstd frame, or the dictionary an xz
// block, may ask for: 64 MB is what their encoders' strongest levels use.
const decoderMaxWindow = 64 << 20

// extractGzip lists a .tar.gz, or indexes a gzipped text file such as a
// compressed man page or changelog.
func extractGzip(s *source, d *Document) error {
	return extractCompressed(s, d, func(r io.Reader) (io.Reader, func(), error) {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, err
		}
		zr.Multistream(false)
		return zr, func() {}, nil
	})
}

// extractCompressed lists a compressed tar (.tar.gz, .tar.bz2, .tar.xz,
// .tar.zst), or indexes a compressed text file, through the decompressor
// open gives. The expansion ratio is capped as for zip entries.
func extractCompressed(s *source, d *Document, open func(io.Reader) (io.Reader, func(), error)) error {
	zr, done, err := open(s.reader())
	if err != nil {
		return err
	}
	defer done()
	capped := &ratioReader{r: zr, left: s.size*zipMaxRatio + zipRatioSlack}
	br := &peekReader{r: capped}
	peek, err := br.peek(512)
	var refused warning // a limit (xzGuard) refused the stream
	if errors.As(err, &refused) {
		return err
	}
	if len(peek) > 262 && string(peek[257:262]) == "ustar" {
		return listTar(s, d, br)
	}
	if !textName(innerName(s.name)) || isBinary(peek) {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(br, int64(s.opt.MaxTextBytes)+4))
	s.text.WriteString(decodeText(data, err == nil && len(data) <= s.opt.MaxTextBytes))
	if len(data) > s.opt.MaxTextBytes {
		s.text.cut = true
	}
	d.Format = "text"
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	return nil
}

// innerName is a compressed file's name without its compression suffix.
func innerName(name string) string {
	ext := filepath.Ext(name)
	switch strings.ToLower(ext) {
	case ".gz", ".bz2", ".xz", ".zst":
		return strings.TrimSuffix(name, ext)
	}
	return name
}

func listTar(s *source, d *Document, r io.Reader) error {
	tr := tar.NewReader(r)
	exp := newExpansion(s.ctx)
	loop := newMemberLoop(s, &exp)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			loop.note(err)
			break
		}
		// A tar entry is stored: its bytes are its size.
		m := member{name: h.Name, size: h.Size, packed: h.Size, dir: h.Typeflag == tar.TypeDir}
		if h.Typeflag == tar.TypeReg {
			m.open = func() (io.ReadCloser, error) { return io.NopCloser(tr), nil }
		}
		if !loop.add(m) {
			break
		}
	}
	return loop.finish(d)
}

// ratioReader stops a decompressor that expands too much.
type ratioReader struct {
	r    io.Reader
	left int64
}

func (r *ratioReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if r.left -= int64(n); r.left < 0 {
		return n, warnf("expands more than %d times (a compression bomb?): not fully read", zipMaxRatio)
	}
	return n, err
}

type peekReader struct {
	r   io.Reader
	buf []byte
}

func (p *peekReader) peek(n int) ([]byte, error) {
	p.buf = make([]byte, n)
	got, err := io.ReadFull(p.r, p.buf)
	p.buf = p.buf[:got]
	return p.buf, err
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.r.Read(b)
}
