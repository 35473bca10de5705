package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deflated is n bytes of spaces ending in a call of the form X1,
// compressed: about n/1000 bytes. Drawn as a page's content it decodes the
// form, whose content (the same) draws it again, a few levels deep: the
// decoded streams of every level are alive at once.
func deflated(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	block := bytes.Repeat([]byte(" "), 1<<20)
	for range n>>20 - 1 {
		w.Write(block)
	}
	w.Write(block[:1<<20-len(" /X1 Do\n")])
	w.Write([]byte(" /X1 Do\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pdfBomb builds a PDF of pages pages, each drawing streams content
// streams and one shared form XObject, every one of them inflating to per
// bytes: many streams, each within any per-stream cap, that add up.
func pdfBomb(t testing.TB, pages, streams, per int, filter string, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	obj := func(n int, dict string, stream []byte) {
		fmt.Fprintf(&out, "%d 0 obj\n%s", n, dict)
		if stream != nil {
			out.WriteString("\nstream\n")
			out.Write(stream)
			out.WriteString("\nendstream")
		}
		out.WriteString("\nendobj\n")
	}
	out.WriteString("%PDF-1.5\n")
	next := 4
	var kids []string
	for range pages {
		page := next
		next++
		var refs []string
		for range streams {
			refs = append(refs, fmt.Sprintf("%d 0 R", next+len(refs)))
		}
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		obj(page, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /Resources << /XObject << /X1 3 0 R >> >> /Contents [%s] >>", strings.Join(refs, " ")), nil)
		for range streams {
			obj(next, fmt.Sprintf("<< /Length %d /Filter %s >>", len(data), filter), data)
			next++
		}
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages), nil)
	obj(3, fmt.Sprintf("<< /Type /XObject /Subtype /Form /Length %d /Filter %s >>", len(data), filter), data)
	fmt.Fprintf(&out, "trailer\n<< /Root 1 0 R /Size %d >>\n%%%%EOF\n", next)
	return out.Bytes()
}

// runPDF extracts a PDF held in memory and returns its document budget.
func runPDF(t *testing.T, data []byte) (pdfMem, Document) {
	t.Helper()
	s := testSource("bomb.pdf", data, Options{})
	s.text = newSink(s.opt.MaxTextBytes)
	p, err := openPDF(s)
	if err != nil {
		t.Fatal(err)
	}
	var doc Document
	if err := p.extract(s, &doc); err != nil {
		t.Logf("extract: %v", err)
	}
	return p.mem, doc
}

// Every stream of a document draws on one budget, and decoded bytes are
// handed back once read: a bomb of many streams holds at most pdfHeldMax
// of decoded bytes at once, and decodes at most pdfDecodeBudget in all.
func TestPDFBombIsBoundedAcrossStreams(t *testing.T) {
	per := 12 << 20 // each stream alone is well inside any per-stream cap
	bomb := pdfBomb(t, 2, 2, per, "/FlateDecode", deflated(t, per))
	mem, doc := runPDF(t, bomb)
	t.Logf("bomb of %d KB: %d MB decoded, at most %d MB held at once", len(bomb)>>10, mem.spent>>20, mem.peak>>20)
	if mem.peak > pdfHeldMax || mem.peak < pdfHeldMax/2 {
		t.Errorf("held %d MB of decoded bytes at once, cap %d MB (the bomb must reach it)", mem.peak>>20, pdfHeldMax>>20)
	}
	if mem.spent > pdfDecodeBudget {
		t.Errorf("decoded %d MB in all, budget %d MB", mem.spent>>20, pdfDecodeBudget>>20)
	}
	if mem.held != 0 {
		t.Errorf("%d bytes never handed back: the accounting leaks", mem.held)
	}
	if doc.Meta["pages"] != "2" {
		t.Errorf("pages %q", doc.Meta["pages"])
	}
}

// Filters other than Flate draw on the same budget: a chain of hex and
// Flate is charged for both steps, and the first is handed back.
func TestPDFFilterChainsShareTheBudget(t *testing.T) {
	per := 1 << 20
	z := deflated(t, per)
	hexed := []byte(hex.EncodeToString(z) + ">")
	mem, _ := runPDF(t, pdfBomb(t, 1, 1, per, "[/ASCIIHexDecode /FlateDecode]", hexed))
	if mem.held != 0 || mem.peak > pdfHeldMax {
		t.Fatalf("held %d at the end, peak %d", mem.held, mem.peak)
	}
	// One page of one part (and its newline) drawing the form, which draws
	// itself twice more: four streams, each a hex step and a Flate step.
	if want := int64(4*(len(z)+per) + 1); mem.spent != want {
		t.Fatalf("decoded %d bytes, want %d: a step went uncounted", mem.spent, want)
	}
}

// A PDF larger than pdfMaxFile is not read into memory, whatever the size
// limit says: a sparse file of 200 MB costs nothing.
func TestHugePDFIsNotReadWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 200<<20); err != nil {
		t.Fatal(err)
	}
	var before, after runtimeMem
	before.read()
	doc, err := Extract(context.Background(), path, Options{MaxFileSize: 1 << 30})
	after.read()
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.total - before.total; grew > 16<<20 {
		t.Errorf("allocated %d MB for a 200 MB sparse PDF", grew>>20)
	}
	if doc.Format != "pdf" || !strings.Contains(doc.Warning, "larger than 128 MB") {
		t.Errorf("%+v", doc)
	}
}
