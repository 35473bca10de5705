package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"trove/backend/core"
)

// Caps on hostile or merely huge inputs. They bound memory and time even
// when a file lies about its own sizes.
const (
	headLen        = 32 << 10  // bytes read up front for sniffing; small files are read whole
	maxNesting     = 512       // XML, JSON, YAML, RTF groups, MIME parts
	zipMaxEntries  = 20000     // entries in one archive or zip-based file
	zipMaxTotal    = 512 << 20 // uncompressed bytes read from one archive or zip-based file
	zipMaxRatio    = 200       // uncompressed/compressed, past the first zipRatioSlack bytes
	zipRatioSlack  = 1 << 20
	archiveTextMax = 1 << 20 // archive entries larger than this are listed only
	// Archives inside archives are listed, never opened (textName): the
	// nesting depth of archives is one.
	structMaxBytes = 4 << 20 // YAML and TOML larger than this are indexed as plain text
)

// source is one opened file as the extractors see it.
type source struct {
	ctx  context.Context
	name string // base name
	ext  string // lower-case extension with its dot
	r    io.ReaderAt
	size int64
	head []byte // the first headLen bytes; all of a small file
	opt  Options
	text *sink
	// textless lists the PDF pages (from 1) that gave no text: OCR reads them
	textless []int
	// pages marks where in text each page starts, for a paged format
	pages core.Pages
}

func (s *source) reader() io.Reader { return io.NewSectionReader(s.r, 0, s.size) }

// prefix reads the first n bytes of the file, all of it when smaller; cut
// says the file goes on. Every family that needs a file in memory reads it
// through here with its own cap, so none holds a whole file of any size
// (the rest stream through reader, or read a bounded head).
func (s *source) prefix(n int64) (data []byte, cut bool, err error) {
	if int64(len(s.head)) == s.size {
		return s.head, false, nil
	}
	want := min(n, s.size)
	buf := make([]byte, want)
	got, err := s.r.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return buf[:got], false, err
	}
	return buf[:got], want < s.size, nil
}

// sink collects extracted text and stops growing at the text limit, always
// on a UTF-8 boundary.
type sink struct {
	buf   []byte
	whole string // set instead of buf when the text came in one piece
	limit int
	cut   bool
}

func newSink(limit int) *sink { return &sink{limit: limit} }

func (t *sink) WriteString(s string) {
	if t.cut || s == "" {
		return
	}
	room := t.limit - len(t.buf)
	if len(s) > room {
		s = cutUTF8(s, room)
		t.cut = true
	}
	t.buf = append(t.buf, s...)
}

func (t *sink) Write(p []byte) (int, error) {
	if t.cut || len(p) == 0 {
		return len(p), nil
	}
	room := t.limit - len(t.buf)
	q := p
	if len(q) > room {
		q = q[:room]
		for len(q) > 0 && !utf8.RuneStart(p[len(q)]) {
			q = q[:len(q)-1]
		}
		t.cut = true
	}
	t.buf = append(t.buf, q...)
	return len(p), nil
}

// set stores a text that arrived whole, without copying it when it fits.
func (t *sink) set(s string) {
	t.buf, t.whole = t.buf[:0], ""
	if len(s) > t.limit {
		s, t.cut = cutUTF8(s, t.limit), true
	}
	t.whole = s
}

func (t *sink) full() bool { return t.cut }

func (t *sink) reset() { t.buf, t.whole, t.cut = t.buf[:0], "", false }

// since returns the text written after offset off, for titles taken from
// the body.
func (t *sink) since(off int) string {
	if off > len(t.buf) {
		return ""
	}
	return string(t.buf[off:])
}

func (t *sink) len() int { return len(t.buf) + len(t.whole) }

// last returns the last byte written, or 0.
func (t *sink) last() byte {
	if len(t.buf) == 0 {
		return 0
	}
	return t.buf[len(t.buf)-1]
}

// nl ends the current line unless the text is empty or already ends one.
func (t *sink) nl() {
	n := len(t.buf)
	for n > 0 && (t.buf[n-1] == ' ' || t.buf[n-1] == '\t') && !t.cut {
		n--
	}
	t.buf = t.buf[:n]
	if n > 0 && t.buf[n-1] != '\n' {
		t.WriteString("\n")
	}
}

// sp separates words unless a separator is already there.
func (t *sink) sp() {
	if n := len(t.buf); n > 0 && t.buf[n-1] != '\n' && t.buf[n-1] != ' ' && t.buf[n-1] != '\t' {
		t.WriteString(" ")
	}
}

func (t *sink) String() string {
	if t.whole != "" {
		return t.whole
	}
	return strings.TrimSpace(string(t.buf))
}

// cutUTF8 returns at most n bytes of s, never splitting a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// warning is a content problem phrased for a person.
type warning string

func (w warning) Error() string { return string(w) }

func warnf(format string, args ...any) error { return warning(fmt.Sprintf(format, args...)) }

// panicError is a parser panic caught by protect.
type panicError struct{ val any }

func (p *panicError) Error() string { return fmt.Sprint("parser panic: ", p.val) }

// protect runs a parser and turns a panic into an error, so one bad file can
// never take the process down.
func protect(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{val: r}
		}
	}()
	return fn()
}

func warningFor(format string, err error) string {
	var w warning
	var p *panicError
	switch {
	case errors.As(err, &w):
		return string(w)
	case errors.As(err, &p):
		return fmt.Sprintf("internal error reading this %s (%v): contents not indexed", label(format), p.val)
	}
	return fmt.Sprintf("corrupt %s (%v): contents not fully indexed", label(format), err)
}

func label(format string) string {
	switch format {
	case "text", "markdown", "metadata", "image", "audio", "video", "archive":
		return format + " file"
	case "mbox":
		return "mailbox"
	case "eml":
		return "email"
	}
	return strings.ToUpper(format)
}

// tick checks the context every 256 calls: cheap enough for inner loops.
type tick struct {
	ctx context.Context
	n   int
}

func (t *tick) err() error {
	t.n++
	if t.n&255 != 0 {
		return nil
	}
	return t.ctx.Err()
}
