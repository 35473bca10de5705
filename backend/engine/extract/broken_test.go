package extract

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fixtureBytes(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTruncatedPDF(t *testing.T) {
	data := fixtureBytes(t, "writer.pdf")
	for _, keep := range []int{len(data) * 9 / 10, len(data) / 2, 400} {
		doc := extractBytes(t, "cut.pdf", data[:keep], Options{})
		if doc.Format != "pdf" || !strings.HasPrefix(doc.Warning, "truncated PDF") {
			t.Errorf("kept %d bytes: format %q, warning %q", keep, doc.Format, doc.Warning)
		}
	}
}

func TestCorruptPDF(t *testing.T) {
	doc := extractBytes(t, "junk.pdf", []byte("%PDF-1.7\nthis is not a pdf at all\n%%EOF\n"), Options{})
	if doc.Format != "pdf" || doc.Warning != "corrupt PDF: no pages could be read" {
		t.Errorf("%+v", doc)
	}
}

// TestEncryptedPDF: a PDF locked with a user password says so.
func TestEncryptedPDF(t *testing.T) {
	doc, err := Extract(t.Context(), "testdata/encrypted.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Format != "pdf" || doc.Text != "" || doc.Warning != "encrypted PDF that needs a password: contents not indexed" {
		t.Errorf("%+v", doc)
	}
}

// rezip copies a zip file, leaving out or replacing entries.
func rezip(t *testing.T, data []byte, drop string, add map[string]string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name == drop {
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range add {
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDOCXMissingPart(t *testing.T) {
	data := rezip(t, fixtureBytes(t, "writer.docx"), "word/document.xml", nil)
	doc := extractBytes(t, "broken.docx", data, Options{})
	if doc.Format != "docx" || doc.Text != "" ||
		doc.Warning != "DOCX without its main part (word/document.xml): contents not indexed" {
		t.Errorf("%+v", doc)
	}
	if doc.Title != "Quokka Field Notes" {
		t.Errorf("the metadata should survive: title %q", doc.Title)
	}
}

func TestOfficeNotAZip(t *testing.T) {
	for _, name := range []string{"junk.docx", "junk.xlsx", "junk.odt", "junk.epub"} {
		doc := extractBytes(t, name, []byte(strings.Repeat("not a zip ", 50)), Options{})
		if !strings.HasPrefix(doc.Warning, "corrupt ") || doc.Text != "" {
			t.Errorf("%s: %+v", name, doc)
		}
	}
}

// zerosDeflate builds a deflate stream of n MB of zeros without compressing
// them all: after two flushes, each further megabyte compresses to the same
// bytes.
func zerosDeflate(t testing.TB, mb int) (stream []byte, crc uint32) {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	zeros := make([]byte, 1<<20)
	var chunks [][]byte
	for i := 0; i < 3; i++ {
		w.Write(zeros)
		w.Flush()
		chunks = append(chunks, bytes.Clone(buf.Bytes()))
		buf.Reset()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tail := bytes.Clone(buf.Bytes())
	if !bytes.Equal(chunks[1], chunks[2]) {
		t.Fatal("deflate output of zeros is not periodic")
	}
	out := append(bytes.Clone(chunks[0]), chunks[1]...)
	for i := 2; i < mb; i++ {
		out = append(out, chunks[2]...)
	}
	for i := 0; i < mb; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	return append(out, tail...), crc
}

func bombZip(t testing.TB, entry string, extra map[string]string) []byte {
	stream, crc := zerosDeflate(t, 1024)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range extra {
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	w, err := zw.CreateRaw(&zip.FileHeader{Name: entry, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(stream)), UncompressedSize64: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(stream)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestZipBomb(t *testing.T) {
	start := time.Now()
	data := bombZip(t, "zeros.txt", map[string]string{"readme.txt": "the kookaburrakebab archive"})
	doc := extractBytes(t, "bomb.zip", data, Options{})
	if doc.Format != "archive" || !strings.Contains(doc.Warning, "zip bomb") {
		t.Errorf("%+v", doc)
	}
	if !strings.Contains(doc.Text, "kookaburrakebab") || !strings.Contains(doc.Text, "zeros.txt") {
		t.Errorf("the rest of the archive should be indexed: %q", doc.Text)
	}
	docx := bombZip(t, "word/document.xml", map[string]string{"[Content_Types].xml": "<Types/>"})
	doc = extractBytes(t, "bomb.docx", docx, Options{})
	if doc.Format != "docx" || !strings.Contains(doc.Warning, "zip bomb") {
		t.Errorf("%+v", doc)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("took %v", d)
	}
}

// The budget stops reading even when the headers look harmless.
func TestZipBudget(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("a.txt")
	w.Write(bytes.Repeat([]byte("abcdefgh"), 8<<10))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	s := testSource("a.zip", buf.Bytes(), Options{})
	z, err := openZip(s)
	if err != nil {
		t.Fatal(err)
	}
	z.left = 1000
	rc, err := z.open("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc)
	if err == nil || !strings.Contains(err.Error(), "zip bomb") || n > 64<<10 {
		t.Errorf("read %d bytes, err %v", n, err)
	}
}

func TestZipTooManyEntries(t *testing.T) {
	// An end record claiming 65534 entries, as a crafted file would.
	eocd := []byte("PK\x05\x06\x00\x00\x00\x00\xfe\xff\xfe\xff\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00")
	data := append([]byte("PK\x03\x04"+strings.Repeat("\x00", 100)), eocd...)
	doc := extractBytes(t, "many.zip", data, Options{})
	if !strings.Contains(doc.Warning, "entries") || doc.Format != "archive" {
		t.Errorf("%+v", doc)
	}
}

func makeZip(files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, _ := zw.Create(name)
		w.Write(content)
	}
	zw.Close()
	return buf.Bytes()
}

func TestArchiveOneLevelOnly(t *testing.T) {
	inner := makeZip(map[string][]byte{"deep.txt": []byte("innermostpavlova")})
	outer := makeZip(map[string][]byte{
		"inner.zip":      inner,
		"docs/notes.txt": []byte("the lamingtonloaf recipe"),
		"img/logo.png":   []byte("\x89PNG\r\n\x1a\nbinarystuffword"),
	})
	doc := extractBytes(t, "outer.zip", outer, Options{})
	for _, w := range []string{"inner.zip", "docs/notes.txt", "lamingtonloaf", "img/logo.png"} {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("lacks %q: %q", w, doc.Text)
		}
	}
	for _, w := range []string{"innermostpavlova", "binarystuffword"} {
		if strings.Contains(doc.Text, w) {
			t.Errorf("has %q", w)
		}
	}
	if doc.Meta["entries"] != "3" || doc.Warning != "" {
		t.Errorf("%+v", doc)
	}
}

func TestTarGzAndGzip(t *testing.T) {
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: "src/tarentry.go", Mode: 0o644, Size: 3})
	tw.Write([]byte("abc"))
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(tb.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	doc := extractBytes(t, "src.tar.gz", gz.Bytes(), Options{})
	if doc.Format != "archive" || !strings.Contains(doc.Text, "src/tarentry.go") {
		t.Errorf("tar.gz: %+v", doc)
	}
	doc = extractBytes(t, "src.tar", tb.Bytes(), Options{})
	if doc.Format != "archive" || !strings.Contains(doc.Text, "src/tarentry.go") {
		t.Errorf("tar: %+v", doc)
	}
	gz.Reset()
	zw = gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte("a compressed changelog about emuomelette")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	doc = extractBytes(t, "changelog.gz", gz.Bytes(), Options{})
	if doc.Format != "text" || !strings.Contains(doc.Text, "emuomelette") {
		t.Errorf("gz: %+v", doc)
	}
}

func TestDeepNesting(t *testing.T) {
	deep := func(open, close string, n int) []byte {
		return []byte(strings.Repeat(open, n) + "abyssword" + strings.Repeat(close, n))
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"deep.json", []byte(strings.Repeat("[", 5000) + `"abyssword"` + strings.Repeat("]", 5000)), "JSON nested deeper than 512 levels"},
		{"deep.xml", deep("<a>", "</a>", 5000), "XML nested deeper than 512 levels"},
		{"deep.rtf", append([]byte(`{\rtf1 `), deep("{", "}", 5000)...), "RTF nested deeper than 512 groups"},
		{"deep.docx", makeZip(map[string][]byte{"word/document.xml": deep("<w:p>", "</w:p>", 5000)}), "XML nested deeper"},
	}
	for _, c := range cases {
		doc := extractBytes(t, c.name, c.data, Options{})
		if !strings.HasPrefix(doc.Warning, c.want) {
			t.Errorf("%s: warning %q", c.name, doc.Warning)
		}
	}
	// Recursive parsers never see deep input: it is indexed as text.
	for _, name := range []string{"deep.yaml", "deep.toml"} {
		doc := extractBytes(t, name, deep("[", "]", 100000), Options{})
		if doc.Format != "text" || !strings.Contains(doc.Text, "abyssword") {
			t.Errorf("%s: %q %q", name, doc.Format, doc.Warning)
		}
	}
}

func TestInvalidDataFallsBackToText(t *testing.T) {
	cases := map[string]string{
		"bad.json": `{"unclosed": "jabirujelly"`,
		"bad.yaml": "key: [unclosed jabirujelly\n  - : :",
		"bad.toml": "this is = = not toml jabirujelly",
		"bad.xml":  `<a b="jabirujelly`,
	}
	for name, content := range cases {
		doc := extractBytes(t, name, []byte(content), Options{})
		if doc.Format != "text" || doc.Warning != "" || !strings.Contains(doc.Text, "jabirujelly") {
			t.Errorf("%s: %+v", name, doc)
		}
	}
}

func TestYAMLAliasesNotExpanded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString(n + ": &" + n + " [")
		for i := 0; i < 9; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = n
	}
	doc := extractBytes(t, "laughs.yaml", []byte(b.String()), Options{})
	if doc.Format != "yaml" || len(doc.Text) > 1000 {
		t.Errorf("format %q, %d bytes", doc.Format, len(doc.Text))
	}
}
