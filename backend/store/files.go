package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"trove/backend/core"
	"trove/backend/store/tokens"
)

// Chunk is one passage of a file's text and, when embedded, its vector.
type Chunk struct {
	Text string
	Vec  []byte
	// Pages are where the passage's pages start in Text; nil when the
	// file has no pages.
	Pages core.Pages
}

// Document is everything the index keeps for one successfully indexed file.
type Document struct {
	File core.File
	// Rel is the file's path below its watched folder: the folders in it
	// are searched with the file's name (the folders column).
	Rel        string
	Chunks     []Chunk
	EmbedModel string
	EnrichBy   string
	OCRPending bool // OCR would read more of it (see Record)
	// Lang is the language of the file's text, an ISO 639-1 code, or ""
	// when not known: its words are stemmed by that language's rules.
	Lang string
}

const fileColumns = `id, dir_id, path, filename, extension, mime, size, created_ns, modified_ns, accessed_ns,
	content_hash, state, error, title, summary, keywords, indexed_ns, device, inode`

func scanFile(row interface{ Scan(...any) error }) (core.File, error) {
	var f core.File
	var created, modified, accessed, indexed int64
	var keywords sql.NullString
	var device, inode sql.NullInt64
	err := row.Scan(&f.ID, &f.DirID, &f.Path, &f.Filename, &f.Extension, &f.Mime, &f.Size, &created, &modified, &accessed,
		&f.ContentHash, &f.State, &f.Error, &f.Title, &f.Summary, &keywords, &indexed, &device, &inode)
	f.Device, f.Inode = uint64(device.Int64), uint64(inode.Int64)
	if err != nil {
		return f, err
	}
	f.Modified, f.Accessed = time.Unix(0, modified), time.Unix(0, accessed)
	if created != 0 { // 0: the file system records no creation time
		f.Created = time.Unix(0, created)
	}
	if indexed != 0 {
		f.IndexedAt = time.Unix(0, indexed)
	}
	if keywords.Valid {
		if err := json.Unmarshal([]byte(keywords.String), &f.Keywords); err != nil {
			return f, fmt.Errorf("file %d keywords: %w", f.ID, err)
		}
	}
	return f, nil
}

