// Package extract turns files into text and metadata: one file per format
// family, chosen by a few magic bytes and the extension, with a general
// sniffer only for binaries nobody claimed.
//
// Extract fails only when a file cannot be read at all. Everything wrong
// with the content (too big, encrypted, corrupt, a zip bomb, a parser
// panic, the time limit) yields a Document with a Warning for a person, and
// whatever text could be trusted. The limits in limits.go bound memory and
// time on hostile input: reads stop at the text limit, archives and
// compressed streams share a byte budget and a ratio cap, nesting is capped,
// and long loops check the context.
package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/platform/fileread"
)

// Options bound the work spent on one file. Zero fields take the defaults
// of DefaultOptions.
type Options struct {
	MaxFileSize  int64         // larger files are indexed by metadata only
	MaxTextBytes int           // extracted text is cut at this many bytes
	Timeout      time.Duration // per file, reads included
	// Root is the watched folder: no symbolic link between it and the file
	// is followed. "" means the file's own folder.
	Root string
	// Expect is the file as checked before (an os.Lstat result): another
	// file found at the path is refused. nil: Extract's own check.
	Expect fs.FileInfo
	// OCR reads text in images and scanned PDF pages with tesseract (ocr.go).
	OCR bool
	// Tesseract finds tesseract for OCR; nil: the process's probe (CheckOCR).
	Tesseract *OCRProbe
}

func (o Options) tesseract() *OCRProbe {
	if o.Tesseract != nil {
		return o.Tesseract
	}
	return tesseract
}

// Document is what extraction learned about a file.
type Document struct {
	Text    string            // UTF-8 plain text; "" when none
	Title   string            // the document's own title (metadata or first heading); "" if none
	Mime    string            // detected media type
	Format  string            // the family that produced it: "text", "markdown", "pdf", ..., "metadata"
	Meta    map[string]string // author, camera, artist, ... when cheap to read
	Warning string            // why content was not (fully) indexed; "" when all is well
	// OCRPending says OCR would read more of the file than was read: OCR
	// is off, or tesseract is missing. Turning it on reads such files again.
	OCRPending bool
	// Pages says where in Text each page starts, for a PDF; nil for a
	// format without pages.
	Pages core.Pages
}

// ErrNotRegular is returned (wrapped in an *fs.PathError) for FIFOs,
// sockets, devices and directories: they are never read.
var ErrNotRegular = fileread.ErrNotRegular

// DefaultOptions are the limits used for zero fields of Options.
func DefaultOptions() Options {
	return Options{MaxFileSize: 100 << 20, MaxTextBytes: 10 << 20, Timeout: 30 * time.Second}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = d.MaxFileSize
	}
	if o.MaxTextBytes <= 0 {
		o.MaxTextBytes = d.MaxTextBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	return o
}

// Extract reads the file at path. It returns an error only when the file
// cannot be read at all (it vanished, permission denied, I/O error, a read
// that hung past the time limit, not a regular file, a symbolic link);
// such errors wrap the fs errors, the fileread errors or ErrNotRegular.
// Problems with the content itself (too big, encrypted, corrupt, a parser
// panic, the time limit, ctx cancellation) give a metadata-only or partial
// Document whose Warning says why.
func Extract(ctx context.Context, path string, opt Options) (Document, error) {
	opt = opt.withDefaults()
	st, err := os.Lstat(path)
	if err != nil {
		return Document{}, err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return Document{}, &fs.PathError{Op: "extract", Path: path, Err: fileread.ErrLink}
	case !st.Mode().IsRegular():
		return Document{}, &fs.PathError{Op: "extract", Path: path, Err: ErrNotRegular}
	}
	want := opt.Expect
	if want == nil {
		want = st
	}
	if testHookAfterStat != nil {
		testHookAfterStat(path)
	}
	ctx, cancel := fileread.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	f, err := fileread.Open(ctx, opt.Root, path, want)
	if err != nil {
		return Document{}, err
	}
	defer f.Close()
	trap := &readTrap{r: f, ctx: ctx}
	doc := extractFrom(ctx, filepath.Base(path), trap, f.Size(), opt)
	if trap.err != nil {
		return Document{}, &fs.PathError{Op: "read", Path: path, Err: trap.err}
	}
	return doc, nil
}

// testHookAfterStat lets tests remove or replace the file between the
// checks and the open.
var testHookAfterStat func(path string)

