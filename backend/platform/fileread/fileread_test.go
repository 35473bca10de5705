package fileread

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"trove/internal/poll"

	"golang.org/x/sync/semaphore"

	"trove/internal/hangfs"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, f *File) string {
	t.Helper()
	b, err := io.ReadAll(f.Reader())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bothWays runs a test with openat2 (where the kernel has it) and with the
// component-by-component walk that replaces it elsewhere.
func bothWays(t *testing.T, fn func(t *testing.T)) {
	t.Run("openat2", func(t *testing.T) { fn(t) })
	t.Run("walk", func(t *testing.T) {
		was := noOpenat2.Load()
		noOpenat2.Store(true)
		defer noOpenat2.Store(was)
		fn(t)
	})
}

func TestReadsTheFileUpToItsSizeAtOpen(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b.txt")
	write(t, path, "hello world")
	f, err := Open(context.Background(), root, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// It grows after the open: the reader still sees the size it opened.
	if err := os.WriteFile(path, []byte("hello world, and much more"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, f); got != "hello world" {
		t.Fatalf("read %q", got)
	}
	buf := make([]byte, 5)
	if n, err := f.ReadAt(buf, 6); n != 5 || err != nil || string(buf) != "world" {
		t.Fatalf("ReadAt: %d %v %q", n, err, buf)
	}
	if n, err := f.ReadAt(buf, 8); n != 3 || err != io.EOF {
		t.Fatalf("ReadAt past the end: %d %v", n, err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), (3*chunk)/16+5) // several owner calls
	write(t, path, string(big))
	g, err := Open(context.Background(), root, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := readAll(t, g); got != string(big) {
		t.Fatalf("large read differs (%d bytes, want %d)", len(got), len(big))
	}
}

func TestRefusesFIFOWithoutBlocking(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Open(context.Background(), root, path, nil); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !bytes.Contains([]byte(err.Error()), []byte("named pipe")) {
			t.Fatalf("want a not-regular error naming the pipe, got %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("open of a FIFO blocked")
	}
}

func TestRefusesLinksBelowTheRoot(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		outside := t.TempDir()
		write(t, filepath.Join(outside, "secret"), "top secret")
		root := t.TempDir()
		write(t, filepath.Join(root, "ok", "plain.txt"), "plain")
		if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "last")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, "mid")); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "deep", "er"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, "deep", "er", "link")); err != nil {
			t.Fatal(err)
		}
		for _, rel := range []string{"last", "mid/secret", "deep/er/link/secret"} {
			f, err := Open(context.Background(), root, filepath.Join(root, rel), nil)
			if !errors.Is(err, ErrLink) {
				if f != nil {
					t.Errorf("%s: read %q through a link", rel, readAll(t, f))
				}
				t.Errorf("%s: want ErrLink, got %v", rel, err)
			}
		}
		if _, err := Open(context.Background(), root, filepath.Join(outside, "secret"), nil); !errors.Is(err, ErrOutside) {
			t.Errorf("outside the root: %v", err)
		}
		f, err := Open(context.Background(), root, filepath.Join(root, "ok", "plain.txt"), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if got := readAll(t, f); got != "plain" {
			t.Fatalf("read %q", got)
		}
		// A root reached through a link is the user's choice, and works.
		linked := filepath.Join(t.TempDir(), "root-link")
		if err := os.Symlink(root, linked); err != nil {
			t.Fatal(err)
		}
		g, err := Open(context.Background(), linked, filepath.Join(linked, "ok", "plain.txt"), nil)
		if err != nil {
			t.Fatalf("root through a link: %v", err)
		}
		g.Close()
	})
}

