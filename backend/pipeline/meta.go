package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"time"

	"trove/backend/chunk"
	"trove/backend/core"
	"trove/backend/extract"
)

// fileMeta fills a file record from its stat.
func fileMeta(path string, st fs.FileInfo, dirID int64) core.File {
	name := filepath.Base(path)
	f := core.File{
		DirID: dirID, Path: path, Filename: name, Extension: extensionOf(name),
		Size: st.Size(), Modified: st.ModTime(),
	}
	f.Accessed, f.Created = fileTimes(path, st) // per OS: times_*.go
	return f
}

// extensionOf is the lower-case extension with its dot; "" for none, and
// for dot-files such as ".bashrc", whose whole name is not an extension.
func extensionOf(name string) string {
	ext := filepath.Ext(name)
	if ext == name {
		return ""
	}
	return strings.ToLower(ext)
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func maxFileSize(cfg core.Settings) int64 {
	return int64(cfg.Extraction.MaxFileSizeMB * (1 << 20))
}

func extractOptions(cfg core.Settings) extract.Options {
	return extract.Options{
		MaxFileSize:  maxFileSize(cfg),
		MaxTextBytes: int(cfg.Extraction.MaxTextMB * (1 << 20)),
		Timeout:      time.Duration(cfg.Extraction.TimeoutSeconds * float64(time.Second)),
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

// chunkText cuts the text into passages; a file without text still gets no
// passages (it is found by name, path and type).
func chunkText(text string) []string { return chunk.Split(text) }

// metadataOrder lists the extracted metadata worth searching, in the order
// they read best.
var metadataOrder = []string{"author", "from", "to", "date", "artist", "album", "year", "genre", "camera", "created",
	"width", "height", "pages", "sheets", "slides", "messages", "attachments", "entries", "language"}

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
