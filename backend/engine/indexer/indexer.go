// Package indexer keeps the index in step with the watched folders: it
// registers folders, scans them, routes file-system events into the queue,
// runs the pipeline for queued items, and reports each folder's status.
package indexer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"trove/backend/core"
	"trove/backend/engine/filters"
	"trove/backend/engine/pipeline"
	"trove/backend/engine/queue"
	"trove/backend/engine/scan"
	"trove/backend/engine/watch"
	"trove/backend/store"
)

// Tunables that are not user settings.
const (
	// deleteHold keeps removals waiting a moment, so a rename whose two halves
	// arrive as separate events becomes a move rather than delete + reindex.
	deleteHold = 250 * time.Millisecond
	// pollEvery is how often folders without live watching are rescanned,
	// and folders in error are checked for their return.
	pollEvery = 5 * time.Minute
	// saveEvery is how often the queue is saved for crash recovery.
	saveEvery = 2 * time.Second
	// statusEvery limits queue.status events.
	statusEvery = 250 * time.Millisecond
	// progressEvery limits scan.progress events per folder.
	progressEvery = 500 * time.Millisecond
)

// Index is the part of the store the indexer keeps beside the pipeline's
// records: the watched folders, what each holds, the saved queue, the disk
// and the index's soundness. Each part is declared where it is used.
type Index interface {
	Folders
	Contents
	Stamps
	Names
	Pending
	SavedQueue
	Disk
	Soundness
	Merging
	Retokenizing
}

var _ Index = (*store.Store)(nil)

// Contents is what the index holds below a watched folder or a path.
type Contents interface {
	PathsUnder(ctx context.Context, dir string) ([]string, error)
	PendingOCR(ctx context.Context) ([]store.Record, error) // files OCR would read more of
}

// SavedQueue keeps the queue's persistent items across restarts.
type SavedQueue interface {
	LoadQueue(ctx context.Context) ([]store.QueueRow, error)
	SaveQueue(ctx context.Context, rows []store.QueueRow) error
}

// Deps are the indexer's collaborators.
type Deps struct {
	Store    Index
	Filters  *filters.Manager
	Pipeline *pipeline.Pipeline
	Settings func() core.Settings
	Publish  func(core.EventData)
	Log      *slog.Logger
	// MaxWatches caps inotify watches (0: the kernel's limit only).
	MaxWatches int
	// Exclude lists Trove's own folders (data and config): never watched,
	// scanned, queued or indexed.
	Exclude []string
	// FolderList is where the copy of the watched-folder list is kept (in
	// the config dir); "" keeps none.
	FolderList string
	// Notice is what the start-up did about the index (folders restored),
	// shown in the status.
	Notice string
	// Rebuilt runs after the index was replaced by Rebuild, so whatever
	// holds its contents in memory can let them go.
	Rebuilt func()
	// CheckEvery is the period of the integrity check (0: daily).
	CheckEvery time.Duration
	// MergeEvery is how often a merge of the full-text index is looked
	// for besides when the queue drains (0: every minute).
	MergeEvery time.Duration
	// MountCheck is how often folders on drives and shares are checked
	// for being there, and scheduled rescans started (0: every 10 s).
	MountCheck time.Duration
	// NetworkRescan is the period of scheduled rescans of folders whose
	// file system does not report every change (network shares, FUSE)
	// when their watch named none (0: DefaultNetworkRescan).
	NetworkRescan time.Duration
}

// Indexer is safe for concurrent use.
type Indexer struct {
	Deps
	queue   *queue.Queue
	watcher *watch.Watcher
	own     ownDirs

	mu      sync.Mutex
	folders map[int64]*folder
	pubMu   sync.Mutex // orders folder events: see persistStatus
	// onScanEntry, when set, sees every file a scan finds (tests use it to
	// make a scan fail from inside).
	onScanEntry func(scan.Entry)
	storage     storageState
	integrity   integrity
	merging     atomic.Bool // a merge of the full-text index is under way

	queueDirty  chan struct{}
	feedWanted  chan struct{}  // new names: the content pass has work
	rescanAll   chan bool      // true: re-process every file (models changed)
	firstScans  chan firstScan // a new folder's walk, started by pollLoop, which owns it
	ocrWanted   chan struct{}
	drained     chan struct{} // the queue emptied after work
	ocrRan      bool          // OCR ran at the last look (pollLoop's own)
	ready       chan struct{}
	probeWanted chan struct{}  // a storage error asks probeLoop to probe the disk
	background  sync.WaitGroup // goroutines of goSafe and goRescan; Run waits for them
	// afterReady, when set, runs as soon as requests are let in, before
	// the folders loaded at start are scanned (tests watch a folder there);
	// onStartScan, when set, is told of each of those scans instead of
	// running it.
	afterReady  func()
	onStartScan func(id int64)
}

