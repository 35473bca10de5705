package indexer

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"trove/backend/core"
	"trove/backend/engine/queue"
	"trove/backend/store"
)

// The full-text index is merged once it holds enough files and has grown
// by a quarter since the last merge, step by step to the end, and the
// size it was merged at is kept in the index.
func TestMergeWaitsForGrowth(t *testing.T) {
	fake := newFakeIndex()
	ix, ev := unitIndexer(t, fake)
	ctx := t.Context()
	for _, c := range []struct {
		indexed int64
		merges  bool
		last    string
	}{
		{mergeMinFiles - 1, false, ""}, // too small to matter
		{mergeMinFiles, true, "2000"},  // never merged
		{2400, false, "2000"},          // grown by a fifth
		{2500, true, "2500"},           // by a quarter
		{1000, false, "1000"},          // files removed: growth counts from here
		{2100, true, "2100"},           // by more than a quarter of that
	} {
		fake.mu.Lock()
		fake.indexed, fake.mergeLeft, fake.mergeSteps = c.indexed, 3, 0
		fake.mu.Unlock()
		done := ix.MergeIfGrown(ctx)
		if done != c.merges || fake.meta[mergedKey] != c.last {
			t.Fatalf("%d files: merged %v (%d steps), recorded %q; want %v, %q", c.indexed, done, fake.mergeSteps, fake.meta[mergedKey], c.merges, c.last)
		}
		if c.merges && fake.mergeSteps != 4 {
			t.Fatalf("%d files: %d steps, want 4 (three with work, one to find none)", c.indexed, fake.mergeSteps)
		}
	}
	// The queue's status said so while it ran, and says so no more.
	var merging, after bool
	for _, e := range ev.all {
		if st, ok := e.(core.QueueStatus); ok {
			merging, after = merging || st.Merging, st.Merging
		}
	}
	if !merging || after || ix.QueueStatus().Merging {
		t.Fatalf("queue status while merging: seen %v, last %v", merging, after)
	}
}

// Work in the queue, a walk, a pause or a damaged index put the merge off; work
// arriving between steps stops it, unrecorded, to go on later.
func TestMergeGivesWayToIndexing(t *testing.T) {
	fake := newFakeIndex()
	fake.indexed, fake.mergeLeft = 5000, 5
	ix, _ := unitIndexer(t, fake)
	ctx := t.Context()
	item := func() {
		ix.queue.Enqueue(queue.Event{Path: filepath.Join(t.TempDir(), "a.txt"), Action: queue.ActionIndex, DirID: 1})
	}

	item()
	if ix.MergeIfGrown(ctx) || fake.mergeSteps != 0 {
		t.Fatalf("merged with work queued (%d steps)", fake.mergeSteps)
	}
	ix.queue.RemoveFolder(1)
	ix.queue.Pause()
	if ix.MergeIfGrown(ctx) || fake.mergeSteps != 0 {
		t.Fatalf("merged while paused (%d steps)", fake.mergeSteps)
	}
	ix.queue.Resume()
	// A walk writing names leaves the queue empty: the merge waits for it.
	ix.register(core.WatchedDirectory{ID: 9, Path: t.TempDir()})
	ix.scanStarted(9)
	if ix.MergeIfGrown(ctx) || fake.mergeSteps != 0 {
		t.Fatalf("merged while a walk wrote names (%d steps)", fake.mergeSteps)
	}
	ix.scanDone(9)
	fake.damaged = true
	if ix.MergeIfGrown(ctx) || fake.mergeSteps != 0 {
		t.Fatalf("merged a damaged index (%d steps)", fake.mergeSteps)
	}
	fake.damaged = false

	steps := 0
	fake.onStep = func() {
		if steps++; steps == 2 {
			item()
		}
	}
	if ix.MergeIfGrown(ctx) || fake.mergeSteps != 2 || fake.meta[mergedKey] != "" {
		t.Fatalf("work arrived: merged on to step %d, recorded %q", fake.mergeSteps, fake.meta[mergedKey])
	}
	ix.queue.RemoveFolder(1)
	fake.onStep = nil
	if !ix.MergeIfGrown(ctx) || fake.meta[mergedKey] != "5000" {
		t.Fatalf("the merge did not go on: %d steps, recorded %q", fake.mergeSteps, fake.meta[mergedKey])
	}
}

// A damaged page met while merging marks the index damaged.
func TestMergeOnADamagedPageMarksTheIndex(t *testing.T) {
	fake := newFakeIndex()
	fake.indexed, fake.mergeLeft, fake.mergeErr = 5000, 5, sqlite3.CORRUPT
	ix, _ := unitIndexer(t, fake)
	if ix.MergeIfGrown(t.Context()) || fake.meta[mergedKey] != "" {
		t.Fatalf("merged a damaged index")
	}
	if h := ix.Health(); h.Status != core.IndexDamaged || fake.mergeSteps != 1 {
		t.Fatalf("health: %+v after %d steps", h, fake.mergeSteps)
	}
	if ix.MergeIfGrown(t.Context()) || fake.mergeSteps != 1 {
		t.Fatalf("merged again once damaged")
	}
}

