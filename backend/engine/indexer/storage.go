package indexer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// The storage hold: when the index cannot be written (its disk is full, or
// failing), that is a condition of the index, not of the files. The queue
// holds its items (none spends a retry or is recorded as failed), every
// folder shows the condition, and a probe tries the disk on a schedule with
// backoff; once a test write succeeds, indexing resumes and the folders are
// rescanned, so whatever was missed meanwhile is found again.
const (
	probeFirst = time.Second
	probeMax   = 15 * time.Second
	// minFree is the free space the probe waits for before it tries a
	// write: resuming on a few kilobytes would only fill the disk again.
	minFree = 4 << 20
)

// Disk is the part of the store that answers for the index's disk: its
// free space, a test write, the WAL, and connections opened anew.
type Disk interface {
	FreeSpace() (uint64, error)
	Probe(ctx context.Context) error
	TruncateWAL(ctx context.Context) error
	Checkpoint(ctx context.Context) error
	Reopen() error
}

type storageState struct {
	mu      sync.Mutex
	held    bool
	message string
	probing bool
}

// storageHeld returns the hold's message, and whether it holds.
func (ix *Indexer) storageHeld() (string, bool) {
	ix.storage.mu.Lock()
	defer ix.storage.mu.Unlock()
	return ix.storage.message, ix.storage.held
}

// storageFailed puts indexing on hold after err, a storage error of the
// index, and starts the probe that lifts the hold.
func (ix *Indexer) storageFailed(err error) {
	msg := ix.storageMessage()
	st := &ix.storage
	st.mu.Lock()
	first := !st.held
	st.held, st.message = true, msg
	startProbe := !st.probing
	st.probing = true
	// Under st.mu, so a probe that ends at this moment cannot lift the
	// queue's hold after this sets it.
	ix.queue.SetStorageHold(true, msg)
	st.mu.Unlock()
	if first {
		ix.Log.Error("the index cannot be written; indexing is on hold", "reason", msg, "err", err)
		ix.publishFolders()
	}
	if startProbe {
		select {
		case ix.probeWanted <- struct{}{}:
		default: // one is waiting for probeLoop already
		}
	}
}

// probeLoop runs the storage probe each time a storage error puts
// indexing on hold, until ctx ends.
func (ix *Indexer) probeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ix.probeWanted:
			ix.safely("storage probe", func() { ix.probe(ctx) })
		}
	}
}

// storageMessage says what is wrong in words a person can act on.
func (ix *Indexer) storageMessage() string {
	free, err := ix.Store.FreeSpace()
	if err == nil && free < minFree {
		return fmt.Sprintf("The disk holding the index is full (%s free): indexing is paused until space is freed", megabytes(free))
	}
	return "The disk holding the index reports an I/O error: indexing is paused until the index can be written again"
}

func megabytes(n uint64) string {
	mb := float64(n) / (1 << 20)
	if mb < 10 {
		return fmt.Sprintf("%.1f MB", mb)
	}
	return fmt.Sprintf("%.0f MB", mb)
}

// probe tries the index's disk with backoff until a test write succeeds,
// then lifts the hold.
func (ix *Indexer) probe(ctx context.Context) {
	t := time.NewTimer(probeFirst)
	defer t.Stop()
	for wait := probeFirst; ; wait = min(wait*2, probeMax) {
		select {
		case <-ctx.Done():
			ix.storage.mu.Lock()
			ix.storage.probing = false
			ix.storage.mu.Unlock()
			return
		case <-t.C:
		}
		if ix.writable(ctx) {
			ix.storageRecovered()
			return
		}
		t.Reset(wait)
	}
}

// writable checks for free space, then makes a test write.
func (ix *Indexer) writable(ctx context.Context) bool {
	// Most of a full disk may be the index's own WAL, which holds every
	// version of the pages written since the last checkpoint: folding it
	// into the database and truncating it can give the space back.
	ix.Store.TruncateWAL(ctx)
	if free, err := ix.Store.FreeSpace(); err == nil && free < minFree {
		ix.updateStorageMessage()
		return false
	}
	if err := ix.Store.Probe(ctx); err != nil {
		ix.updateStorageMessage()
		return false
	}
	return true
}

// updateStorageMessage keeps the free space in the message current.
func (ix *Indexer) updateStorageMessage() {
	msg := ix.storageMessage()
	st := &ix.storage
	st.mu.Lock()
	changed := st.held && st.message != msg
	if changed {
		st.message = msg
		ix.queue.SetStorageHold(true, msg)
	}
	st.mu.Unlock()
	if changed {
		ix.publishFolders()
	}
}

// storageRecovered opens the index's connections anew, lifts the hold,
// shows the folders' own status again and rescans them: files recorded as
// failed for a storage reason, and changes whose events were lost, are
// found again. The connections are replaced while nothing else runs: one
// that saw a write fail keeps no state from before the failure.
func (ix *Indexer) storageRecovered() {
	if err := ix.Store.Reopen(); err != nil {
		ix.Log.Error("cannot reopen the index after the storage error", "err", err)
	}
	st := &ix.storage
	st.mu.Lock()
	st.held, st.message, st.probing = false, "", false
	ix.queue.SetStorageHold(false, "")
	st.mu.Unlock()
	ix.Log.Info("the index can be written again; indexing resumes")
	ix.publishFolders()
	ix.RescanAll(false)
}

// publishFolders saves and publishes every folder's status.
func (ix *Indexer) publishFolders() {
	for _, f := range ix.snapshot() {
		ix.persistStatus(f.ID)
	}
}

// keepOnStorageError turns a storage error into a hold: true when err was
// one (and the caller should keep its work for later).
func (ix *Indexer) keepOnStorageError(err error) bool {
	if err == nil || !store.IsStorageError(err) {
		return false
	}
	ix.storageFailed(err)
	return true
}

// notWritable is the error of a request that needs to write the index
// while it cannot be written.
func (ix *Indexer) notWritable() error {
	msg, _ := ix.storageHeld()
	return core.Fail(core.UnwritableIndex, "%s", msg)
}
