package mcp

import (
	"context"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/backend/core"
	"trove/backend/service"
)

// Preview text: defaultPreview bytes unless the agent asks for more, and
// never more than fits under MaxBytes with the other fields. A text too
// long for that is shown as excerpts around its matches, each with
// excerptContext bytes on either side.
const (
	defaultPreview = 8 << 10
	maxPreview     = MaxBytes - 2<<10
	excerptContext = 240
	excerptGap     = "[…]"
)

var previewTool = &sdk.Tool{
	Name:  "preview",
	Title: "Read a file's text",
	Description: `The text Trove indexed of one file (for a PDF or an office document, the text extracted from it), with the query's matching words in **bold**.
A long text is shown as excerpts around the matches, separated by [...]; without matches, its beginning. Name the file by id (from search) or path.`,
	Annotations: readOnly,
}

// PreviewInput names the file and what to look for in it.
type PreviewInput struct {
	ID       int64  `json:"id,omitempty" jsonschema:"the file's id, from search"`
	Path     string `json:"path,omitempty" jsonschema:"the file's absolute path, instead of id"`
	Query    string `json:"query,omitempty" jsonschema:"words to mark and to show excerpts around"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"at most this much text, in bytes (default 8192, at most 30720)"`
}

// PreviewOutput is the preview tool's answer.
type PreviewOutput struct {
	ID      int64  `json:"id"`
	Path    string `json:"path"`
	Title   string `json:"title"`
	Mime    string `json:"mime"`
	Matches int    `json:"matches"`
	Text    string `json:"text"`
	// Excerpts says Text holds parts of the file around its matches;
	// Truncated that the text, or the excerpts, stop before the end.
	Excerpts  bool `json:"excerpts"`
	Truncated bool `json:"truncated"`
	// TextBytes is the length of the whole indexed text, marks included.
	TextBytes int `json:"text_bytes"`
}

func (t tools) preview(ctx context.Context, in PreviewInput) (answer, error) {
	budget := in.MaxBytes
	switch {
	case budget == 0:
		budget = defaultPreview
	case budget < 1 || budget > maxPreview:
		return answer{}, core.FailField(core.OutOfRange, "max_bytes", "must be 1 to %d, got %d", maxPreview, budget)
	}
	id, err := t.fileID(ctx, in.ID, in.Path)
	if err != nil {
		return answer{}, err
	}
	p, err := t.svc.Preview(ctx, id, in.Query)
	if err != nil {
		return answer{}, err
	}
	text, marks := render(p.Parts)
	out := PreviewOutput{ID: p.File.ID, Path: p.File.Path, Title: titleOf(p.File), Mime: p.File.Mime, Matches: p.Matches,
		TextBytes: len(text), Truncated: p.Truncated}
	switch {
	case len(text) <= budget:
		out.Text = text
	case len(marks) > 0:
		out.Text, out.Truncated = excerpts(text, marks, budget), true
		out.Excerpts = true
	default:
		out.Text, out.Truncated = cut(text, budget), true
	}
	// The JSON escapes of a text (quotes, control characters, invalid
	// UTF-8) can make it longer than its bytes: shorten until it fits.
	for over := jsonSize(out) - MaxBytes; over > 0; over = jsonSize(out) - MaxBytes {
		out.Text, out.Truncated = cut(out.Text, len(out.Text)-over-len("…")), true
	}
	return answer{out: out, files: []string{out.Path}}, nil
}

// span is a marked stretch of a rendered text, in bytes.
type span struct{ from, to int }

// render writes a preview's parts as one text, matches in **bold**, and
// where each mark is.
func render(parts []service.PreviewPart) (string, []span) {
	var b strings.Builder
	var marks []span
	for _, p := range parts {
		if !p.Mark {
			b.WriteString(p.Text)
			continue
		}
		from := b.Len()
		b.WriteString("**" + p.Text + "**")
		marks = append(marks, span{from, b.Len()})
	}
	return b.String(), marks
}

// excerpts shows text around its marks, nearby ones merged, in order,
// until budget bytes.
func excerpts(text string, marks []span, budget int) string {
	var windows []span
	for _, m := range marks {
		w := span{runeStart(text, max(0, m.from-excerptContext)), runeStart(text, min(len(text), m.to+excerptContext))}
		if n := len(windows); n > 0 && w.from <= windows[n-1].to {
			windows[n-1].to = max(windows[n-1].to, w.to)
			continue
		}
		windows = append(windows, w)
	}
	var b strings.Builder
	for i, w := range windows {
		piece := strings.TrimSpace(text[w.from:w.to])
		switch {
		case i > 0:
			piece = "\n" + excerptGap + "\n" + piece
		case w.from > 0:
			piece = excerptGap + "\n" + piece
		}
		if b.Len()+len(piece) > budget {
			b.WriteString(cut(piece, budget-b.Len()))
			break
		}
		b.WriteString(piece)
	}
	return b.String()
}

// runeStart moves i back to the start of the character it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
