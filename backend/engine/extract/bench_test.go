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

func BenchmarkDOC(b *testing.B)  { benchFile(b, "writer.doc", fixtureBytes(b, "writer.doc")) }
func BenchmarkXLS(b *testing.B)  { benchFile(b, "calc.xls", fixtureBytes(b, "calc.xls")) }
func BenchmarkPPT(b *testing.B)  { benchFile(b, "impress.ppt", gunzipFixture(b, "impress.ppt.gz")) }
func BenchmarkMOBI(b *testing.B) { benchFile(b, "writer.azw3", fixtureBytes(b, "writer.azw3")) }
func BenchmarkSevenZip(b *testing.B) {
	benchFile(b, "solid.7z", fixtureBytes(b, "solid.7z"))
}

func BenchmarkRAR(b *testing.B) {
	benchFile(b, "stored.rar", rar5(rarEntry{name: "a.txt", data: sourceText(20 << 10)}, rarEntry{name: "b.md", data: sourceText(20 << 10)}))
}
