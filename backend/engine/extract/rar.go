package extract

import (
	"errors"
	"io"

	"github.com/nwaples/rardecode/v2"
)

// RAR archives (RAR 1.5 to 5) are read with nwaples/rardecode as one
// stream, front to back: a solid archive is decompressed once, and each
// entry goes through the member loop like a zip entry.

func extractRAR(s *source, d *Document) error {
	r := io.NewSectionReader(ctxReaderAt{s.ctx, s.r}, 0, s.size)
	rr, err := rardecode.NewReader(r, rardecode.MaxDictionarySize(decoderMaxWindow))
	if err != nil {
		return rarErr(err)
	}
	exp := newExpansion(s.ctx)
	loop := newMemberLoop(s, &exp)
	for {
		h, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			loop.note(rarErr(err))
			break
		}
		m := member{name: h.Name, size: h.UnPackedSize, packed: h.PackedSize, dir: h.IsDir, encrypted: h.Encrypted}
		if h.Solid || h.UnKnownSize {
			m.packed = -1 // the stream holds earlier entries too
		}
		m.open = func() (io.ReadCloser, error) { return io.NopCloser(rarReader{rr}), nil }
		if !loop.add(m) {
			break
		}
	}
	return loop.finish(d)
}

func rarErr(err error) error {
	switch {
	case errors.Is(err, rardecode.ErrArchiveEncrypted):
		return warning("encrypted: RAR archive whose names are encrypted needs a password: contents not indexed")
	case errors.Is(err, rardecode.ErrArchivedFileEncrypted):
		return errMemberEncrypted
	case errors.Is(err, rardecode.ErrDictionaryTooLarge):
		return warnf("RAR archive needs a dictionary larger than %d MB: contents not indexed", decoderMaxWindow>>20)
	case errors.Is(err, rardecode.ErrMultiVolume):
		return warning("RAR archive continues in other volumes: only this one is indexed")
	}
	return err
}

// rarReader maps the library's read errors to the loop's.
type rarReader struct{ r io.Reader }

func (r rarReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = rarErr(err)
	}
	return n, err
}