// File returns one file by id.
func (s *Store) File(ctx context.Context, id int64) (core.File, error) {
	f, err := scanFile(s.rdb().QueryRowContext(ctx, `SELECT `+fileColumns+` FROM files WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return f, &core.Missing{Thing: core.ThingFile, ID: id}
	}
	return f, err
}

// FileByPath returns one file by its absolute path.
func (s *Store) FileByPath(ctx context.Context, path string) (core.File, error) {
	f, err := scanFile(s.rdb().QueryRowContext(ctx, `SELECT `+fileColumns+` FROM files WHERE path = ?`, path))
	if errors.Is(err, sql.ErrNoRows) {
		return f, &core.Missing{Thing: core.ThingFile, Path: path}
	}
	return f, err
}

// PutDocument writes an indexed file, its chunks, vectors and full-text rows,
// replacing whatever the index held for that path, and returns the file's
// id (the same across re-indexing). Concurrent calls are committed together
// (group commit): one transaction, one full-text segment and one commit
// serve them all, while each file stays whole or absent.
func (s *Store) PutDocument(ctx context.Context, doc Document) (int64, error) {
	req := &putRequest{doc: doc, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	g.pending = append(g.pending, req)
	if g.leading {
		g.mu.Unlock()
		<-req.done // the current leader commits it
		return req.id, req.err
	}
	g.leading = true
	for len(g.pending) > 0 {
		batch := g.pending
		g.pending = nil
		g.mu.Unlock()
		s.commitBatch(context.WithoutCancel(ctx), batch)
		g.mu.Lock()
	}
	g.leading = false
	g.mu.Unlock()
	return req.id, req.err
}

// groupCommit gathers documents written concurrently.
type groupCommit struct {
	mu      sync.Mutex
	pending []*putRequest
	leading bool
}

type putRequest struct {
	doc  Document
	id   int64
	err  error
	done chan struct{}
}

// commitBatch writes a batch in one transaction; if that fails, each
// document is retried alone so one bad file cannot fail the others. Every
// request is answered, even when something here panics: a writer left
// waiting would hold its queue worker for ever.
func (s *Store) commitBatch(ctx context.Context, batch []*putRequest) {
	answered := 0
	defer func() {
		if r := recover(); r != nil {
			err := panicked(r)
			for _, req := range batch[answered:] {
				req.err = err
				close(req.done)
			}
		}
	}()
	docs := make([]Document, len(batch))
	for i, r := range batch {
		docs[i] = r.doc
	}
	ids, err := s.PutDocuments(ctx, docs)
	for i, r := range batch {
		switch {
		case err == nil:
			r.id = ids[i]
		case len(batch) == 1:
			r.err = err
		default:
			one, oneErr := s.PutDocuments(ctx, docs[i:i+1])
			if r.err = oneErr; oneErr == nil {
				r.id = one[0]
			}
		}
		close(r.done)
		answered++
	}
}

// PutDocuments writes several indexed files in one transaction: each file is
// complete or absent, never partial, and one commit (one full-text segment)
// serves them all.
func (s *Store) PutDocuments(ctx context.Context, docs []Document) ([]int64, error) {
	ids := make([]int64, len(docs))
	// A query's words are stemmed in the languages of the index: a file's
	// is added before it can match.
	for _, doc := range docs {
		s.langs.add(1, doc.Lang)
	}
	err := s.tx(ctx, func(tx *writeTx) error {
		w, err := newDocWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		// Rows first, then each full-text table in one run: a statement
		// that opens a savepoint (the files upsert does, and so does a
		// write to the other full-text table) makes FTS5 flush its pending
		// terms to a new segment, so interleaving would write a segment
		// per file. In this order a batch is one segment per table.
		for i, doc := range docs {
			if hook := s.writeHook.Load(); hook != nil {
				(*hook)(doc.File.Path)
			}
			if ids[i], err = w.putRows(ctx, doc); err != nil {
				return fmt.Errorf("index %s: %w", doc.File.Path, err)
			}
		}
		// FTS5 also flushes when a rowid comes lower than the one before
		// (a file indexed again keeps its old id): write in rowid order.
		order := make([]int, len(docs))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ids[a], ids[b]) })
		for _, i := range order {
			if err := w.putCard(ctx, ids[i], docs[i]); err != nil {
				return fmt.Errorf("index %s: %w", docs[i].File.Path, err)
			}
		}
		for _, i := range order {
			if _, err := w.ftsName.ExecContext(ctx, ids[i], docs[i].File.Filename); err != nil {
				return fmt.Errorf("index %s: fts_names: %w", docs[i].File.Path, err)
			}
		}
		for _, i := range order {
			if err := w.putText(ctx, ids[i], docs[i]); err != nil {
				return fmt.Errorf("index %s: %w", docs[i].File.Path, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// SetWriteHook makes every file's write call hook with the file's path,
// inside its transaction, before anything is written: tests make it fail
// or panic, to show what a failed write leaves behind. nil removes it.
func (s *Store) SetWriteHook(hook func(path string)) {
	if hook == nil {
		s.writeHook.Store(nil)
		return
	}
	s.writeHook.Store(&hook)
}

// PutFailed records that a file could not be indexed, dropping any content
// an earlier version of it had in the index.
func (s *Store) PutFailed(ctx context.Context, f core.File) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *writeTx) error {
		var err error
		f.State = core.StateFailed
		if id, err = upsertFile(ctx, tx, f, "", "", "", false); err != nil {
			return err
		}
		tx.removed = append(tx.removed, id)
		return clearContent(ctx, tx, id)
	})
	if err != nil {
		return 0, fmt.Errorf("record failure of %s: %w", f.Path, err)
	}
	return id, nil
}

func upsertFile(ctx context.Context, tx *writeTx, f core.File, enrichBy, embedModel, lang string, ocrPending bool) (int64, error) {
	var keywords any
	if f.Keywords != nil {
		b, _ := json.Marshal(f.Keywords)
		keywords = string(b)
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO files(dir_id, path, filename, extension, mime, size, created_ns, modified_ns,
			accessed_ns, content_hash, state, error, title, summary, keywords, enrich_model, embed_model, indexed_ns, ocr_pending,
			device, inode, lang)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET dir_id = excluded.dir_id, filename = excluded.filename,
			extension = excluded.extension, mime = excluded.mime, size = excluded.size, created_ns = excluded.created_ns,
			modified_ns = excluded.modified_ns, accessed_ns = excluded.accessed_ns, content_hash = excluded.content_hash,
			state = excluded.state, error = excluded.error, title = excluded.title, summary = excluded.summary,
			keywords = excluded.keywords, enrich_model = excluded.enrich_model, embed_model = excluded.embed_model,
			indexed_ns = excluded.indexed_ns, ocr_pending = excluded.ocr_pending,
			device = excluded.device, inode = excluded.inode, lang = excluded.lang
		RETURNING id`,
		f.DirID, f.Path, f.Filename, f.Extension, f.Mime, f.Size, createdNS(f.Created), f.Modified.UnixNano(),
		f.Accessed.UnixNano(), f.ContentHash, f.State, f.Error, f.Title, f.Summary, keywords, enrichBy, embedModel,
		f.IndexedAt.UnixNano(), ocrPending, identity(f.Device), identity(f.Inode), lang).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("files: %w", err)
	}
	return id, nil
}

