// Package fileread opens and reads the files of watched folders. It is the
// only way Trove reads a watched file, because every open is a race with
// the disk and every read may hang:
//
//   - Opening never blocks and never follows a link: O_NONBLOCK (a FIFO
//     swapped in after the type check opens at once instead of waiting for
//     a writer), no symbolic link anywhere below the watched folder
//     (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS on Linux, else a walk
//     with O_NOFOLLOW per component), then fstat on the descriptor: only a
//     regular file, and only the file that was checked (same device and
//     inode), is read.
//   - A file is the bytes its size says: reads stop at the size fstat gave
//     at open, so a file that grows, or a pseudo-file of size 0 such as
//     /proc/kmsg, is never read past it.
//   - Each open file has one goroutine that owns its descriptor and makes
//     the system calls. The caller waits for it under its context: when the
//     deadline passes or the work is cancelled, the caller gives up at once
//     and the goroutine closes the descriptor whenever the kernel lets go
//     (a hung NFS or FUSE mount may never). Such goroutines are bounded in
//     number, so stuck reads cannot pile up without end.
package fileread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"trove/backend/core"
)

var (
	// ErrNotRegular marks FIFOs, sockets, devices and directories: never read.
	ErrNotRegular = errors.New("not a regular file")
	// ErrLink marks a path that is, or goes through, a symbolic link below
	// the folder it must stay in.
	ErrLink = errors.New("reached through a symbolic link")
	// ErrChanged marks a path that names another file than the one checked.
	ErrChanged = errors.New("replaced while being opened")
	// ErrOutside marks a path that is not below the folder it must stay in.
	ErrOutside = errors.New("outside its folder")
)

// TimeoutError is a read (or open) that was still waiting when its deadline
// passed; it was abandoned.
type TimeoutError struct {
	After time.Duration // the time limit, when known (see WithTimeout)
}

func (e *TimeoutError) Error() string {
	if e.After > 0 {
		return fmt.Sprintf("read timed out after %s", e.After)
	}
	return "read timed out"
}

// Timeout reports true, as net.Error does.
func (e *TimeoutError) Timeout() bool { return true }

type limitKey struct{}

// WithTimeout bounds every read made under the returned context by
// one deadline, d from now, and remembers d so that a read cut short says
// how long it was given.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, d)
	return context.WithValue(ctx, limitKey{}, d), cancel
}

// MaxStuck bounds the goroutines that own a descriptor (one per open file,
// plus those left behind by abandoned reads). When that many are stuck in
// the kernel, the next open waits for one to come back, within its own
// deadline.
const MaxStuck = 256

var owners = semaphore.NewWeighted(MaxStuck)

// chunk is the most one system call reads; larger reads are split, so the
// owner's buffer stays small.
const chunk = 256 << 10

// File is a regular file opened for reading. ReadAt is safe for concurrent
// use (calls are served one at a time).
type File struct {
	path string
	ctx  context.Context
	info fs.FileInfo

	mu      sync.Mutex // one read at a time
	reqs    chan request
	replies chan result
	err     error // sticky: the file was abandoned or closed
}

type request struct {
	off int64
	n   int
	dup bool // a copy of the descriptor, not a read
}

type result struct {
	buf []byte
	dup *os.File
	err error
}

// Open opens the regular file at path for reading, under ctx for every
// later read. root is the folder path must stay below ("" means path's own
// folder): no symbolic link between root and the file is followed. want,
// when not nil, is the file as checked before (an os.Lstat result); a
// different file at path now is refused with ErrChanged.
//
// The open itself runs on the caller's thread (so it has the caller's
// credentials); it cannot wait for a FIFO's writer, only for a mount that
// does not answer, and a path lookup there would have hung before it.
// An ended ctx does not stop the open; the reads then fail at once.
func Open(ctx context.Context, root, path string, want fs.FileInfo) (*File, error) {
	fd, info, err := openChecked(root, path)
	if err != nil {
		return nil, err
	}
	if err := check(path, info, want); err != nil {
		fd.Close()
		return nil, err
	}
	if !owners.TryAcquire(1) && owners.Acquire(ctx, 1) != nil {
		fd.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: ctxError(ctx, ctx.Err())}
	}
	f := &File{path: path, ctx: ctx, info: info, reqs: make(chan request), replies: make(chan result, 1)}
	go f.own(fd)
	return f, nil
}