func TestRefusesAnotherFileThanTheOneChecked(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "doc.txt")
	write(t, path, "first")
	checked, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path+".new", "second")
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), root, path, checked); !errors.Is(err, ErrChanged) {
		t.Fatalf("want ErrChanged, got %v", err)
	}
	now, _ := os.Lstat(path)
	f, err := Open(context.Background(), root, path, now)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestZeroSizedProcFileIsNotRead(t *testing.T) {
	fd, err := os.Open("/proc/kmsg")
	if err != nil {
		t.Skipf("/proc/kmsg is not readable here (%v): needs root on Linux", err)
	}
	fd.Close()
	f, err := Open(context.Background(), "/proc", "/proc/kmsg", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() { _, err := io.ReadAll(f.Reader()); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading /proc/kmsg blocked")
	}
}

func TestHungReadIsAbandonedAtTheDeadline(t *testing.T) {
	h := hangfs.Mount(t)
	file := h.AddHanging("dead.bin", 1<<20)
	path := filepath.Join(h.Dir, "dead.bin")
	ctx, cancel := WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	f, err := Open(ctx, h.Dir, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	_, err = f.ReadAt(make([]byte, 4096), 0)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Error() != "read timed out after 300ms" {
		t.Fatalf("want a timeout naming its limit, got %v", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("the read held its caller %s", waited)
	}
	select {
	case <-file.Reads():
	default:
		t.Fatal("the read never reached the file system: the test proves nothing")
	}
	// The file stays unusable; the descriptor goes when the kernel lets go.
	if _, err := f.ReadAt(make([]byte, 1), 0); !errors.As(err, &te) {
		t.Fatalf("read after abandon: %v", err)
	}
}

func TestCancelFreesAHungReadAtOnce(t *testing.T) {
	h := hangfs.Mount(t)
	file := h.AddHanging("dead.bin", 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Open(ctx, h.Dir, filepath.Join(h.Dir, "dead.bin"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() { _, err := f.ReadAt(make([]byte, 10), 0); done <- err }()
	select {
	case <-file.Reads():
	case <-time.After(10 * time.Second):
		t.Fatal("the read never started")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want cancellation, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not free the reader")
	}
}

func TestStuckReadsAreBounded(t *testing.T) {
	saved := owners
	owners = semaphore.NewWeighted(2)
	defer func() { owners = saved }()
	h := hangfs.Mount(t)
	file := h.AddHanging("dead.bin", 1<<20)
	path := filepath.Join(h.Dir, "dead.bin")
	for i := range 2 {
		ctx, cancel := WithTimeout(context.Background(), 200*time.Millisecond)
		f, err := Open(ctx, h.Dir, path, nil)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if _, err := f.ReadAt(make([]byte, 10), 0); err == nil {
			t.Fatalf("read %d did not time out", i)
		}
		cancel()
	}
	// Both owners are stuck in the kernel: the next open waits its deadline.
	ctx, cancel := WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var te *TimeoutError
	if _, err := Open(ctx, h.Dir, path, nil); !errors.As(err, &te) {
		t.Fatalf("a third open with two reads stuck: %v", err)
	}
	// Once the mount answers, the owners leave and opening works again.
	file.Release()
	poll.Eventually(t, 10*time.Second, "the stuck owners to leave once the file system answered", func() bool { return owners.TryAcquire(2) })
	owners.Release(2)
}

func TestErrorsKeepFsMeanings(t *testing.T) {
	root := t.TempDir()
	_, err := Open(context.Background(), root, filepath.Join(root, "gone.txt"), nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	write(t, filepath.Join(root, "here.txt"), "here")
	f, err := Open(ctx, root, filepath.Join(root, "here.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadAt(make([]byte, 4), 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("read when cancelled: %v", err)
	}
}

// Dup gives the file that was opened and checked, even once another file
// has taken its name, and nothing once the file is closed.
func TestDupIsTheOpenedFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "clip.bin")
	write(t, path, "the opened file")
	f, err := Open(context.Background(), root, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path+".new", "another file")
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	d, err := f.Dup()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(d)
	d.Close()
	if err != nil || string(got) != "the opened file" {
		t.Fatalf("read through the copy: %q %v", got, err)
	}
	f.Close()
	if d, err := f.Dup(); err == nil {
		d.Close()
		t.Fatal("a closed file gave a descriptor")
	}
}
