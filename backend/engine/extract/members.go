package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// The member loop is the one place where an archive's entries (zip, tar,
// 7z, RAR) are listed and read: every name is written, and the text of
// small entries that look like text is indexed. The limits on entry count,
// expansion ratio, total bytes and nesting (archives inside are listed,
// never opened: textName) are applied here for every archive format.

// member is one entry of an archive as the member loop sees it.
type member struct {
	name      string
	size      int64 // uncompressed size the archive declares; -1: unknown
	packed    int64 // compressed size; -1: unknown (a solid stream holds many entries)
	dir       bool
	encrypted bool
	open      func() (io.ReadCloser, error) // reads the entry; called at most once
}

// errMemberEncrypted is returned by a member's open or read when the
// archive only finds out then that the entry needs a password.
var errMemberEncrypted = errors.New("member encrypted")

// expansion is the budget of uncompressed bytes one file may read from its
// compressed parts, shared by all of them, so that a bomb is stopped after
// a bounded amount of work.
type expansion struct {
	ctx  context.Context
	left int64
	bomb bool // an entry was cut off by the caps
}

func newExpansion(ctx context.Context) expansion {
	return expansion{ctx: ctx, left: zipMaxTotal}
}

// guard returns a reader of one entry that fails once the entry passes
// limit bytes or the file's budget runs out.
func (e *expansion) guard(rc io.ReadCloser, name string, limit int64) io.ReadCloser {
	return &guarded{rc: rc, e: e, name: name, left: limit}
}

type guarded struct {
	rc   io.ReadCloser
	e    *expansion
	name string
	left int64
}

func (g *guarded) Read(p []byte) (int, error) {
	if err := g.e.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := g.rc.Read(p)
	g.left -= int64(n)
	g.e.left -= int64(n)
	if g.left < 0 || g.e.left < 0 {
		g.e.bomb = true
		return n, bombWarning(g.name)
	}
	return n, err
}

func (g *guarded) Close() error { return g.rc.Close() }

func bombWarning(name string) error {
	return warnf("%q expands more than %d times (a zip bomb?): not read", name, zipMaxRatio)
}

// ratioBomb tells whether an entry declares more expansion than allowed.
func ratioBomb(size, packed int64) bool {
	return packed >= 0 && size > zipRatioSlack && size/max(packed, 1) > zipMaxRatio
}

// memberLoop walks an archive's entries in their order.
type memberLoop struct {
	s         *source
	exp       *expansion
	count     int
	declared  int64 // bytes a solid stream must decompress to reach the next entry
	encrypted int
	stopped   error // a cap was reached: names are still listed, contents no longer read
	firstErr  error
}

func newMemberLoop(s *source, exp *expansion) *memberLoop {
	return &memberLoop{s: s, exp: exp}
}

// add lists one entry and indexes its text; false means stop walking.
func (l *memberLoop) add(m member) bool {
	if l.s.text.full() {
		return false
	}
	if l.count++; l.count > zipMaxEntries {
		l.note(warnf("archive has more than %d entries: the rest is not indexed", zipMaxEntries))
		return false
	}
	l.s.text.nl()
	l.s.text.WriteString(m.name)
	l.s.text.WriteString("\n")
	if m.packed < 0 && m.size > 0 {
		l.declared += m.size
	}
	if err := l.read(m); err != nil {
		if errors.Is(err, errMemberEncrypted) {
			l.encrypted++
		} else {
			l.note(err)
		}
	}
	return l.s.ctx.Err() == nil
}

func (l *memberLoop) note(err error) {
	if l.firstErr == nil {
		l.firstErr = err
	}
}

// read indexes an entry that is small and looks like text.
func (l *memberLoop) read(m member) error {
	switch {
	case m.dir:
		return nil
	case m.encrypted:
		return errMemberEncrypted
	case ratioBomb(m.size, m.packed):
		l.exp.bomb = true
		return bombWarning(m.name)
	case m.size > archiveTextMax || !textName(m.name) || m.open == nil:
		return nil
	case l.stopped != nil:
		return l.stopped
	case l.declared > l.s.size*zipMaxRatio+zipRatioSlack:
		// Reaching this entry means decompressing all before it.
		l.stopped = warnf("archive expands more than %d times (a compression bomb?): the rest is listed only", zipMaxRatio)
		return l.stopped
	}
	rc, err := m.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	limit := int64(archiveTextMax) + 1
	if m.packed >= 0 {
		limit = min(m.packed, 1<<40)*zipMaxRatio + zipRatioSlack
	}
	data, err := io.ReadAll(io.LimitReader(l.exp.guard(rc, m.name, limit), archiveTextMax))
	if err != nil {
		return err
	}
	if !isBinary(data) {
		l.s.text.WriteString(decodeText(data, true))
	}
	return nil
}

// finish records the entry count and says what was left unread.
func (l *memberLoop) finish(d *Document) error {
	setMeta(d, "entries", fmt.Sprint(min(l.count, zipMaxEntries)))
	if l.encrypted > 0 && l.firstErr == nil {
		return warnf("encrypted: %d archive entries need a password: their names are listed, their contents not indexed", l.encrypted)
	}
	return l.firstErr
}

// ctxReaderAt fails reads once the context is done, so that decoders that
// never look at the context stop at the time limit.
type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