// identity is a device or inode number as stored: NULL when not known.
// SQLite's integers are signed; the bits round-trip through int64.
func identity(n uint64) any {
	if n == 0 {
		return nil
	}
	return int64(n)
}

// clearContent removes a file's full-text rows, chunks and vectors.
func clearContent(ctx context.Context, tx *writeTx, fileID int64) error {
	for _, q := range []string{
		`DELETE FROM fts_content WHERE rowid = ?`,
		`DELETE FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE file_id = ?)`,
		`DELETE FROM chunks WHERE file_id = ?`,
		`DELETE FROM fts_files WHERE rowid = ?`,
		`DELETE FROM fts_names WHERE rowid = ?`,
	} {
		res, err := tx.ExecContext(ctx, q, fileID)
		if err != nil {
			return fmt.Errorf("clear file %d: %w", fileID, err)
		}
		tx.count(q, res)
	}
	return nil
}

// docWriter holds the statements of one write transaction, prepared once
// for all the documents it writes.
type docWriter struct {
	tx                             *writeTx
	exists, chunk, ftsContent, vec *sql.Stmt
	ftsFile, ftsName               *sql.Stmt
}

func newDocWriter(ctx context.Context, tx *writeTx) (*docWriter, error) {
	w := &docWriter{tx: tx}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.exists, `SELECT id FROM files WHERE path = ?`},
		{&w.chunk, `INSERT INTO chunks(file_id, ord, text, pages) VALUES(?, ?, ?, ?)`},
		{&w.ftsContent, `INSERT INTO fts_content(rowid, text) VALUES(?, fts5_locale(?, ?))`},
		{&w.vec, `INSERT INTO vectors(chunk_id, vec) VALUES(?, ?)`},
		{&w.ftsFile, `INSERT INTO fts_files(rowid, name, path, title, keywords, summary) VALUES(?, ?, ?, ?, ?, ?)`},
		{&w.ftsName, `INSERT INTO fts_names(rowid, name) VALUES(?, ?)`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			w.close()
			return nil, err
		}
		*p.dst = st
	}
	return w, nil
}

func (w *docWriter) close() {
	for _, st := range []*sql.Stmt{w.exists, w.chunk, w.ftsContent, w.vec, w.ftsFile, w.ftsName} {
		if st != nil {
			st.Close()
		}
	}
}

