// Package watch reports file-system changes below watched folders, using
// inotify through fsnotify with one watch per directory (fsnotify does not
// watch recursively on Linux; the owner adds each folder as it scans).
package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/fsnotify/fsnotify"

	"trove/backend/core"
	"trove/backend/engine/text/pathglob"
)

// Op is what happened to a path.
type Op uint8

// Ops. A rename inside watched folders arrives as Rename of the old path
// followed by Create of the new one carrying From.
const (
	Create Op = 1 << iota
	Write
	Remove
	Rename
	Chmod
)

// Event is one change.
type Event struct {
	Path string
	Op   Op
	From string // for a Create that completes a rename: the old path
}

// ErrLimit means the kernel's inotify watch limit is reached.
var ErrLimit = errors.New("inotify watch limit reached (fs.inotify.max_user_watches)")

// Watcher owns one inotify instance.
type Watcher struct {
	fsw *fsnotify.Watcher
	log *slog.Logger
	max int // watches allowed; 0 for the kernel's limit only

	mu      sync.Mutex
	dirs    map[string]struct{}
	exclude []string // trees never watched, whose events are dropped

	// Changes to the inotify watches run in order on one goroutine of
	// their own (see control): fsnotify's Remove waits for its reader,
	// which waits for Run to take its next event, so Run (which removes
	// the watches of folders renamed away) must never call it itself.
	ctlMu   sync.Mutex
	ctl     []func()
	ctlKick chan struct{}
	closed  chan struct{}
	// stopped is closed when control has returned.
	stopped   chan struct{}
	closeOnce sync.Once
}

// New starts an inotify instance. maxWatches, when positive, caps the
// directories watched below the kernel's own limit; beyond it Add fails
// with ErrLimit as it does at the kernel's.
func New(log *slog.Logger, maxWatches int) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("start file watcher: %w", err)
	}
	w := &Watcher{fsw: fsw, log: log, max: maxWatches, dirs: map[string]struct{}{},
		ctlKick: make(chan struct{}, 1), closed: make(chan struct{}), stopped: make(chan struct{})}
	go w.control()
	return w, nil
}

// Close stops the watcher: its inotify instance and its control
// goroutine, which it waits for. Run closes it as it ends; the owner of a
// watcher whose Run never ran (Trove stopped while starting) closes it
// itself. Closing twice is fine.
func (w *Watcher) Close() {
	w.closeOnce.Do(func() {
		close(w.closed)
		w.fsw.Close()
	})
	<-w.stopped
}

// control applies the queued watch changes, in the order they were asked
// for, until the watcher is closed.
func (w *Watcher) control() {
	defer close(w.stopped)
	for {
		select {
		case <-w.closed:
			return
		case <-w.ctlKick:
		}
		w.ctlMu.Lock()
		ops := w.ctl
		w.ctl = nil
		w.ctlMu.Unlock()
		for _, op := range ops {
			if err := core.Safe(op); err != nil {
				w.log.Error("panic while changing file watches", "err", err)
			}
		}
	}
}

// later queues a watch change for the control goroutine.
func (w *Watcher) later(op func()) {
	w.ctlMu.Lock()
	w.ctl = append(w.ctl, op)
	w.ctlMu.Unlock()
	select {
	case w.ctlKick <- struct{}{}:
	default:
	}
}

// Exclude names trees that are never watched and whose events are never
// delivered, whatever the caller adds: Trove's own data and config folders,
// whose index changes with every write Trove makes.
func (w *Watcher) Exclude(dirs ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.exclude = append(w.exclude, dirs...)
}

// excluded reports whether path is in, or is, an excluded tree.
func (w *Watcher) excluded(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.exclude {
		if pathglob.Within(d, path) {
			return true
		}
	}
	return false
}

