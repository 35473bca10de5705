// Package extract turns files into text and metadata: one file per format
// family, chosen by content sniffing as well as by extension.
package extract

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Options bound the work spent on one file.
type Options struct {
	MaxFileSize  int64         // larger files are indexed by metadata only
	MaxTextBytes int           // extracted text is cut at this many bytes
	Timeout      time.Duration // per file
}

// Document is what extraction learned about a file.
type Document struct {
	Text    string            // UTF-8 plain text; "" when none
	Title   string            // the document's own title (metadata or first heading); "" if none
	Mime    string            // detected media type
	Format  string            // the family that produced it: "text", "markdown", "pdf", ..., "metadata"
	Meta    map[string]string // author, camera, artist, ... when cheap to read
	Warning string            // why content was not (fully) indexed; "" when all is well
}

// Extract reads the file at path. It returns an error only when the file
// cannot be read at all (it vanished, permission denied, I/O error); such
// errors wrap the fs errors. Problems with the content itself (too big,
// encrypted, corrupt, a parser panic, the time limit) give a metadata-only
// Document whose Warning says why.
func Extract(ctx context.Context, path string, opt Options) (Document, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Document{}, err
	}
	if opt.MaxFileSize > 0 && st.Size() > opt.MaxFileSize {
		return Document{Format: "metadata", Mime: "application/octet-stream",
			Warning: fmt.Sprintf("larger than %d MB: indexed by name only", opt.MaxFileSize>>20)}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Document{}, err
	}
	defer f.Close()
	limit := int64(opt.MaxTextBytes)
	if limit <= 0 {
		limit = 10 << 20
	}
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return Document{}, err
	}
	if isBinary(data) {
		return Document{Format: "metadata", Mime: "application/octet-stream"}, nil
	}
	doc := Document{Text: strings.ToValidUTF8(string(data), "\uFFFD"), Format: "text", Mime: "text/plain"}
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".md" || ext == ".markdown" {
		doc.Format, doc.Mime = "markdown", "text/markdown"
		doc.Title = firstHeading(doc.Text)
	}
	return doc, nil
}

func isBinary(data []byte) bool {
	head := data[:min(len(data), 8000)]
	for _, b := range head {
		if b == 0 {
			return true
		}
	}
	return !utf8.Valid(head) && len(head) > 0 && !looksLatin1(head)
}

func looksLatin1(b []byte) bool {
	ctrl := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			ctrl++
		}
	}
	return ctrl*20 < len(b)
}

func firstHeading(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}