// pagesValue is how a passage's pages are stored: NULL for none.
func pagesValue(p core.Pages) any {
	if len(p) == 0 {
		return nil
	}
	return p.String()
}

// count follows a delete's effect on the passage and content counts.
func (tx *writeTx) count(q string, res sql.Result) {
	n, _ := res.RowsAffected()
	switch {
	case strings.HasPrefix(q, "DELETE FROM chunks"):
		tx.passages -= n
	case strings.HasPrefix(q, "DELETE FROM fts_content"):
		tx.docs -= n
	}
}

// putRows writes a file's row, passages and vectors, clearing what an
// earlier version left, and returns its id.
func (w *docWriter) putRows(ctx context.Context, doc Document) (int64, error) {
	var old int64
	err := w.exists.QueryRowContext(ctx, doc.File.Path).Scan(&old)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	doc.File.State = core.StateIndexed
	id, err := upsertFile(ctx, w.tx, doc.File, doc.EnrichBy, doc.EmbedModel, doc.Lang, doc.OCRPending)
	if err != nil {
		return 0, err
	}
	if old != 0 {
		if err := clearContent(ctx, w.tx, id); err != nil {
			return 0, err
		}
	}
	vecs := make([][]byte, len(doc.Chunks))
	for i, c := range doc.Chunks {
		vecs[i] = c.Vec
	}
	w.tx.indexed = append(w.tx.indexed, Indexed{ID: id, EmbedModel: doc.EmbedModel, Vecs: vecs})
	w.tx.passages += int64(len(doc.Chunks))
	for i, c := range doc.Chunks {
		res, err := w.chunk.ExecContext(ctx, id, i, c.Text, pagesValue(c.Pages))
		if err != nil {
			return 0, fmt.Errorf("chunks: %w", err)
		}
		cid, _ := res.LastInsertId()
		if c.Vec != nil {
			if _, err := w.vec.ExecContext(ctx, cid, c.Vec); err != nil {
				return 0, fmt.Errorf("vectors: %w", err)
			}
		}
	}
	return id, nil
}

// putCard writes a file's name, path and card to fts_files.
func (w *docWriter) putCard(ctx context.Context, id int64, doc Document) error {
	f := doc.File
	if _, err := w.ftsFile.ExecContext(ctx, id, tokens.NameTerms(f.Filename), tokens.PathTerms(doc.Rel), f.Title, strings.Join(f.Keywords, " "), f.Summary); err != nil {
		return fmt.Errorf("fts_files: %w", err)
	}
	return nil
}

// retireAfter is the text of one file past which the writer's connection
// is closed after the write (conn.go): FTS5 grew its memory to hold the
// file's terms, and that memory would otherwise stay taken.
const retireAfter = 16 << 20

// putText writes a file's text to fts_content.
func (w *docWriter) putText(ctx context.Context, id int64, doc Document) error {
	if len(doc.Chunks) == 0 {
		return nil
	}
	texts := make([]string, len(doc.Chunks))
	for i, c := range doc.Chunks {
		texts[i] = c.Text
	}
	text := strings.Join(texts, "\n\n")
	if _, err := w.ftsContent.ExecContext(ctx, id, doc.Lang, text); err != nil {
		return fmt.Errorf("fts_content: %w", err)
	}
	if len(text) > retireAfter {
		w.tx.conn.retire()
	}
	w.tx.docs++
	return nil
}

// deleteFilesWhere removes the files matching a condition on the files
// table, with all their content.
func deleteFilesWhere(ctx context.Context, tx *writeTx, cond string, args ...any) error {
	sel := `SELECT id FROM files WHERE ` + cond
	rows, err := tx.QueryContext(ctx, sel, args...)
	if err != nil {
		return fmt.Errorf("delete files: %w", err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		tx.removed = append(tx.removed, id)
	}
	rows.Close()
	for _, q := range []string{
		`DELETE FROM fts_content WHERE rowid IN (` + sel + `)`,
		`DELETE FROM vectors WHERE chunk_id IN (SELECT c.id FROM chunks c WHERE c.file_id IN (` + sel + `))`,
		`DELETE FROM chunks WHERE file_id IN (` + sel + `)`,
		`DELETE FROM fts_files WHERE rowid IN (` + sel + `)`,
		`DELETE FROM fts_names WHERE rowid IN (` + sel + `)`,
		`DELETE FROM files WHERE ` + cond,
	} {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("delete files: %w", err)
		}
		tx.count(q, res)
	}
	return nil
}

