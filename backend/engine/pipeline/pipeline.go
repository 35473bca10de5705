// Package pipeline indexes one file in four stages: discover (stat, filters,
// skip what is unchanged), extract (text and metadata), enrich (title,
// summary, keywords) and index (passages, vectors, full-text rows and the
// file row, written in one transaction so search never sees half a file).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/enrich"
	"trove/backend/engine/extract"
	"trove/backend/engine/filters"
	"trove/backend/engine/scan"
	"trove/backend/engine/vecquant"
	"trove/backend/platform/fileread"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// Folder is what the pipeline needs to know about a watched folder.
type Folder struct {
	ID int64
	scan.Folder
	// NamesOnly: its files are recorded by name and metadata only.
	NamesOnly bool
	// Present tells, before a file that is gone is dropped, whether the
	// folder's drive or share is still there (nil: always): a file out
	// of reach is not gone.
	Present func() bool
}

// ErrOffline is what handling a file of a folder whose drive or share went
// away meanwhile returns: nothing was dropped.
var ErrOffline = errors.New("the folder's drive or share is not there")

// gone drops a file that is no longer there, unless its whole folder went
// out of reach.
func (p *Pipeline) gone(ctx context.Context, f Folder, path string) error {
	if f.Present != nil && !f.Present() {
		return ErrOffline
	}
	return p.Delete(ctx, path)
}

// Records is the part of the store the pipeline keeps files in: one
// record per path, written whole or not at all.
type Records interface {
	Lookup(ctx context.Context, path string) (store.Record, bool, error)
	ByHash(ctx context.Context, hash string, size int64) ([]store.Record, error)
	PathsUnder(ctx context.Context, dir string) ([]string, error)
	PutDocument(ctx context.Context, doc store.Document) (int64, error)
	PutFailed(ctx context.Context, f core.File) (int64, error)
	PutNames(ctx context.Context, names []store.Name) (int, error)
	Touch(ctx context.Context, id int64, f core.File) error
	MoveFiles(ctx context.Context, moves []store.Move) (int, error)
	DeleteFileByPath(ctx context.Context, path string) (int64, error)
}

var _ Records = (*store.Store)(nil)

// ExtractFunc reads a file; extract.Extract in production.
type ExtractFunc func(ctx context.Context, path string, opt extract.Options) (extract.Document, error)

// Deps are the pipeline's collaborators. The funcs return the current value
// each time, so settings changes apply to the next file.
type Deps struct {
	Store    Records
	Settings func() core.Settings
	Matcher  func() *filters.Matcher
	Extract  ExtractFunc
	Enricher func() enrich.Enricher
	Embedder func() embedding.Embedder
	Publish  func(core.EventData)
	Log      *slog.Logger
	// OCR finds tesseract; nil: the process's probe (extract.CheckOCR).
	OCR *extract.OCRProbe
}

// Pipeline processes files. It is safe for concurrent use.
type Pipeline struct {
	Deps
	cpu     *slots
	writing *semaphore.Weighted // bytes of text waiting for the writer
}

// writeBudget bounds the text of files that wait for the writer: many files
// may wait (see slots), but not many large ones at once.
const writeBudget = 64 << 20

// New builds a pipeline.
func New(d Deps) *Pipeline {
	if d.Extract == nil {
		d.Extract = extract.Extract
	}
	return &Pipeline{Deps: d, cpu: newSlots(d.Settings().Queue.MaxConcurrency), writing: semaphore.NewWeighted(writeBudget)}
}

// SetConcurrency sets how many files may be hashed, extracted, enriched and
// embedded at once (queue.max_concurrency).
func (p *Pipeline) SetConcurrency(n int) { p.cpu.resize(n) }

// ErrNotRegular marks special files (FIFOs, sockets, devices): recorded as
// failed at once, never opened.
var ErrNotRegular = fileread.ErrNotRegular

