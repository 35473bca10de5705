package extract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Some formats are read by Debian's programs (djvutxt, chmlib's tools),
// run like tesseract for OCR: no shell, the file's context as deadline, a
// temporary folder removed afterwards, and a warning naming the package
// when the program is not installed.

// toolMissing is the warning of a file a missing program would read.
func toolMissing(what, tool, pkg string) error {
	return warnf("%s not indexed: %s (Debian's %s) is not installed", what, tool, pkg)
}

// inTempCopy copies the file into a fresh temporary folder as name and
// calls fn with the folder and the copy's path.
func inTempCopy(s *source, name string, fn func(dir, path string) error) error {
	dir, err := os.MkdirTemp("", "trove-extract")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, io.NewSectionReader(ctxReaderAt{s.ctx, s.r}, 0, s.size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return fn(dir, p)
}

// runCapped runs a program and returns at most limit bytes of what it
// writes; cut says there was more.
func runCapped(ctx context.Context, limit int, name string, args ...string) (out []byte, cut bool, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	w := &cappedWriter{limit: limit}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &capped{&stderr}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return w.buf, w.cut, ctx.Err()
		}
		return w.buf, w.cut, fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return w.buf, w.cut, nil
}

type cappedWriter struct {
	buf   []byte
	limit int
	cut   bool
}

// Write takes everything, so that the program is never blocked or failed
// by the cap.
func (w *cappedWriter) Write(p []byte) (int, error) {
	n := len(p)
	if room := w.limit - len(w.buf); n > room {
		p, w.cut = p[:max(room, 0)], true
	}
	w.buf = append(w.buf, p...)
	return n, nil
}

// capped keeps the first 4 KB of a program's error output.
type capped struct{ b *bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := 4096 - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