// DeleteFileByPath removes one file from the index; it reports the removed
// file's id, or 0 when the index did not hold that path.
func (s *Store) DeleteFileByPath(ctx context.Context, path string) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *writeTx) error {
		err := tx.QueryRowContext(ctx, `SELECT id FROM files WHERE path = ?`, path).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		return deleteFilesWhere(ctx, tx, `id = ?`, id)
	})
	return id, err
}

// DeleteFiles removes files by id, in batches, and reports how many went.
func (s *Store) DeleteFiles(ctx context.Context, ids []int64) (int, error) {
	const batch = 500
	removed := 0
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		cond := `id IN (?` + strings.Repeat(`, ?`, len(part)-1) + `)`
		err := s.tx(ctx, func(tx *writeTx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE `+cond, args...).Scan(&n); err != nil {
				return err
			}
			removed += n
			return deleteFilesWhere(ctx, tx, cond, args...)
		})
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// FilePath is a file's id and path together with its watched folder's path.
type FilePath struct {
	ID      int64
	Path    string
	DirPath string
}

// FilePaths lists every file the index holds with its folder's path.
func (s *Store) FilePaths(ctx context.Context) ([]FilePath, error) {
	rows, err := s.rdb().QueryContext(ctx, `SELECT f.id, f.path, d.path FROM files f JOIN watched_directories d ON d.id = f.dir_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FilePath
	for rows.Next() {
		var fp FilePath
		if err := rows.Scan(&fp.ID, &fp.Path, &fp.DirPath); err != nil {
			return nil, err
		}
		out = append(out, fp)
	}
	return out, rows.Err()
}

// Stats summarises the files search finds (by content or by name).
func (s *Store) Stats(ctx context.Context) (core.FileStats, error) {
	st := core.FileStats{FileTypes: map[string]int64{}}
	var last sql.NullInt64
	err := s.rdb().QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(size), 0), MAX(indexed_ns),
			(SELECT COUNT(*) FROM files WHERE state = 'failed'), (SELECT COUNT(*) FROM files WHERE state = 'pending')
		FROM files WHERE `+searchable).Scan(&st.TotalFiles, &st.TotalSize, &last, &st.FailedFiles, &st.PendingFiles)
	if err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	if last.Valid && last.Int64 > 0 {
		t := time.Unix(0, last.Int64)
		st.LastIndexed = &t
	}
	rows, err := s.rdb().QueryContext(ctx, `SELECT extension, COUNT(*) FROM files WHERE `+searchable+` GROUP BY extension`)
	if err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ext string
		var n int64
		if err := rows.Scan(&ext, &n); err != nil {
			return st, err
		}
		st.FileTypes[ext] = n
	}
	return st, rows.Err()
}

// Problems lists a folder's files that failed or were indexed by name only
// (their record carries a reason), failures first, and counts them all.
func (s *Store) Problems(ctx context.Context, dirID int64, limit int) ([]core.File, int, error) {
	var total int
	if err := s.rdb().QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE dir_id = ? AND (state = 'failed' OR error != '')`,
		dirID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.rdb().QueryContext(ctx, `SELECT `+fileColumns+` FROM files WHERE dir_id = ? AND (state = 'failed' OR error != '')
		ORDER BY state = 'failed' DESC, path LIMIT ?`, dirID, limit)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []core.File
	for rows.Next() {
		f, err := scanFile(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, f)
	}
	return out, total, rows.Err()
}

// createdNS is a creation time as the files table holds it: 0 for none
// (a zero time's UnixNano is not 0).
func createdNS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