// Index brings the index in line with the file at path in folder: indexes
// it, skips it when unchanged, or removes it when it is gone or excluded.
func (p *Pipeline) Index(ctx context.Context, folder Folder, path string) error {
	st, err := os.Lstat(path)
	switch {
	case scan.Gone(err):
		return p.gone(ctx, folder, path)
	case err != nil:
		return fmt.Errorf("stat %s: %w", path, err)
	case st.Mode()&fs.ModeSymlink != 0 || !p.wanted(folder, path):
		return p.Delete(ctx, path)
	case !st.Mode().IsRegular():
		return core.Permanent(fmt.Errorf("%w (%s)", ErrNotRegular, fileread.Kind(st.Mode())))
	}
	if testHookAfterCheck != nil {
		testHookAfterCheck(path)
	}
	rec, found, err := p.Store.Lookup(ctx, path)
	if err != nil {
		return err
	}
	if folder.NamesOnly {
		return p.name(ctx, folder, path, st, rec, found)
	}
	release, err := p.cpu.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	enricher, embedder, cfg := p.Enricher(), p.Embedder(), p.Settings()
	current := found && p.current(ctx, rec, cfg, enricher, embedder)
	if current && rec.Size == st.Size() && rec.ModNs == st.ModTime().UnixNano() {
		return nil
	}
	// One deadline for every read of this file, hashing and extraction
	// together: a read that hangs fails the file when it passes.
	fctx, cancel := fileread.WithTimeout(ctx, fileTimeout(cfg))
	defer cancel()
	j := &job{ctx: ctx, fctx: fctx, folder: folder, checked: st, meta: fileMeta(path, st, folder.ID), cfg: cfg,
		enricher: enricher, embedder: embedder, release: release}
	if st.Size() <= maxFileSize(cfg) {
		err := p.stage("hash", path, func() (err error) {
			j.meta.ContentHash, err = hashFile(fctx, folder.Root, path, st, maxFileSize(cfg))
			return err
		})
		if err != nil {
			return p.readError(ctx, folder, path, err)
		}
	}
	if current && j.meta.ContentHash != "" && j.meta.ContentHash == rec.ContentHash {
		return p.Store.Touch(ctx, rec.ID, j.meta) // only the times changed
	}
	// A file the names pass recorded may be one that moved while Trove
	// was not looking: its old record has its content.
	if (!found || rec.State == core.StatePending) && j.meta.ContentHash != "" {
		if adopted, err := p.adopt(ctx, folder, j.meta, cfg, enricher, embedder); adopted || err != nil {
			return err
		}
	}
	return p.index(j)
}

// name records a file of a names-only folder by its name and metadata:
// nothing of it is read.
func (p *Pipeline) name(ctx context.Context, folder Folder, path string, st fs.FileInfo, rec store.Record, found bool) error {
	name := NameOf(folder, path, st)
	meta := name.File
	switch {
	case found && rec.State == core.StateNamed && rec.Size == meta.Size && rec.ModNs == meta.Modified.UnixNano():
		return nil
	case found && rec.State == core.StateNamed:
		return p.Store.Touch(ctx, rec.ID, meta)
	case found:
		// Recorded otherwise (a failure, or content from before): the
		// record starts again as a name.
		if err := p.Delete(ctx, path); err != nil {
			return err
		}
	}
	_, err := p.Store.PutNames(ctx, []store.Name{name})
	return err
}

// current tells whether an indexed record is what indexing its file now
// would make, content aside: the same enricher and embedder, and no text
// left for OCR to read when OCR runs.
func (p *Pipeline) current(ctx context.Context, rec store.Record, cfg core.Settings, enricher enrich.Enricher, embedder embedding.Embedder) bool {
	return rec.State == core.StateIndexed && rec.EnrichBy == enricher.Name() && rec.EmbedModel == embedder.Model() &&
		!(rec.OCRPending && p.ocrRuns(ctx, cfg))
}

// OCRRuns tells whether files are read with OCR now: extraction.ocr is on
// and tesseract is there.
func (p *Pipeline) OCRRuns(ctx context.Context) bool { return p.ocrRuns(ctx, p.Settings()) }