// check refuses what is not a regular file, or not the file that was checked.
func check(path string, got, want fs.FileInfo) error {
	if !got.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(got.Mode()))}
	}
	if want != nil && !os.SameFile(got, want) {
		return &fs.PathError{Op: "open", Path: path, Err: ErrChanged}
	}
	return nil
}

// own serves reads until the requests end. It alone touches the
// descriptor, so it may stay in the kernel as long as the kernel likes
// without holding anyone else.
func (f *File) own(fd *os.File) {
	defer owners.Release(1)
	defer fd.Close()
	var buf []byte
	for r := range f.reqs {
		if r.dup {
			d, err := dupFile(fd)
			f.replies <- result{dup: d, err: err}
			continue
		}
		if cap(buf) < r.n {
			buf = make([]byte, r.n)
		}
		n, err := readSafe(fd, buf[:r.n], r.off)
		f.replies <- result{buf: buf[:n], err: err}
	}
}

func openChecked(root, path string) (fd *os.File, info fs.FileInfo, err error) {
	defer core.Recover(&err)
	if fd, err = openBelow(root, path); err != nil {
		return nil, nil, err
	}
	if info, err = fd.Stat(); err != nil {
		fd.Close()
		return nil, nil, err
	}
	return fd, info, nil
}

func readSafe(fd *os.File, p []byte, off int64) (n int, err error) {
	defer core.Recover(&err)
	return fd.ReadAt(p, off)
}

// Stat is the file as fstat saw it when it was opened.
func (f *File) Stat() fs.FileInfo { return f.info }

// Size is the file's size at open: reads stop there.
func (f *File) Size() int64 { return f.info.Size() }

// Reader reads the file from the start.
func (f *File) Reader() io.Reader { return io.NewSectionReader(f, 0, f.Size()) }

// ReadAt reads within the size the file had at open, under the context
// given to Open. When the deadline passes, before or during a read, the
// read is abandoned and a *TimeoutError returned; when the context is
// cancelled, its error.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.path, Err: errors.New("negative offset")}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return 0, f.err
	}
	size := f.Size()
	if off >= size {
		return 0, io.EOF
	}
	var tail error
	if rest := size - off; int64(len(p)) > rest {
		p, tail = p[:rest], io.EOF
	}
	done := 0
	for done < len(p) {
		if err := f.ctx.Err(); err != nil {
			return done, ctxError(f.ctx, err)
		}
		want := min(len(p)-done, chunk)
		res, err := f.call(request{off: off + int64(done), n: want})
		n := copy(p[done:], res.buf)
		done += n
		if err == nil && n < want {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return done, err
		}
	}
	return done, tail
}

// Dup returns a descriptor of its own on the same open file, for a tool
// that must seek in the file itself (a video's index may sit at its end)
// yet must not open its path, which another file may have taken since.
// The caller closes it; reads through it are not bounded by the context.
func (f *File) Dup() (*os.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	res, err := f.call(request{dup: true})
	return res.dup, err
}

// call hands one request to the owner and waits for its reply, or gives
// up when the context ends (a descriptor copied meanwhile is then closed
// by its finalizer).
func (f *File) call(r request) (result, error) {
	select {
	case f.reqs <- r:
	case <-f.ctx.Done():
		f.abandon()
		return result{}, f.err
	}
	select {
	case res := <-f.replies:
		return res, res.err
	case <-f.ctx.Done():
		f.abandon()
		return result{}, f.err
	}
}

// abandon stops waiting for the owner; it closes the descriptor once its
// system call returns. Call with f.mu held.
func (f *File) abandon() {
	if f.err != nil {
		return
	}
	f.err = ctxError(f.ctx, f.ctx.Err())
	close(f.reqs)
}

// Close releases the file. The descriptor is closed by its owner, at once
// unless a read is stuck in the kernel.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = &fs.PathError{Op: "read", Path: f.path, Err: fs.ErrClosed}
		close(f.reqs)
	}
	return nil
}

// ctxError turns a context's end into the error a read reports: a
// *TimeoutError for a deadline, the cancellation otherwise.
func ctxError(ctx context.Context, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		d, _ := ctx.Value(limitKey{}).(time.Duration)
		return &TimeoutError{After: d}
	}
	return err
}

// Kind names a file's type for people ("named pipe", "socket", ...).
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return m.Type().String()
}

// below splits path into its place under root, refusing what is not below.
func below(root, path string) (string, error) {
	if root == "" {
		root = filepath.Dir(path)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &fs.PathError{Op: "open", Path: path, Err: ErrOutside}
	}
	return rel, nil
}