// New builds an indexer; Run starts it.
func New(d Deps) (*Indexer, error) {
	w, err := watch.New(d.Log, d.MaxWatches)
	if err != nil {
		return nil, err
	}
	own := newOwnDirs(d.Exclude)
	w.Exclude(own...)
	ix := &Indexer{
		Deps: d, watcher: w, own: own, folders: map[int64]*folder{},
		queueDirty: make(chan struct{}, 1), feedWanted: make(chan struct{}, 1), rescanAll: make(chan bool, 1), firstScans: make(chan firstScan, 16),
		ocrWanted: make(chan struct{}, 1), drained: make(chan struct{}, 1), ready: make(chan struct{}), probeWanted: make(chan struct{}, 1),
	}
	ix.queue = queue.New(queueConfig(d.Settings()), ix.process, queue.Hooks{
		Failed:  ix.failed,
		Pending: func(dirID int64, _ int) { ix.refresh(dirID) },
		Changed: ix.queueChanged,
	})
	return ix, nil
}

// Queue exposes the queue to the service (status, items, pause).
func (ix *Indexer) Queue() *queue.Queue { return ix.queue }

// inFlight is how many files may be in flight per CPU slot: the others wait
// for their write to commit, which batches writes without more CPU work.
const inFlight = 8

func queueConfig(s core.Settings) queue.Config {
	return queue.Config{
		Cooldown:    time.Duration(s.Queue.CooldownSeconds * float64(time.Second)),
		Concurrency: s.Queue.MaxConcurrency * inFlight,
		MaxRetries:  s.Queue.MaxRetries,
	}
}

// SettingsChanged applies queue settings at once.
func (ix *Indexer) SettingsChanged(s core.Settings) {
	ix.Pipeline.SetConcurrency(s.Queue.MaxConcurrency)
	ix.queue.Configure(queueConfig(s))
}