func (p *Pipeline) ocrRuns(ctx context.Context, cfg core.Settings) bool {
	return cfg.Extraction.OCR && p.tesseract().Status(ctx).Available
}

func (p *Pipeline) tesseract() *extract.OCRProbe {
	if p.OCR != nil {
		return p.OCR
	}
	return extract.DefaultOCR()
}

// testHookAfterCheck lets tests swap the file between its type check and
// the reads.
var testHookAfterCheck func(path string)

// job is one file on its way through the stages.
type job struct {
	ctx      context.Context // the item's: cancelled when it is removed or Trove stops
	fctx     context.Context // ctx with the file's read deadline
	folder   Folder
	checked  fs.FileInfo // the file as its type was checked
	meta     core.File
	cfg      core.Settings
	enricher enrich.Enricher
	embedder embedding.Embedder
	release  func() // gives back the CPU slot
}

// wanted applies the folder's rule (scan.Folder.Admits) with the filters
// of the moment: they may have changed since the file was queued.
func (p *Pipeline) wanted(f Folder, path string) bool { return f.Admits(p.Matcher(), path) }

// readError decides what a failed read means for the index.
func (p *Pipeline) readError(ctx context.Context, f Folder, path string, err error) error {
	var te *fileread.TimeoutError
	switch {
	case isPanic(err):
		return err
	case scan.Gone(err), errors.Is(err, fileread.ErrLink):
		// Vanished while we looked at it, or swapped for a link (links are
		// not indexed, and nothing is read through one).
		return p.gone(ctx, f, path)
	case errors.Is(err, fileread.ErrNotRegular), errors.As(err, &te):
		// Swapped for a pipe or device: never read it. A read that hung past
		// the time limit: trying again soon would hang again.
		return core.Permanent(err)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("read %s: %w", path, err)
}

// stage runs one step of indexing a file. A panic in it is logged with its
// stack and becomes that file's failure, never the process's end.
func (p *Pipeline) stage(name, path string, fn func() error) error {
	var err error
	if perr := core.Safe(func() { err = fn() }); perr != nil {
		var pe *core.PanicError
		errors.As(perr, &pe)
		p.Log.Error("panic while indexing a file", "stage", name, "path", path, "panic", pe.Value, "stack", string(pe.Stack))
		return core.Permanent(fmt.Errorf("%s: %w", name, perr))
	}
	return err
}

func isPanic(err error) bool {
	var pe *core.PanicError
	return errors.As(err, &pe)
}

// index runs extract, enrich and index for a new or changed file. It gives
// back its CPU slot before waiting for the write.
func (p *Pipeline) index(j *job) error {
	ctx, path := j.ctx, j.meta.Path
	var doc extract.Document
	err := p.stage("extract", path, func() (err error) {
		opt := extractOptions(j.cfg, j.folder.Root, j.checked)
		opt.Tesseract = p.tesseract()
		doc, err = p.Extract(j.fctx, path, opt)
		return err
	})
	if err != nil {
		return p.readError(ctx, j.folder, path, err)
	}
	if err := ctx.Err(); err != nil {
		// Extraction stops early when cancelled and says so in a warning;
		// shutting down must not store that as the file's content.
		return err
	}
	text := withMetadata(doc)
	var card enrich.Card
	err = p.stage("enrich", path, func() (err error) {
		card, err = j.enricher.Enrich(ctx, enrich.Input{Path: path, Filename: j.meta.Filename, Title: doc.Title, Text: text, Mime: doc.Mime})
		return err
	})
	if err != nil && !isPanic(err) {
		err = fmt.Errorf("enrich %s: %w", path, err)
	}
	if err != nil {
		return err
	}
	var chunks []store.Chunk
	if err := p.stage("chunk", path, func() error { chunks = chunkText(text, doc.Pages, len(doc.Text)); return nil }); err != nil {
		return err
	}
	// The language is told from the text alone: metadata lines (field
	// names, camera models) say nothing of it.
	var lang string
	if err := p.stage("detect", path, func() error { lang = tokens.Detect(doc.Text); return nil }); err != nil {
		return err
	}
	vecs, embedModel, err := p.embed(j, texts(chunks))
	if err != nil {
		return err
	}
	meta := j.meta
	meta.Mime = mimeOf(doc, meta.Extension)
	meta.Title, meta.Summary, meta.Keywords = card.Title, card.Summary, card.Keywords
	meta.Error = doc.Warning
	meta.IndexedAt = time.Now()
	for i := range chunks {
		if vecs != nil {
			chunks[i].Vec = vecquant.Encode(vecs[i])
		}
	}
	by := card.By // an LLM that fell back to the builtin card says so: the file is redone later
	if by == "" {
		by = j.enricher.Name()
	}
	size := min(int64(len(text)), writeBudget)
	if err := p.writing.Acquire(ctx, size); err != nil {
		return err
	}
	defer p.writing.Release(size)
	j.release()
	return p.stage("index", path, func() error {
		return p.write(ctx, j.folder, store.Document{File: meta, Chunks: chunks, EmbedModel: embedModel, EnrichBy: by, OCRPending: doc.OCRPending, Lang: lang})
	})
}

// embed computes the passages' vectors. When the embedder fails, the file
// is indexed without vectors: keyword search still works, and the
// background re-embed retries later.
func (p *Pipeline) embed(j *job, passages []string) ([][]float32, string, error) {
	var vecs [][]float32
	err := p.stage("embed", j.meta.Path, func() (err error) {
		vecs, err = j.embedder.Embed(j.ctx, passages)
		return err
	})
	switch {
	case err == nil:
		return vecs, j.embedder.Model(), nil
	case isPanic(err):
		return nil, "", err
	case j.ctx.Err() != nil:
		return nil, "", j.ctx.Err()
	}
	// Keyword search still works; the file is embedded again when the
	// provider answers. The embedder's health monitor logs the outage once,
	// not per file.
	p.Log.Debug("embedding failed; indexed without vectors", "path", j.meta.Path, "err", err)
	return nil, "", nil
}

// write stores the file, its passages and vectors in one transaction.
func (p *Pipeline) write(ctx context.Context, f Folder, doc store.Document) error {
	meta := doc.File
	doc.Rel = scan.Rel(f.Root, meta.Path)
	id, err := p.Store.PutDocument(ctx, doc)
	if errors.Is(err, store.ErrPanicked) {
		// Rolled back, and the writer is whole again; the same write
		// would fail the same way (SQLite out of memory for this file's
		// text, say), so this file fails now and nothing else waits.
		p.Log.Error("the index could not write a file", "path", meta.Path, "err", err)
		return core.Permanent(err)
	}
	if err != nil {
		return err
	}
	p.Publish(core.FileIndexed{ID: id, Path: meta.Path, DirID: f.ID, Title: meta.Title, Warning: meta.Error})
	return nil
}

// adopt recognises a file that reappeared under a new name (moved while
// Trove was not looking, or from another watched folder) by its content
// hash, and renames its record instead of extracting it again.
func (p *Pipeline) adopt(ctx context.Context, f Folder, meta core.File, cfg core.Settings, enricher enrich.Enricher, embedder embedding.Embedder) (bool, error) {
	candidates, err := p.Store.ByHash(ctx, meta.ContentHash, meta.Size)
	if err != nil {
		return false, err
	}
	for _, c := range candidates {
		if !p.current(ctx, c, cfg, enricher, embedder) || exists(c.Path) {
			continue
		}
		moved, err := p.moveRecord(ctx, f, c, meta.Path, meta)
		if err != nil || moved {
			return moved, err
		}
	}
	return false, nil
}

// Delete removes a path from the index (a no-op when it is not there).
func (p *Pipeline) Delete(ctx context.Context, path string) error {
	id, err := p.Store.DeleteFileByPath(ctx, path)
	if err != nil {
		return err
	}
	if id != 0 {
		p.Publish(core.FileRemoved{ID: id, Path: path})
	}
	return nil
}

// Move handles a rename from one path to another inside watched folders.
// When the file is the one the index knows (same size and time), only its
// path changes; otherwise the old path is dropped and the new one indexed.
func (p *Pipeline) Move(ctx context.Context, folder Folder, from, to string) error {
	st, err := os.Lstat(to)
	if scan.Gone(err) {
		return p.gone(ctx, folder, from)
	}
	if err != nil {
		return fmt.Errorf("stat %s: %w", to, err)
	}
	rec, found, err := p.Store.Lookup(ctx, from)
	if err != nil {
		return err
	}
	if found && rec.State != core.StateFailed && !exists(from) && st.Mode().IsRegular() && p.wanted(folder, to) &&
		rec.Size == st.Size() && rec.ModNs == st.ModTime().UnixNano() {
		now := core.File{}
		now.Device, now.Inode = fileread.Identity(st)
		moved, err := p.moveRecord(ctx, folder, rec, to, now)
		if err != nil || moved {
			return err
		}
	}
	if !exists(from) {
		if err := p.Delete(ctx, from); err != nil {
			return err
		}
	}
	return p.Index(ctx, folder, to)
}

// moveRecord renames rec to to and reports whether it did: another worker
// may have deleted or moved the record since it was read, and then the
// caller indexes the file itself. now is the file at to as far as it is
// known: its time (zero: unchanged) and identity (0: unchanged).
func (p *Pipeline) moveRecord(ctx context.Context, f Folder, rec store.Record, to string, now core.File) (bool, error) {
	name := filepath.Base(to)
	n, err := p.Store.MoveFiles(ctx, []store.Move{{
		ID: rec.ID, From: rec.Path, DirID: f.ID, Path: to, Filename: name, Extension: core.ExtensionOf(name),
		Rel: scan.Rel(f.Root, to), Modified: now.Modified,
		Device: now.Device, Inode: now.Inode,
	}})
	if err != nil || n == 0 {
		return false, err
	}
	p.Publish(core.FileMoved{ID: rec.ID, From: rec.Path, To: to, DirID: f.ID, Files: 1})
	return true, nil
}

// MoveTree renames every indexed file below from to the same place below to
// (a folder renamed inside a watched tree), without re-extracting anything.
func (p *Pipeline) MoveTree(ctx context.Context, folder Folder, from, to string) (int, error) {
	paths, err := p.Store.PathsUnder(ctx, from)
	if err != nil {
		return 0, err
	}
	var moves []store.Move
	for _, old := range paths {
		rec, found, err := p.Store.Lookup(ctx, old)
		if err != nil || !found {
			continue
		}
		neu := to + strings.TrimPrefix(old, from)
		name := filepath.Base(neu)
		moves = append(moves, store.Move{ID: rec.ID, From: old, DirID: folder.ID, Path: neu, Filename: name, Extension: core.ExtensionOf(name),
			Rel: scan.Rel(folder.Root, neu)})
	}
	moved, err := p.Store.MoveFiles(ctx, moves)
	if err != nil {
		return 0, err
	}
	if moved > 0 {
		p.Publish(core.FileMoved{From: from, To: to, DirID: folder.ID, Files: moved})
	}
	return moved, nil
}

// RecordFailure stores that a file could not be indexed, with the reason.
func (p *Pipeline) RecordFailure(ctx context.Context, dirID int64, path string, cause error) error {
	st, err := os.Lstat(path)
	if scan.Gone(err) {
		return p.Delete(ctx, path)
	}
	meta := core.File{DirID: dirID, Path: path, Filename: filepath.Base(path), Extension: core.ExtensionOf(path), IndexedAt: time.Now()}
	if err == nil {
		meta = fileMeta(path, st, dirID)
		meta.IndexedAt = time.Now()
	}
	meta.Error = reason(cause)
	id, err := p.Store.PutFailed(ctx, meta)
	if err != nil {
		return err
	}
	p.Publish(core.FileFailed{ID: id, Path: path, DirID: dirID, Error: meta.Error})
	return nil
}

// reason is the failure text people see: the root cause, without the
// wrapping that repeats the path.
func reason(err error) string {
	var te *fileread.TimeoutError
	if errors.As(err, &te) {
		return te.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
