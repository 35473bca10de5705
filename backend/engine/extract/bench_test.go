package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func benchFile(b *testing.B, name string, data []byte) {
	p := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		if _, err := Extract(ctx, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func sourceText(n int) []byte {
	line := "func handle(w http.ResponseWriter, r *http.Request) { // serve the numbat index\n"
	return []byte(strings.Repeat(line, n/len(line)+1)[:n])
}

func BenchmarkPlainText20KB(b *testing.B) { benchFile(b, "main.go", sourceText(20<<10)) }

func BenchmarkHTML20KB(b *testing.B) {
	page := "<html><head><title>T</title></head><body>" +
		strings.Repeat("<p>Some <b>bold</b> text and a <a href=\"x\">link</a> in a paragraph.</p>\n", 280) + "</body></html>"
	benchFile(b, "page.html", []byte(page))
}

func BenchmarkMarkdown20KB(b *testing.B) {
	benchFile(b, "notes.md", []byte(strings.Repeat("Some *emphasis* and a [link](http://x.y) in `code`.\n", 400)))
}

func BenchmarkPDF(b *testing.B)  { benchFile(b, "writer.pdf", fixtureBytes(b, "writer.pdf")) }
func BenchmarkDOCX(b *testing.B) { benchFile(b, "writer.docx", fixtureBytes(b, "writer.docx")) }

func BenchmarkBinary32KB(b *testing.B) {
	data := make([]byte, 32<<10)
	copy(data, "\x7fELF\x02\x01\x01")
	for i := 64; i < len(data); i++ {
		data[i] = byte(i * 31)
	}
	benchFile(b, "prog", data)
}
