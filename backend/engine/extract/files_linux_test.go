package extract

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"trove/backend/platform/fileread"
	"trove/internal/hangfs"
)

// extractOrFail runs Extract in a goroutine so that a blocking open fails
// the test instead of hanging it.
func extractOrFail(t *testing.T, path string) (Document, error) {
	t.Helper()
	type result struct {
		doc Document
		err error
	}
	done := make(chan result, 1)
	go func() {
		doc, err := Extract(context.Background(), path, Options{})
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("Extract blocked")
	}
	return Document{}, nil
}

func TestFIFOIsNotOpened(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := extractOrFail(t, p)
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("got %v", err)
	}
}

// A FIFO swapped in between the check and the open must not block either.
func TestFIFOSwappedInAfterStat(t *testing.T) {
	p := writeFile(t, "swap.txt", []byte("regular for now"))
	testHookAfterStat = func(path string) {
		os.Remove(path)
		syscall.Mkfifo(path, 0o644)
	}
	defer func() { testHookAfterStat = nil }()
	_, err := extractOrFail(t, p)
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("got %v", err)
	}
}

func TestSocketIsNotRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := extractOrFail(t, p); !errors.Is(err, ErrNotRegular) {
		t.Errorf("got %v", err)
	}
}

// Root reads through chmod 000, so as root the read runs with the file
// system uid of nobody, on a locked thread that is then thrown away.
func TestPermissionDenied(t *testing.T) {
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		} // let nobody reach the file; the file itself stays unreadable
	}
	p := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(p, []byte("private"), 0o000); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o000); err != nil {
		t.Fatal(err)
	}
	err := asNobody(t, func() error {
		_, err := Extract(context.Background(), p, Options{})
		return err
	})
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("got %v", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" {
		t.Errorf("want the open to fail, got %v", err)
	}
}

func asNobody(t *testing.T, fn func() error) error {
	if os.Geteuid() != 0 {
		return fn()
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := syscall.Setfsuid(65534); err != nil {
			done <- err
			return
		}
		if got, _, _ := syscall.RawSyscall(syscall.SYS_SETFSUID, ^uintptr(0), 0, 0); got != 65534 {
			done <- errors.New("setfsuid did not take")
			return
		}
		err := fn()
		syscall.Setfsuid(0)
		done <- err
	}()
	return <-done
}

// A file swapped for a link to a file outside the folder after the check
// must not be read through the link.
func TestSymlinkSwappedInAfterStat(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(outside, []byte("root:$6$secrethash:19000"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, "notes.txt", []byte("ordinary notes"))
	testHookAfterStat = func(path string) {
		os.Remove(path)
		os.Symlink(outside, path)
	}
	defer func() { testHookAfterStat = nil }()
	doc, err := Extract(context.Background(), p, Options{})
	if strings.Contains(doc.Text, "secrethash") {
		t.Fatalf("read the link's target: %q", doc.Text)
	}
	if !errors.Is(err, fileread.ErrLink) {
		t.Fatalf("want ErrLink, got %v (doc %+v)", err, doc)
	}
}

// A folder on the way swapped for a link after the check: the file is
// opened below the watched folder without following any link.
func TestParentSwappedForLinkAfterStat(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "notes.txt"), []byte("root:$6$secrethash:19000"), 0o600); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(sub, "notes.txt")
	if err := os.WriteFile(p, []byte("ordinary notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	testHookAfterStat = func(string) {
		os.Rename(sub, sub+".old")
		os.Symlink(outside, sub)
	}
	defer func() { testHookAfterStat = nil }()
	doc, err := Extract(context.Background(), p, Options{Root: root})
	if strings.Contains(doc.Text, "secrethash") {
		t.Fatalf("read through the linked folder: %q", doc.Text)
	}
	if !errors.Is(err, fileread.ErrLink) {
		t.Fatalf("want ErrLink, got %v", err)
	}
}

// A read that hangs (a dead network or FUSE mount) fails the file at the
// time limit, with the limit in the reason, instead of holding the caller.
func TestHungReadFailsAtTheTimeLimit(t *testing.T) {
	h := hangfs.Mount(t)
	h.AddHanging("report.pdf", 64<<10)
	type result struct {
		doc Document
		err error
	}
	done := make(chan result, 1)
	go func() {
		doc, err := Extract(context.Background(), filepath.Join(h.Dir, "report.pdf"), Options{Timeout: 300 * time.Millisecond})
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		var te *fileread.TimeoutError
		if !errors.As(r.err, &te) || !strings.Contains(r.err.Error(), "read timed out after 300ms") {
			t.Fatalf("want a read timeout, got %v (doc %+v)", r.err, r.doc)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Extract held by a hung read")
	}
}