// readTrap remembers the first real I/O error, so that a failing disk, or
// a read that hung past the time limit, is reported as an error rather
// than as a corrupt document. A read asked for once the time is up, or
// after cancellation, is the parser's lateness, not the disk's: the
// extractor stops and the Document says so.
type readTrap struct {
	r   io.ReaderAt
	ctx context.Context // nil: every error counts
	err error
}

func (t *readTrap) ReadAt(p []byte, off int64) (int, error) {
	late := t.ctx != nil && t.ctx.Err() != nil
	n, err := t.r.ReadAt(p, off)
	if err != nil && err != io.EOF && t.err == nil && !late && !errors.Is(err, context.Canceled) {
		t.err = err
	}
	return n, err
}

// extractFrom runs detection and the family's extractor under the limits.
func extractFrom(ctx context.Context, name string, r io.ReaderAt, size int64, opt Options) Document {
	s := &source{ctx: ctx, name: name, r: r, size: size, opt: opt.withDefaults()}
	s.ext = strings.ToLower(filepath.Ext(name))
	if size == 0 {
		return Document{Format: "metadata", Mime: "application/x-empty"}
	}
	s.head = readHead(r, size)
	fam := detect(s)
	if size > s.opt.MaxFileSize {
		return Document{Format: fam.name, Mime: fam.mime,
			Warning: fmt.Sprintf("larger than %s: indexed by name only", humanSize(s.opt.MaxFileSize))}
	}
	if ctx.Err() != nil {
		return Document{Format: fam.name, Mime: fam.mime, Warning: ctxWarning(s)}
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	s.ctx = ctx
	return runFamily(s, fam)
}

// runFamily runs one extractor with panics recovered and the text capped.
func runFamily(s *source, fam family) Document {
	doc := Document{Format: fam.name, Mime: fam.mime}
	if fam.run == nil {
		return doc
	}
	s.text = newSink(s.opt.MaxTextBytes)
	err := protect(func() error { return fam.run(s, &doc) })
	finish(s, &doc, fam, err)
	switch {
	case !ocrApplies(s, &doc):
	case !s.opt.OCR:
		doc.OCRPending = true
	default:
		if err := protect(func() error { runOCR(s, &doc); return nil }); err != nil {
			doc.Warning = warningFor(doc.Format, err)
		}
	}
	return doc
}

// finish turns the extractor's outcome into the Document's text and warning.
func finish(s *source, doc *Document, fam family, err error) {
	if doc.Format == "" {
		doc.Format = fam.name
	}
	// Every parser means to emit UTF-8; this makes it a promise.
	doc.Text, doc.Pages = validText(s.text.String(), s.pages)
	doc.Title = cleanTitle(doc.Title)
	switch {
	case err != nil && s.ctx.Err() != nil:
		doc.Warning = ctxWarning(s)
	case err != nil:
		doc.Warning = warningFor(doc.Format, err)
	case s.text.cut:
		doc.Warning = fmt.Sprintf("text truncated at %s", humanSize(int64(s.opt.MaxTextBytes)))
	}
}

// validText is text made valid UTF-8, with its pages: those cut off with
// the text are gone, and where invalid bytes are replaced the pages after
// them move with the text.
func validText(text string, pages core.Pages) (string, core.Pages) {
	for len(pages) > 0 && pages[len(pages)-1].At >= len(text) {
		pages = pages[:len(pages)-1]
	}
	if utf8.ValidString(text) {
		return text, pages
	}
	if len(pages) == 0 {
		return strings.ToValidUTF8(text, "\uFFFD"), nil
	}
	var b strings.Builder
	var moved core.Pages
	b.WriteString(strings.ToValidUTF8(text[:pages[0].At], "\uFFFD"))
	for i, p := range pages {
		end := len(text)
		if i+1 < len(pages) {
			end = pages[i+1].At
		}
		moved = moved.Add(b.Len(), p.Page)
		b.WriteString(strings.ToValidUTF8(text[p.At:end], "\uFFFD"))
	}
	return b.String(), moved
}

func ctxWarning(s *source) string {
	if errors.Is(s.ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("took longer than %s: contents not fully indexed", s.opt.Timeout)
	}
	return "extraction cancelled: contents not fully indexed"
}

// readHead reads the start of the file once; small files are read whole, so
// plain text needs no second read.
func readHead(r io.ReaderAt, size int64) []byte {
	n := min(size, headLen)
	buf := make([]byte, n)
	got, _ := r.ReadAt(buf, 0)
	return buf[:got]
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
