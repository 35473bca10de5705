//go:build linux

// Package hangfs is a FUSE file system for tests of what a hostile or
// broken disk does to the readers of watched files: a file whose reads
// hang like those of a dead network mount, and a file that turns into a
// FIFO between one look and the next. Nothing is cached by the kernel, so
// every stat and open reaches the file system and can be observed.
package hangfs

import (
	"context"
	"os"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// FS is a mounted file system with one flat folder, Dir.
type FS struct {
	Dir  string
	root *dir
	srv  *fuse.Server
}

// File is one entry of the folder.
type File struct {
	name    string
	ino     uint64
	content []byte
	size    int64 // what stat reports (the content for plain files)

	hang     chan struct{} // closed by Release; nil: reads are served
	reads    chan struct{} // a value per read that started hanging
	looks    chan struct{} // a value per lookup
	held     chan struct{} // a value per lookup held by HoldNextLookup
	mu       sync.Mutex
	fifo     bool          // looked up as a FIFO from the next lookup on
	hold     bool          // hold the next lookup
	unhold   chan struct{} // closed by Unhold
	released bool
}

// Mount mounts an empty folder for the test; it skips the test when FUSE
// cannot be mounted here. Cleanup releases every hanging read, then
// unmounts.
func Mount(t testing.TB) *FS {
	t.Helper()
	dirPath := t.TempDir()
	root := &dir{files: map[string]*File{}}
	zero := time.Duration(0)
	srv, err := fs.Mount(dirPath, root, &fs.Options{
		EntryTimeout: &zero, AttrTimeout: &zero, NegativeTimeout: &zero,
		MountOptions: fuse.MountOptions{FsName: "hangfs", Name: "hangfs", AllowOther: os.Geteuid() == 0},
	})
	if err != nil {
		t.Skipf("FUSE cannot be mounted here (%v): needs /dev/fuse and root or fusermount", err)
	}
	f := &FS{Dir: dirPath, root: root, srv: srv}
	t.Cleanup(func() {
		f.ReleaseAll()
		if err := srv.Unmount(); err != nil {
			// Still busy (a reader the kernel has not let go): detach it, so
			// no dead mount is left behind in the temp folder.
			t.Logf("unmount %s: %v; detaching it", dirPath, err)
			syscall.Unmount(dirPath, syscall.MNT_DETACH)
		}
	})
	return f
}

// Add puts a plain file with the given content in the folder.
func (f *FS) Add(name string, content []byte) *File {
	return f.root.add(&File{name: name, content: content, size: int64(len(content))})
}

// AddHanging puts a file of the given size whose reads block until Release
// or until the reading thread is interrupted (killed): a dead network mount.
func (f *FS) AddHanging(name string, size int64) *File {
	return f.root.add(&File{name: name, size: size, hang: make(chan struct{})})
}

// ReleaseAll lets every hanging read fail and every held lookup answer.
func (f *FS) ReleaseAll() {
	f.root.mu.Lock()
	defer f.root.mu.Unlock()
	for _, file := range f.root.files {
		file.Release()
	}
}

// Release lets the file's hanging reads, and all later ones, fail with
// EIO, and a held lookup answer.
func (x *File) Release() {
	x.Unhold()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.hang != nil && !x.released {
		x.released = true
		close(x.hang)
	}
}

// HoldNextLookup makes the next lookup of the name wait until Unhold; Held
// receives a value when it arrives. The held lookup answers with what the
// name was when it arrived: a test can then change it (BecomeFIFO) between
// a program's stat and its next step.
func (x *File) HoldNextLookup() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.hold, x.unhold = true, make(chan struct{})
}

// Held receives a value each time a lookup is being held.
func (x *File) Held() <-chan struct{} { return x.held }

// Unhold lets a held lookup answer.
func (x *File) Unhold() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.unhold != nil {
		close(x.unhold)
		x.unhold, x.hold = nil, false
	}
}

// takeHold reports whether this lookup is to be held, and until what.
func (x *File) takeHold() chan struct{} {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.hold {
		return nil
	}
	x.hold = false
	return x.unhold
}

// Reads receives a value each time a read starts hanging.
func (x *File) Reads() <-chan struct{} { return x.reads }