// A damaged page met while counting the files is not passed over either.
func TestMergeCountOnADamagedPageMarksTheIndex(t *testing.T) {
	fake := newFakeIndex()
	fake.indexed, fake.mergeLeft, fake.countErr = 5000, 5, sqlite3.CORRUPT
	ix, _ := unitIndexer(t, fake)
	if ix.MergeIfGrown(t.Context()) || fake.mergeSteps != 0 || ix.Health().Status != core.IndexDamaged {
		t.Fatalf("count failed: %d steps, health %+v", fake.mergeSteps, ix.Health())
	}
}

// A full disk met while merging holds the index as any write's would.
func TestMergeOnAFullDiskHoldsTheIndex(t *testing.T) {
	fake := newFakeIndex()
	fake.indexed, fake.mergeLeft, fake.mergeErr, fake.free = 5000, 5, sqlite3.FULL, 1<<20
	ix, _ := unitIndexer(t, fake)
	if ix.MergeIfGrown(t.Context()) || fake.meta[mergedKey] != "" {
		t.Fatalf("merged on a full disk")
	}
	if h := ix.Health(); h.Status != core.IndexStorageError {
		t.Fatalf("health: %+v", h)
	}
}

// A large new folder's content waits for the end of its first walk, so
// the names pass has the writer to itself; a small one's starts at once;
// a folder walked before (Trove restarted) goes on with its waiting files
// while it is walked again.
func TestNewFolderContentWaitsForItsWalk(t *testing.T) {
	fake := newFakeIndex()
	ix, _ := unitIndexer(t, fake)
	ctx := t.Context()
	newRoot, oldRoot := t.TempDir(), t.TempDir()
	fake.pending = map[int64][]store.Pending{
		7: {{Path: filepath.Join(newRoot, "a.txt"), ModNs: 2}},
		8: {{Path: filepath.Join(oldRoot, "b.txt"), ModNs: 1}},
	}
	walked := time.Now().Add(-time.Hour)
	ix.register(core.WatchedDirectory{ID: 7, Path: newRoot})
	ix.register(core.WatchedDirectory{ID: 8, Path: oldRoot, LastScan: &walked})
	ix.setCounting(7, true)
	ix.setCounting(8, true)
	ix.namesWritten(7, namesFirstAfter-1)
	ix.namesWritten(8, namesFirstAfter)
	ix.feed(ctx)
	if got := queued(ix); len(got) != 2 {
		t.Fatalf("the first files of a walk: %q; want both folders' content", got)
	}
	ix.queue.RemoveFolder(7)
	ix.queue.RemoveFolder(8)
	ix.namesWritten(7, 1) // the walk of the new folder grew large
	ix.feed(ctx)
	if got := queued(ix); len(got) != 1 || !strings.Contains(got[0], "b.txt") {
		t.Fatalf("while both are walked: %q; want only the folder walked before", got)
	}
	ix.setCounting(7, false)
	ix.feed(ctx)
	if got := queued(ix); len(got) != 2 {
		t.Fatalf("after the new folder's walk: %q; want its file too", got)
	}
}

// Old text is written again at a quiet moment, step by step to the end,
// and gives way to work arriving; once done, a merge is due.
func TestOldTextIsWrittenAgainWhenQuiet(t *testing.T) {
	fake := newFakeIndex()
	fake.indexed, fake.retokenizeLeft = 5000, 3*retokenizeFiles
	fake.meta = map[string]string{mergedKey: "5000"}
	ix, _ := unitIndexer(t, fake)
	ctx := t.Context()

	ix.queue.Pause()
	if ix.RetokenizeIfDue(ctx) || fake.retokenizeSteps != 0 {
		t.Fatalf("wrote old text while paused (%d steps)", fake.retokenizeSteps)
	}
	ix.queue.Resume()
	fake.onStep = func() {
		if fake.retokenizeSteps == 1 { // work arrives after the first step
			ix.queue.Enqueue(queue.Event{Path: filepath.Join(t.TempDir(), "a.txt"), Action: queue.ActionIndex, DirID: 1})
		}
	}
	if ix.RetokenizeIfDue(ctx) || fake.retokenizeSteps != 2 {
		t.Fatalf("work arrived: went on to step %d, want to stop after 2", fake.retokenizeSteps)
	}
	ix.queue.RemoveFolder(1)
	fake.onStep = nil
	if !ix.RetokenizeIfDue(ctx) || fake.retokenizeLeft != 0 || fake.retokenizeSteps != 3 {
		t.Fatalf("quiet again: done %v, %d files left after %d steps", fake.Retokenizing(), fake.retokenizeLeft, fake.retokenizeSteps)
	}
	if fake.meta[mergedKey] != "0" {
		t.Errorf("after writing every row again, merged files recorded %q; want 0 (a merge due)", fake.meta[mergedKey])
	}
	if ix.RetokenizeIfDue(ctx) || fake.retokenizeSteps != 3 {
		t.Errorf("nothing left: %d steps", fake.retokenizeSteps)
	}
}
