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
	"trove/backend/embedding"
	"trove/backend/enrich"
	"trove/backend/extract"
	"trove/backend/filters"
	"trove/backend/queue"
	"trove/backend/scan"
	"trove/backend/store"
	"trove/backend/tokens"
	"trove/backend/vecquant"
)

// Folder is what the pipeline needs to know about a watched folder.
type Folder struct {
	ID        int64
	Root      string
	Recursive bool
	Pattern   string
}

// ExtractFunc reads a file; extract.Extract in production.
type ExtractFunc func(ctx context.Context, path string, opt extract.Options) (extract.Document, error)

// Deps are the pipeline's collaborators. The funcs return the current value
// each time, so settings changes apply to the next file.
type Deps struct {
	Store    *store.Store
	Settings func() core.Settings
	Matcher  func() *filters.Matcher
	Folder   func(id int64) (Folder, bool)
	Extract  ExtractFunc
	Enricher func() enrich.Enricher
	Embedder func() embedding.Embedder
	Publish  func(typ string, data any)
	Log      *slog.Logger
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
var ErrNotRegular = errors.New("not a regular file")

// Index brings the index in line with the file at path: indexes it, skips it
// when unchanged, or removes it when it is gone or excluded.
func (p *Pipeline) Index(ctx context.Context, dirID int64, path string) error {
	folder, ok := p.Folder(dirID)
	if !ok {
		return nil // the folder was removed while this waited
	}
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p.Delete(ctx, path)
	case err != nil:
		return fmt.Errorf("stat %s: %w", path, err)
	case st.Mode()&fs.ModeSymlink != 0 || !p.wanted(folder, path):
		return p.Delete(ctx, path)
	case !st.Mode().IsRegular():
		return queue.Permanent(fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(st.Mode())))
	}
	rec, found, err := p.Store.Lookup(ctx, path)
	if err != nil {
		return err
	}
	release, err := p.cpu.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	enricher, embedder := p.Enricher(), p.Embedder()
	current := found && rec.State == core.StateIndexed && rec.EnrichBy == enricher.Name() && rec.EmbedModel == embedder.Model()
	if current && rec.Size == st.Size() && rec.ModNs == st.ModTime().UnixNano() {
		return nil
	}
	meta := fileMeta(path, st, dirID)
	cfg := p.Settings()
	if st.Size() <= maxFileSize(cfg) {
		if meta.ContentHash, err = hashFile(path); err != nil {
			return p.readError(ctx, path, err)
		}
	}
	if current && meta.ContentHash != "" && meta.ContentHash == rec.ContentHash {
		return p.Store.Touch(ctx, rec.ID, meta) // only the times changed
	}
	if !found && meta.ContentHash != "" {
		if adopted, err := p.adopt(ctx, folder, meta, enricher, embedder); adopted || err != nil {
			return err
		}
	}
	return p.index(ctx, folder, meta, cfg, enricher, embedder, release)
}

// wanted applies the filters, the job's file pattern and its recursion.
func (p *Pipeline) wanted(f Folder, path string) bool {
	if !scan.Within(f.Root, path) {
		return false
	}
	rel := scan.Rel(f.Root, path)
	return p.Matcher().Allow(path, rel) && scan.MatchesPattern(f.Pattern, path) && (f.Recursive || !strings.Contains(rel, "/"))
}

func (p *Pipeline) readError(ctx context.Context, path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return p.Delete(ctx, path) // vanished while we looked at it
	}
	if errors.Is(err, extract.ErrNotRegular) {
		return queue.Permanent(err) // swapped for a pipe or device: never read it
	}
	return fmt.Errorf("read %s: %w", path, err)
}

// index runs extract, enrich and index for a new or changed file. It gives
// back its CPU slot (release) before waiting for the write.
func (p *Pipeline) index(ctx context.Context, f Folder, meta core.File, cfg core.Settings,
	enricher enrich.Enricher, embedder embedding.Embedder, release func()) error {
	doc, err := p.Extract(ctx, meta.Path, extractOptions(cfg))
	if err != nil {
		return p.readError(ctx, meta.Path, err)
	}
	if err := ctx.Err(); err != nil {
		// Extraction stops early when cancelled and says so in a warning;
		// shutting down must not store that as the file's content.
		return err
	}
	text := withMetadata(doc)
	card, err := enricher.Enrich(ctx, enrich.Input{Path: meta.Path, Filename: meta.Filename, Title: doc.Title, Text: text, Mime: doc.Mime})
	if err != nil {
		return fmt.Errorf("enrich %s: %w", meta.Path, err)
	}
	passages := chunkText(text)
	embedModel := embedder.Model()
	vecs, err := embedder.Embed(ctx, passages)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Keyword search still works; the file is embedded again when the
		// provider answers. The embedder's health monitor logs the outage
		// once, not per file.
		p.Log.Debug("embedding failed; indexed without vectors", "path", meta.Path, "err", err)
		vecs, embedModel = nil, ""
	}
	meta.Mime = mimeOf(doc, meta.Extension)
	meta.Title, meta.Summary, meta.Keywords = card.Title, card.Summary, card.Keywords
	meta.Error = doc.Warning
	meta.IndexedAt = time.Now()
	chunks := make([]store.Chunk, len(passages))
	for i, text := range passages {
		chunks[i].Text = text
		if vecs != nil {
			chunks[i].Vec = vecquant.Encode(vecs[i])
		}
	}
	rel := scan.Rel(f.Root, meta.Path)
	by := card.By // an LLM that fell back to the builtin card says so: the file is redone later
	if by == "" {
		by = enricher.Name()
	}
	size := min(int64(len(text)), writeBudget)
	if err := p.writing.Acquire(ctx, size); err != nil {
		return err
	}
	defer p.writing.Release(size)
	release()
	id, err := p.Store.PutDocument(ctx, store.Document{
		File: meta, NameTerms: tokens.NameTerms(meta.Filename), PathTerms: tokens.PathTerms(rel),
		Chunks: chunks, EmbedModel: embedModel, EnrichBy: by,
	})
	if err != nil {
		return err
	}
	p.Publish(core.EventFileIndexed, map[string]any{"id": id, "path": meta.Path, "dir_id": f.ID, "title": meta.Title, "warning": meta.Error})
	return nil
}