// Add watches one directory (not its subdirectories). Adding a directory
// twice is harmless; adding an excluded one does nothing. The watch limit
// gives an error wrapping ErrLimit.
func (w *Watcher) Add(dir string) error {
	if w.excluded(dir) {
		return nil
	}
	w.mu.Lock()
	_, ok := w.dirs[dir]
	full := w.max > 0 && len(w.dirs) >= w.max
	w.mu.Unlock()
	if ok {
		return nil
	}
	if full {
		return fmt.Errorf("watch %s: %w", dir, ErrLimit)
	}
	done := make(chan error, 1)
	w.later(func() { done <- w.fsw.Add(dir) })
	var err error
	select {
	case err = <-done:
	case <-w.closed:
		err = fsnotify.ErrClosed
	}
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return fmt.Errorf("watch %s: %w", dir, ErrLimit)
		}
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w.mu.Lock()
	w.dirs[dir] = struct{}{}
	w.mu.Unlock()
	return nil
}

// RemoveTree stops watching dir and every watched directory below it.
func (w *Watcher) RemoveTree(dir string) {
	w.mu.Lock()
	var gone []string
	for d := range w.dirs {
		if d == dir || strings.HasPrefix(d, dir+"/") || dir == "/" {
			gone = append(gone, d)
			delete(w.dirs, d)
		}
	}
	w.mu.Unlock()
	if len(gone) == 0 {
		return
	}
	w.later(func() {
		for _, d := range gone {
			// The directory may already be gone, and its watch with it.
			_ = w.fsw.Remove(d)
		}
	})
}

// Count is the number of watched directories.
func (w *Watcher) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.dirs)
}

// Run delivers events to handle until ctx ends. overflow is called when the
// kernel dropped events, so the owner can rescan instead of trusting the
// stream. handle must not block for long.
func (w *Watcher) Run(ctx context.Context, handle func(Event), overflow func()) error {
	defer w.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return nil
			}
			w.forgetRemoved(ev)
			if w.excluded(ev.Name) {
				continue
			}
			from := renamedFrom(ev)
			if w.excluded(from) {
				from = "" // moved out of an excluded tree: a plain arrival
			}
			handle(Event{Path: ev.Name, Op: convert(ev.Op), From: from})
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("file watcher overflowed; rescanning watched folders")
				overflow()
				continue
			}
			w.log.Warn("file watcher error", "err", err)
		}
	}
}

// forgetRemoved drops the bookkeeping of a directory that was removed or
// renamed away: inotify drops the watch of a deleted directory itself, and
// a renamed one must be watched again under its new name.
func (w *Watcher) forgetRemoved(ev fsnotify.Event) {
	if !ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		return
	}
	w.mu.Lock()
	_, watched := w.dirs[ev.Name]
	w.mu.Unlock()
	if watched {
		w.RemoveTree(ev.Name)
	}
}

func convert(op fsnotify.Op) Op {
	var o Op
	for _, m := range []struct {
		from fsnotify.Op
		to   Op
	}{{fsnotify.Create, Create}, {fsnotify.Write, Write}, {fsnotify.Remove, Remove}, {fsnotify.Rename, Rename}, {fsnotify.Chmod, Chmod}} {
		if op.Has(m.from) {
			o |= m.to
		}
	}
	return o
}

// renamedFrom recovers the old name of a Create that completes a rename.
// fsnotify pairs the inotify MOVED_FROM/MOVED_TO cookies itself but keeps
// the old name in an unexported field that only its String method shows,
// in the exact format `%-13s %q ← %q`; rebuilding that prefix from the
// event's own fields makes the parse unambiguous.
func renamedFrom(ev fsnotify.Event) string {
	if !ev.Has(fsnotify.Create) {
		return ""
	}
	prefix := fmt.Sprintf("%-13s %q ← ", ev.Op.String(), ev.Name)
	rest, ok := strings.CutPrefix(ev.String(), prefix)
	if !ok {
		return ""
	}
	from, err := strconv.Unquote(rest)
	if err != nil {
		return ""
	}
	return from
}
