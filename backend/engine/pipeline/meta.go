package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"path/filepath"
	"strings"
	"time"

	"trove/backend/core"
	"trove/backend/engine/extract"
	"trove/backend/engine/scan"
	"trove/backend/engine/text/chunk"
	"trove/backend/platform/fileread"
	"trove/backend/store"
)

// fileMeta fills a file record from its stat.
func fileMeta(path string, st fs.FileInfo, dirID int64) core.File {
	name := filepath.Base(path)
	f := core.File{
		DirID: dirID, Path: path, Filename: name, Extension: core.ExtensionOf(name),
		Size: st.Size(), Modified: st.ModTime(),
	}
	f.Device, f.Inode = fileread.Identity(st)
	var birth time.Time
	f.Accessed, birth = fileTimes(path, st) // per OS: times_*.go
	f.Created = core.CreatedOr(birth, f.Modified)
	return f
}

// NameOf is the names pass's record of a file a walk found, from its
// Lstat: name, path, size, dates and identity, nothing read. Its content
// is pending, or, in a names-only folder, never to be read.
func NameOf(f Folder, path string, st fs.FileInfo) store.Name {
	meta := fileMeta(path, st, f.ID)
	meta.State = core.StatePending
	if f.NamesOnly {
		meta.State, meta.IndexedAt = core.StateNamed, time.Now()
	}
	return store.Name{File: meta, Rel: scan.Rel(f.Root, path)}
}

// hashFile hashes the bytes of the file checked as want, read below root
// under ctx (the file's deadline). A file that grew past most since it was
// checked gets no hash, as one that was larger to begin with.
func hashFile(ctx context.Context, root, path string, want fs.FileInfo, most int64) (string, error) {
	f, err := fileread.Open(ctx, root, path, want)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if f.Size() > most {
		return "", nil
	}
	h := sha256.New()
	if _, err := io.CopyBuffer(h, f.Reader(), make([]byte, 128<<10)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func maxFileSize(cfg core.Settings) int64 {
	return int64(cfg.Extraction.MaxFileSizeMB * (1 << 20))
}

// fileTimeout is the time one file may take to be read, hashing and
// extraction together (extraction.timeout_seconds).
func fileTimeout(cfg core.Settings) time.Duration {
	if d := time.Duration(cfg.Extraction.TimeoutSeconds * float64(time.Second)); d > 0 {
		return d
	}
	return extract.DefaultOptions().Timeout
}

func extractOptions(cfg core.Settings, root string, checked fs.FileInfo) extract.Options {
	return extract.Options{
		MaxFileSize:  maxFileSize(cfg),
		MaxTextBytes: int(cfg.Extraction.MaxTextMB * (1 << 20)),
		Timeout:      fileTimeout(cfg),
		Root:         root,
		Expect:       checked,
		OCR:          cfg.Extraction.OCR,
	}
}

func mimeOf(doc extract.Document, ext string) string {
	if doc.Mime != "" && doc.Mime != "application/octet-stream" {
		return doc.Mime
	}
	if m := mime.TypeByExtension(ext); m != "" {
		return m
	}
	return doc.Mime
}

// chunkText cuts the text into passages, each with the pages it was read
// from when the first paged bytes of the text have pages (the metadata
// lines after them have none); a file without text still gets no passages
// (it is found by name, path and type).
func chunkText(text string, pages core.Pages, paged int) []store.Chunk {
	spans := chunk.Spans(text)
	out := make([]store.Chunk, len(spans))
	for i, sp := range spans {
		out[i].Text = text[sp.Start:sp.End]
		if sp.Start < paged {
			out[i].Pages = pages.Slice(sp.Start, min(sp.End, paged))
		}
	}
	return out
}

// texts are the chunks' texts.
func texts(chunks []store.Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = c.Text
	}
	return out
}

// metadataOrder lists the extracted metadata worth searching, in the order
// they read best.
var metadataOrder = []string{"author", "from", "to", "date", "artist", "album", "year", "genre", "camera", "created",
	"width", "height", "pages", "sheets", "slides", "messages", "attachments", "entries", "language", "ocr"}

// withMetadata appends the document's metadata to its text as
// "key: value" lines, so a photo is found by its camera, a song by its
// artist and a report by its author.
func withMetadata(doc extract.Document) string {
	if len(doc.Meta) == 0 {
		return doc.Text
	}
	var b strings.Builder
	b.WriteString(doc.Text)
	if doc.Text != "" {
		b.WriteString("\n\n")
	}
	for _, k := range metadataOrder {
		if v := strings.TrimSpace(doc.Meta[k]); v != "" {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	return b.String()
}
