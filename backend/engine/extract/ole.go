package extract

import (
	"bytes"
	"io"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/richardlehane/mscfb"
	"github.com/richardlehane/msoleps"
	"github.com/richardlehane/msoleps/types"
	"golang.org/x/text/encoding/htmlindex"
)

// Office 97-2003 files (.doc, .xls, .ppt) are OLE2 compound files: a FAT
// file system of streams inside one file, read with richardlehane/mscfb.
// The family is chosen by the streams the file holds, whatever its name
// says (doc.go, xls.go, ppt.go); title and author come from the
// SummaryInformation property set.

const (
	// oleMaxDirBytes bounds the sectors mscfb reads while opening (the
	// directory and the DIFAT): each directory entry becomes an object, and
	// a small file can chain millions of them. Real files use a few KB.
	oleMaxDirBytes = 4 << 20
	// oleMaxChainReads bounds the FAT look-ups made while opening.
	oleMaxChainReads = 1 << 20
	// olePropsMax is the property set size the specification recommends
	// as a limit.
	olePropsMax = 2 << 20
	// oleInMemory: smaller files are read whole first. mscfb reads the FAT
	// four bytes at a time, a system call each when reading the file.
	oleInMemory = 32 << 20
)

// oleFile is an opened compound file and its top-level streams.
type oleFile struct {
	s       *source
	streams map[string]*mscfb.File
}

// openGuard lets mscfb read freely once the file is open, and bounds what
// it reads before: the directory walk happens inside mscfb.New.
type openGuard struct {
	r          io.ReaderAt
	open       bool
	dirBytes   int64
	chainReads int
}

var errOLEDirectory = warning("OLE2 directory larger than any real document: contents not indexed")

func (g *openGuard) ReadAt(p []byte, off int64) (int, error) {
	if !g.open {
		if len(p) <= 8 {
			g.chainReads++
		} else {
			g.dirBytes += int64(len(p))
		}
		if g.chainReads > oleMaxChainReads || g.dirBytes > oleMaxDirBytes {
			return 0, errOLEDirectory
		}
	}
	return g.r.ReadAt(p, off)
}

func openOLE(s *source) (*oleFile, error) {
	var r io.ReaderAt = s.r
	if s.size <= oleInMemory {
		data, _, err := s.prefix(s.size)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(data)
	}
	g := &openGuard{r: ctxReaderAt{s.ctx, r}}
	cf, err := mscfb.New(g)
	if g.chainReads > oleMaxChainReads || g.dirBytes > oleMaxDirBytes {
		return nil, errOLEDirectory
	}
	if err != nil {
		return nil, err
	}
	g.open = true
	o := &oleFile{s: s, streams: map[string]*mscfb.File{}}
	for f, err := cf.Next(); err == nil; f, err = cf.Next() {
		if len(f.Path) == 0 && !f.FileInfo().IsDir() && o.streams[f.Name] == nil {
			o.streams[f.Name] = f
		}
	}
	return o, nil
}

func (o *oleFile) has(name string) bool { return o.streams[name] != nil }

// stream reads a top-level stream whole. A stream cannot hold more than
// the file does, whatever its directory entry claims, so a cyclic sector
// chain or a huge declared size reads at most the file's size.
func (o *oleFile) stream(name string) ([]byte, error) {
	f := o.streams[name]
	if f == nil {
		return nil, errMissing
	}
	n := min(f.Size, o.s.size)
	if n <= 0 {
		return nil, nil
	}
	buf := make([]byte, n)
	got, err := f.Read(buf)
	if err != nil && err != io.EOF {
		return buf[:got], err
	}
	return buf[:got], nil
}

// extractOLE picks the reader by the streams the file holds.
func extractOLE(s *source, d *Document) error {
	o, err := openOLE(s)
	if err != nil {
		return err
	}
	setFormat := func(fam string) {
		d.Format, d.Mime = fam, familyMime[fam]
	}
	switch {
	case o.has("EncryptedPackage"):
		// An encrypted OOXML file travels inside a compound file.
		if fam := extFamily[s.ext]; fam == "docx" || fam == "xlsx" || fam == "pptx" {
			setFormat(fam)
		}
		return warning("encrypted: Office document that needs a password: contents not indexed")
	case o.has("WordDocument"):
		setFormat("doc")
		o.summary(d)
		return extractWord(o)
	case o.has("Workbook") || o.has("Book"):
		setFormat("xls")
		o.summary(d)
		return extractWorkbook(o, d)
	case o.has("PowerPoint Document"):
		setFormat("ppt")
		o.summary(d)
		return extractPowerPoint(o)
	}
	// Installer packages, Outlook messages, thumbnails: name and type only.
	if d.Format == "ole" {
		d.Format = "metadata"
	}
	return nil
}

// summary reads title, author and dates from the SummaryInformation
// property set. It is optional: a damaged set leaves the text untouched,
// and the library's panics on damaged sets (it slices without checking
// lengths) are contained here.
func (o *oleFile) summary(d *Document) {
	f := o.streams["SummaryInformation"]
	if f == nil || f.Initial != 0x0005 {
		return
	}
	data, err := o.stream("SummaryInformation")
	if err != nil || len(data) > olePropsMax {
		return
	}
	var props *msoleps.Reader
	if protect(func() error { props, err = msoleps.NewFrom(bytes.NewReader(data)); return err }) != nil {
		return
	}
	for _, p := range props.Property {
		var v string
		if protect(func() error { v = propString(p.T); return nil }) != nil {
			continue
		}
		switch p.Name {
		case "Title":
			d.Title = v
		case "Author":
			setMeta(d, "author", v)
		case "CreateTime":
			setMeta(d, "created", v)
		case "LastSaveTime":
			setMeta(d, "modified", v)
		}
	}
}

// propString renders a property as text; strings in the set's code page
// are decoded here.
func propString(t types.Type) string {
	switch v := t.(type) {
	case *types.CodeString:
		b, _, _ := bytes.Cut(v.Chars, []byte{0})
		return decodeCodePage(v.Encoding(), b)
	case types.UnicodeString:
		return strings.TrimRight(string(utf16.Decode(v)), "\x00")
	case types.FileTime:
		tm := v.Time()
		if tm.Year() < 1980 || tm.After(time.Now().AddDate(1, 0, 0)) {
			return "" // editing time, or no date
		}
		return tm.UTC().Format("2006-01-02 15:04:05")
	}
	return ""
}

// decodeCodePage decodes bytes in a Windows code page named as the
// library names them ("windows-1251 - ANSI Cyrillic", "utf-8 - ...").
func decodeCodePage(name string, b []byte) string {
	label, _, _ := strings.Cut(name, " ")
	if enc, err := htmlindex.Get(label); err == nil && label != "" {
		if out, err := enc.NewDecoder().Bytes(b); err == nil {
			return string(out)
		}
	}
	return decodeText(b, true)
}

// oleEncrypted is the warning of a password-protected Office 97-2003 file.
func oleEncrypted(kind string) error {
	return warnf("encrypted: %s that needs a password: contents not indexed", kind)
}
