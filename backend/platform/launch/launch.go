// Package launch opens files the way the desktop does: with the default
// application, or by showing them in the file manager.
package launch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Desktop opens files through the desktop's own tools. Opener replaces
// the system's opener (xdg-open, open, or the Windows shell; both for
// opening and as the fallback for revealing); empty means $TROVE_OPENER,
// else the system's.
type Desktop struct {
	Opener string
	// Settle is how long an opener is given to fail (3 s when zero). One
	// still running then has started the application and is left to it:
	// xdg-open without a desktop environment runs the application itself
	// and exits only when it does.
	Settle time.Duration
}

// Kinds of failure, for errors.Is.
var (
	// ErrNoApplication: the opener found nothing to open the file with.
	ErrNoApplication = errors.New("no application for the file")
	// ErrNoOpener: the opener is not installed.
	ErrNoOpener = errors.New("no opener")
)

func (d Desktop) opener() string {
	switch {
	case d.Opener != "":
		return d.Opener
	case os.Getenv("TROVE_OPENER") != "":
		return os.Getenv("TROVE_OPENER")
	}
	return defaultOpener // per OS: opener_*.go
}

// revealWait is how long a file manager is given to answer a reveal.
const revealWait = 5 * time.Second

// runBounded runs a command to its end, for revealWait at most (the
// revealNative of each system).
func runBounded(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), revealWait)
	defer cancel()
	return exec.CommandContext(ctx, name, args...).Run()
}

func (d Desktop) settle() time.Duration {
	if d.Settle > 0 {
		return d.Settle
	}
	return 3 * time.Second
}

// Open opens path with its default application. An opener that fails
// (xdg-open exits 3 when no application is set for the type) is an error
// that says so in its own words.
func (d Desktop) Open(path string) error {
	err := d.run(path)
	var exit *exitError
	if errors.As(err, &exit) && exit.code == 3 {
		// xdg-open's "a required tool could not be found": nothing is set
		// to open this type.
		return &failure{fmt.Sprintf("No application is set to open %s (%v)", typeOf(path), err), ErrNoApplication}
	}
	return err
}

// failure is an error with a message for people and a kind for programs.
type failure struct {
	msg  string
	kind error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.kind }

// typeOf names a file's type for messages: ".xyz files".
func typeOf(path string) string {
	if ext := filepath.Ext(path); ext != "" && ext != path {
		return strings.ToLower(ext) + " files"
	}
	return "files of this type"
}

// Reveal shows path selected in the file manager (revealNative, per OS),
// or opens its folder when no file manager answers.
func (d Desktop) Reveal(path string) error {
	if d.Opener == "" && os.Getenv("TROVE_OPENER") == "" && revealNative(path) == nil {
		return nil
	}
	err := d.run(filepath.Dir(path))
	if err == nil || errors.Is(err, ErrNoOpener) {
		return err
	}
	return fmt.Errorf("no file manager answered, and opening the folder failed: %w", err)
}

// exitError is an opener that exited with a failure, with what it said.
type exitError struct {
	tool string
	code int
	said string
}

func (e *exitError) Error() string {
	if e.said == "" {
		return fmt.Sprintf("%s exited %d", e.tool, e.code)
	}
	return fmt.Sprintf("%s exited %d: %s", e.tool, e.code, e.said)
}

// run starts the opener on arg and waits up to the settle time for it to
// fail; one still running then is reaped in the background.
func (d Desktop) run(arg string) error {
	fields := strings.Fields(d.opener())
	if len(fields) == 0 {
		return &failure{"Cannot open files here: no opener is configured", ErrNoOpener}
	}
	tool := filepath.Base(fields[0])
	cmd := exec.Command(fields[0], append(fields[1:], arg)...)
	var said limitedBuffer
	cmd.Stderr = &said
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return &failure{fmt.Sprintf("Cannot open files here: %s is not installed (it comes with xdg-utils)", tool), ErrNoOpener}
		}
		return fmt.Errorf("cannot run %s: %v", tool, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // also reaps one that outlives the settle time
	timer := time.NewTimer(d.settle())
	defer timer.Stop()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return &exitError{tool: tool, code: exit.ExitCode(), said: said.lastLine(tool)}
		}
		return err
	case <-timer.C:
		return nil // the application is running
	}
}

// limitedBuffer keeps the first 4 KiB an opener writes.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := 4096 - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// lastLine is the last line the opener wrote, without its "tool: " prefix.
func (b *limitedBuffer) lastLine(tool string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(b.buf.String()), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	last = strings.TrimPrefix(last, tool+": ")
	if len(last) > 300 {
		last = last[:300] + "..."
	}
	return last
}