// Run loads the folders, restores the saved queue, reconciles every folder
// with the disk, and runs the watcher and the queue until ctx ends.
func (ix *Indexer) Run(ctx context.Context) error {
	defer ix.watcher.Close() // also when Run ends before the watcher runs
	if err := ix.load(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	// The folders to reconcile are those loaded: one watched from now on
	// is scanned by its Watch, and a second scan of it here would queue
	// its files again, without the cooldown of the events its writes make.
	loaded := ix.snapshot()
	close(ix.ready)
	if ix.afterReady != nil {
		ix.afterReady()
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return ix.queue.Run(gctx) })
	g.Go(func() error {
		return ix.watcher.Run(gctx,
			func(ev watch.Event) { ix.safely("file event "+ev.Path, func() { ix.onEvent(gctx, ev) }) },
			func() { ix.safely("watcher overflow", ix.onOverflow) })
	})
	g.Go(func() error { ix.saveLoop(gctx); return nil })
	g.Go(func() error { ix.pollLoop(gctx); return nil })
	g.Go(func() error { ix.checkLoop(gctx); return nil })
	g.Go(func() error { ix.mergeLoop(gctx); return nil })
	g.Go(func() error { ix.probeLoop(gctx); return nil })
	g.Go(func() error { ix.contentLoop(gctx); return nil })
	g.Go(func() error { ix.mountLoop(gctx); return nil })
	ix.saveFolderList(ctx)
	for _, f := range loaded {
		if ix.onStartScan != nil {
			ix.onStartScan(f.ID)
			continue
		}
		ix.goRescan(ctx, f.ID, false)
	}
	ix.ReadPendingOCR()
	err := g.Wait()
	ix.waitBackground()
	ix.saveQueue(context.Background()) // unfinished work survives a clean stop too
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Ready is closed once the folders are loaded and events are accepted.
func (ix *Indexer) Ready() <-chan struct{} { return ix.ready }

// waitReady blocks a request until Run has loaded the folders, or until the
// request's context ends (the caller hung up, or start-up is stuck on a
// slow disk): a request never outwaits its caller.
func (ix *Indexer) waitReady(ctx context.Context) error {
	select {
	case <-ix.ready:
		return nil
	case <-ctx.Done():
		return core.Fail(core.Starting, "Trove is still loading the watched folders (%v); try again in a moment", context.Cause(ctx))
	}
}

func (ix *Indexer) load(ctx context.Context) error {
	dirs, err := ix.Store.Directories(ctx)
	if err != nil {
		return fmt.Errorf("load folders: %w", err)
	}
	for _, d := range dirs {
		if d.IsActive {
			ix.register(d)
		}
	}
	rows, err := ix.Store.LoadQueue(ctx)
	if err != nil {
		return fmt.Errorf("load queue: %w", err)
	}
	items := make([]queue.Item, 0, len(rows))
	for _, r := range rows {
		items = append(items, queue.Item{ID: r.ID, Path: r.Path, Dest: r.Dest, Action: queue.Action(r.Action),
			DirID: r.DirID, EnqueuedAt: r.EnqueuedAt, ReadyAt: r.ReadyAt, Retries: r.Retries, LastError: r.LastError})
	}
	ix.queue.Restore(items)
	return nil
}

// process runs one queue item through the pipeline. A storage error of the
// index holds the queue and keeps the item: it is not the file's failure.
func (ix *Indexer) process(ctx context.Context, it queue.Item) error {
	err := ix.processItem(ctx, it)
	if ix.keepOnStorageError(err) {
		return queue.Held(err)
	}
	if errors.Is(err, pipeline.ErrOffline) {
		// The folder's drive or share went (now marked offline): the
		// file is out of reach, not gone, and the catch-up scan when it
		// returns sees to it.
		return nil
	}
	if it.Action == queue.ActionIndex {
		ix.contentDone(it.DirID)
	}
	return err
}

func (ix *Indexer) processItem(ctx context.Context, it queue.Item) error {
	ix.Log.Debug("queue item", "action", it.Action, "path", it.Path, "dest", it.Dest, "dir", it.DirID)
	if ix.own.covers(it.Path) || it.Action == queue.ActionMove && ix.own.covers(it.Dest) {
		// Queued by an older Trove, or moved in or out of Trove's own
		// folders: whatever it was, it leaves the index.
		err := ix.dropTree(ctx, it.Path)
		if err == nil && it.Action == queue.ActionMove {
			err = ix.dropTree(ctx, it.Dest)
		}
		return err
	}
	f, watched := ix.folderFor(it)
	if watched {
		if cur, ok := ix.folderByID(f.ID); ok && cur.offline {
			return nil // out of reach until it returns; its catch-up scan sees to this
		}
	}
	switch {
	case it.Action == queue.ActionDelete:
		return ix.deleteTree(ctx, f, watched, it.Path)
	case !watched && it.Action == queue.ActionMove:
		return ix.Pipeline.Delete(ctx, it.Path) // the folder went while this waited
	case !watched:
		return nil
	case it.Action == queue.ActionMove:
		return ix.Pipeline.Move(ctx, f, it.Path, it.Dest)
	default:
		return ix.Pipeline.Index(ctx, f, it.Path)
	}
}

// folderFor is the watched folder an item is processed in: its own, or,
// when its folder was unwatched while it waited, the folder that holds the
// path now. The queue keys items by path, so when a folder is watched
// again the scan's item for a file merges into a stale one still waiting
// under the old folder's id: dropped with that folder, the file would stay
// out of the index until the next rescan, and a stale removal would drop
// what the new folder indexed there. A move keeps its own folder: one whose
// folder went removes the old name only.
func (ix *Indexer) folderFor(it queue.Item) (pipeline.Folder, bool) {
	if f, ok := ix.Folder(it.DirID); ok || it.Action == queue.ActionMove {
		return f, ok
	}
	if cur, ok := ix.folderOf(it.Path); ok {
		return ix.Folder(cur.ID)
	}
	return pipeline.Folder{}, false
}

// dropTree removes a path and everything below it from the index, whatever
// is on the disk.
func (ix *Indexer) dropTree(ctx context.Context, path string) error {
	return ix.eachIndexedUnder(ctx, path, func(p string) error { return ix.Pipeline.Delete(ctx, p) })
}

// deleteTree removes a path and, when it was a folder, everything below it.
// The disk decides, not the event: a folder removed and then replaced (a
// rename onto its name, while the removal waited out its hold) has files
// there again, and those are brought up to date instead of dropped. Index
// looks at the disk itself and drops each path that is gone. Outside any
// watched folder (not watched) everything goes.
func (ix *Indexer) deleteTree(ctx context.Context, f pipeline.Folder, watched bool, path string) error {
	if !watched {
		return ix.dropTree(ctx, path)
	}
	return ix.eachIndexedUnder(ctx, path, func(p string) error {
		err := ix.Pipeline.Index(ctx, f, p)
		if err == nil || p == path || ctx.Err() != nil || store.IsStorageError(err) {
			return err
		}
		// A file below the folder that cannot be indexed (it became a
		// FIFO, say) is that file's failure, not the folder's: it gets its
		// own item, with its own retries and its own failure record. Failed
		// here, the whole item would be recorded as a failed file at the
		// folder's path, which no rescan would ever clear.
		ix.queue.Enqueue(queue.Event{Path: p, Action: queue.ActionIndex, DirID: f.ID})
		return nil
	})
}

// eachIndexedUnder runs fn on path and every indexed path below it, until
// one fails.
func (ix *Indexer) eachIndexedUnder(ctx context.Context, path string, fn func(string) error) error {
	paths, err := ix.Store.PathsUnder(ctx, path)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func (ix *Indexer) failed(it queue.Item, err error) {
	path := it.Path
	if it.Action == queue.ActionMove {
		path = it.Dest
	}
	ix.Log.Warn("indexing failed", "path", path, "retries", it.Retries, "err", err)
	rerr := ix.Pipeline.RecordFailure(context.Background(), it.DirID, path, err)
	if ix.keepOnStorageError(rerr) {
		// The failure cannot be written down: the item waits for the
		// disk like any other, rather than vanishing.
		ix.queue.Enqueue(queue.Event{Path: it.Path, Dest: it.Dest, Action: it.Action, DirID: it.DirID, Persist: true})
		return
	}
	if rerr != nil {
		ix.Log.Error("cannot record failure", "path", path, "err", rerr)
	}
}

func (ix *Indexer) queueChanged() {
	select {
	case ix.queueDirty <- struct{}{}:
	default:
	}
}

// saveLoop publishes the queue's status when it changed (at most every
// statusEvery) and saves its persistent items (at most every saveEvery).
func (ix *Indexer) saveLoop(ctx context.Context) {
	t := time.NewTicker(statusEvery)
	defer t.Stop()
	unsaved, lastSave, busy := false, time.Now(), false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// A panic in one round is logged and the loop goes on: the queue's
		// status and its saving must outlive any one bad round.
		ix.safely("queue status and saving", func() {
			select {
			case <-ix.queueDirty:
				st := ix.QueueStatus()
				ix.Publish(st)
				unsaved = true
				if st.Total == 0 && busy {
					ix.checkpoint(ctx)
					select {
					case ix.drained <- struct{}{}:
					default:
					}
				}
				busy = st.Total > 0
			default:
			}
			if _, held := ix.storageHeld(); unsaved && !held && time.Since(lastSave) >= saveEvery {
				ix.saveQueue(ctx)
				unsaved, lastSave = false, time.Now()
			}
		})
	}
}

// checkpoint folds the WAL into the database once the queue has drained.
func (ix *Indexer) checkpoint(ctx context.Context) {
	if err := ix.Store.Checkpoint(ctx); err != nil && ctx.Err() == nil {
		ix.Log.Warn("cannot checkpoint the index", "err", err)
	}
}

func (ix *Indexer) saveQueue(ctx context.Context) {
	items := ix.queue.Persistent()
	rows := make([]store.QueueRow, len(items))
	for i, it := range items {
		rows[i] = store.QueueRow{ID: it.ID, Path: it.Path, Dest: it.Dest, Action: string(it.Action), DirID: it.DirID,
			EnqueuedAt: it.EnqueuedAt, ReadyAt: it.ReadyAt, Retries: it.Retries, LastError: it.LastError}
	}
	if err := ix.Store.SaveQueue(ctx, rows); err != nil && ctx.Err() == nil && !ix.keepOnStorageError(err) {
		ix.Log.Warn("cannot save the queue", "err", err)
	}
}

// pollLoop checks folders in error for their return, and queues files
// for OCR when it starts to run. (Scheduled rescans, and offline folders'
// returns, are mountLoop's.)
func (ix *Indexer) pollLoop(ctx context.Context) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case all := <-ix.rescanAll:
			for _, f := range ix.snapshot() {
				ix.goRescan(ctx, f.ID, all)
			}
		case fs := <-ix.firstScans:
			ix.goFirstScan(ctx, fs)
		case <-ix.ocrWanted:
			ix.safely("queueing files for OCR", func() { ix.queuePendingOCR(ctx) })
		case <-t.C:
			for _, f := range ix.snapshot() {
				if f.status == core.DirError && !f.offline {
					ix.goRescan(ctx, f.ID, false)
				}
			}
			ix.safely("looking for OCR", func() { ix.pollOCR(ctx) })
		}
	}
}

// RescanAll reconciles every folder with the disk in the background; with
// all, every file is processed again (the enricher or embedder changed).
func (ix *Indexer) RescanAll(all bool) {
	select {
	case ix.rescanAll <- all:
	default:
		if all { // a pending plain rescan is upgraded
			select {
			case <-ix.rescanAll:
			default:
			}
			ix.rescanAll <- true
		}
	}
}