// Lookups receives a value each time the kernel looks the name up (every
// stat and open of the path does, since nothing is cached).
func (x *File) Lookups() <-chan struct{} { return x.looks }

// BecomeFIFO makes the name a named pipe from its next lookup on, as if a
// FIFO had been renamed over the file.
func (x *File) BecomeFIFO() {
	x.mu.Lock()
	x.fifo = true
	x.mu.Unlock()
}

func (x *File) mode() uint32 {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.fifo {
		return syscall.S_IFIFO | 0o644
	}
	return syscall.S_IFREG | 0o644
}

// dir is the folder: a fixed set of names, looked up afresh every time.
type dir struct {
	fs.Inode
	mu    sync.Mutex
	files map[string]*File
	next  uint64
}

func (d *dir) add(x *File) *File {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	x.ino = 1000 + 2*d.next
	x.reads, x.looks, x.held = make(chan struct{}, 64), make(chan struct{}, 64), make(chan struct{}, 64)
	d.files[x.name] = x
	return x
}

var _ = (fs.NodeLookuper)((*dir)(nil))
var _ = (fs.NodeReaddirer)((*dir)(nil))

func (d *dir) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	d.mu.Lock()
	x := d.files[name]
	d.mu.Unlock()
	if x == nil {
		return nil, syscall.ENOENT
	}
	select {
	case x.looks <- struct{}{}:
	default:
	}
	mode := x.mode()
	if until := x.takeHold(); until != nil {
		x.held <- struct{}{}
		select {
		case <-until:
		case <-ctx.Done(): // interrupted: the looking thread was killed
			return nil, syscall.EINTR
		}
	}
	ino := x.ino
	if mode&syscall.S_IFIFO != 0 {
		ino++ // another file: the FIFO that replaced it
	}
	n := &node{file: x, mode: mode}
	n.fill(&out.Attr)
	out.SetEntryTimeout(0)
	out.SetAttrTimeout(0)
	return d.NewInode(ctx, n, fs.StableAttr{Mode: mode & syscall.S_IFMT, Ino: ino}), 0
}

func (d *dir) Readdir(ctx context.Context) (fs.DirStream, syscall.Errno) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var list []fuse.DirEntry
	for name, x := range d.files {
		list = append(list, fuse.DirEntry{Name: name, Mode: x.mode(), Ino: x.ino})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return fs.NewListDirStream(list), 0
}

// node is one looked-up incarnation of a name: a file, or the FIFO that
// replaced it.
type node struct {
	fs.Inode
	file *File
	mode uint32
}

var _ = (fs.NodeGetattrer)((*node)(nil))
var _ = (fs.NodeOpener)((*node)(nil))
var _ = (fs.NodeReader)((*node)(nil))

func (n *node) fill(a *fuse.Attr) {
	a.Mode = n.mode
	a.Ino = n.file.ino
	if n.mode&syscall.S_IFIFO == 0 {
		a.Size = uint64(n.file.size)
	} else {
		a.Ino++
	}
	a.Nlink = 1
	a.Mtime = 1_700_000_000
}

func (n *node) Getattr(ctx context.Context, _ fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	n.fill(&out.Attr)
	out.SetTimeout(0)
	return 0
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	return nil, fuse.FOPEN_DIRECT_IO, 0
}

func (n *node) Read(ctx context.Context, _ fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	x := n.file
	if x.hang != nil {
		select {
		case x.reads <- struct{}{}:
		default:
		}
		// The kernel interrupts a read when its thread gets a signal (a
		// process exiting kills its threads). Answering that interrupt is
		// what lets a killed reader go, as a dead NFS mount's killable
		// waits do; a FUSE server that ignored it would keep the reader,
		// and its whole process, in the kernel until the mount is aborted.
		select {
		case <-x.hang:
			return nil, syscall.EIO
		case <-ctx.Done():
			return nil, syscall.EINTR
		}
	}
	if off >= int64(len(x.content)) {
		return fuse.ReadResultData(nil), 0
	}
	end := min(int(off)+len(dest), len(x.content))
	return fuse.ReadResultData(x.content[off:end]), 0
}
