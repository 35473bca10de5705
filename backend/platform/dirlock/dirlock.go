// Package dirlock keeps one Trove per data directory. Two processes on one
// index would fail each other's writes (UNIQUE and FOREIGN KEY errors, a
// queue saved over the other's), so the first takes an exclusive lock on a
// file in the directory for its whole life and writes who it is there; a
// second finds the lock taken and can say who holds it.
//
// The lock is the operating system's (flock on Unix, LockFileEx on
// Windows): it goes with the process, however the process ends, so a crash
// never leaves a stale lock behind.
package dirlock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FileName is the lock file inside the data directory.
const FileName = "trove.lock"

// Holder describes the process that holds a data directory.
type Holder struct {
	PID     int       `json:"pid"`
	Addr    string    `json:"addr,omitempty"` // the API's address, once it listens
	Started time.Time `json:"started"`
}

// HeldError reports a data directory locked by another process.
type HeldError struct {
	Dir    string
	Holder Holder // zero when the holder's record could not be read
}

func (e *HeldError) Error() string {
	who := "another process"
	switch h := e.Holder; {
	case h.PID != 0 && h.Addr != "":
		who = fmt.Sprintf("pid %d, http://%s", h.PID, h.Addr)
	case h.PID != 0:
		who = fmt.Sprintf("pid %d, starting", h.PID)
	}
	return fmt.Sprintf("Trove is already running (%s) with this data directory (%s); stop it first, or give this one another --data-dir", who, e.Dir)
}

// errBusy is what the platform's try-lock returns when another holds it.
var errBusy = errors.New("locked by another process")

// Lock is a held data directory.
type Lock struct {
	f      *os.File
	holder Holder
}

// recordSize pads the holder record so every rewrite is one write of the
// same length: a reader never sees a truncated file.
const recordSize = 512

// Acquire locks dir (creating it if needed) for this process. When another
// process holds it, the error is a *HeldError naming the holder.
func Acquire(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errBusy) {
			return nil, &HeldError{Dir: dir, Holder: readHolder(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	l := &Lock{f: f, holder: Holder{PID: os.Getpid(), Started: time.Now().UTC().Truncate(time.Second)}}
	if err := l.write(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// SetAddr records the API's address, so a second process can point to it.
func (l *Lock) SetAddr(addr string) error {
	l.holder.Addr = addr
	return l.write()
}

func (l *Lock) write() error {
	b, err := json.Marshal(l.holder)
	if err != nil {
		return err
	}
	rec := bytes.Repeat([]byte{' '}, recordSize)
	copy(rec, b)
	rec[recordSize-1] = '\n'
	if _, err := l.f.WriteAt(rec, 0); err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	return nil
}

// Release gives the directory up. The file stays (removing it would let a
// third process lock a new file while a second still waits on the old one).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readHolder reads the record of the process holding the lock; a record it
// cannot read yields the zero Holder.
func readHolder(path string) Holder {
	var h Holder
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(bytes.TrimSpace(b), &h)
	}
	return h
}