// adopt recognises a file that reappeared under a new name (moved while
// Trove was not looking, or from another watched folder) by its content
// hash, and renames its record instead of extracting it again.
func (p *Pipeline) adopt(ctx context.Context, f Folder, meta core.File, enricher enrich.Enricher, embedder embedding.Embedder) (bool, error) {
	candidates, err := p.Store.ByHash(ctx, meta.ContentHash, meta.Size)
	if err != nil {
		return false, err
	}
	for _, c := range candidates {
		if c.EnrichBy != enricher.Name() || c.EmbedModel != embedder.Model() || exists(c.Path) {
			continue
		}
		if err := p.moveRecord(ctx, f, c, meta.Path, meta.Modified); err != nil {
			return false, err
		}
		return true, nil
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
		p.Publish(core.EventFileRemoved, map[string]any{"id": id, "path": path})
	}
	return nil
}

// Move handles a rename from one path to another inside watched folders.
// When the file is the one the index knows (same size and time), only its
// path changes; otherwise the old path is dropped and the new one indexed.
func (p *Pipeline) Move(ctx context.Context, dirID int64, from, to string) error {
	folder, ok := p.Folder(dirID)
	if !ok {
		return p.Delete(ctx, from)
	}
	st, err := os.Lstat(to)
	if errors.Is(err, fs.ErrNotExist) {
		return p.Delete(ctx, from)
	}
	if err != nil {
		return fmt.Errorf("stat %s: %w", to, err)
	}
	rec, found, err := p.Store.Lookup(ctx, from)
	if err != nil {
		return err
	}
	if found && rec.State == core.StateIndexed && !exists(from) && st.Mode().IsRegular() && p.wanted(folder, to) &&
		rec.Size == st.Size() && rec.ModNs == st.ModTime().UnixNano() {
		return p.moveRecord(ctx, folder, rec, to, time.Time{})
	}
	if !exists(from) {
		if err := p.Delete(ctx, from); err != nil {
			return err
		}
	}
	return p.Index(ctx, dirID, to)
}

func (p *Pipeline) moveRecord(ctx context.Context, f Folder, rec store.Record, to string, modified time.Time) error {
	name := filepath.Base(to)
	err := p.Store.MoveFiles(ctx, []store.Move{{
		ID: rec.ID, DirID: f.ID, Path: to, Filename: name, Extension: extensionOf(name),
		NameTerms: tokens.NameTerms(name), PathTerms: tokens.PathTerms(scan.Rel(f.Root, to)), Modified: modified,
	}})
	if err != nil {
		return err
	}
	p.Publish(core.EventFileMoved, map[string]any{"id": rec.ID, "from": rec.Path, "to": to, "dir_id": f.ID})
	return nil
}

// MoveTree renames every indexed file below from to the same place below to
// (a folder renamed inside a watched tree), without re-extracting anything.
func (p *Pipeline) MoveTree(ctx context.Context, dirID int64, from, to string) (int, error) {
	folder, ok := p.Folder(dirID)
	if !ok {
		return 0, nil
	}
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
		moves = append(moves, store.Move{ID: rec.ID, DirID: folder.ID, Path: neu, Filename: name, Extension: extensionOf(name),
			NameTerms: tokens.NameTerms(name), PathTerms: tokens.PathTerms(scan.Rel(folder.Root, neu))})
	}
	if err := p.Store.MoveFiles(ctx, moves); err != nil {
		return 0, err
	}
	if len(moves) > 0 {
		p.Publish(core.EventFileMoved, map[string]any{"from": from, "to": to, "dir_id": folder.ID, "files": len(moves)})
	}
	return len(moves), nil
}

// RecordFailure stores that a file could not be indexed, with the reason.
func (p *Pipeline) RecordFailure(ctx context.Context, dirID int64, path string, cause error) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p.Delete(ctx, path)
	}
	meta := core.File{DirID: dirID, Path: path, Filename: filepath.Base(path), Extension: extensionOf(path), IndexedAt: time.Now()}
	if err == nil {
		meta = fileMeta(path, st, dirID)
		meta.IndexedAt = time.Now()
	}
	meta.Error = reason(cause)
	id, err := p.Store.PutFailed(ctx, meta)
	if err != nil {
		return err
	}
	p.Publish(core.EventFileFailed, map[string]any{"id": id, "path": path, "dir_id": dirID, "error": meta.Error})
	return nil
}

// reason is the failure text people see: the root cause, without the
// wrapping that repeats the path.
func reason(err error) string {
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

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return m.Type().String()
}
