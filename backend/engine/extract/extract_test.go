package extract

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

type fixture struct {
	file   string
	format string
	title  string
	words  []string          // must appear in Text
	absent []string          // must not appear in Text
	meta   map[string]string // must appear in Meta
}

var fixtures = []fixture{
	{file: "source.go", format: "text", words: []string{"wallabywaffle"}},
	{file: "latin1.txt", format: "text", words: []string{"bandicootbagel", "Café crème brûlée", "“smart quotes”"}},
	{file: "utf16le.txt", format: "text", words: []string{"thylacinetoast", "€"}},
	{file: "utf16be.txt", format: "text", words: []string{"sugarglidersoup"}},
	{file: "notes.md", format: "markdown", title: "Koala Handbook",
		words:  []string{"koalacrumpet", "fresh leaves", "a photo of a koala", "inline_code", "snake_case_word", "codeblockword", "Getting Started"},
		absent: []string{"eucalyptus-url-only", "referenceonlyurl", "**", "```", "title: Koala"},
		meta:   map[string]string{"author": "Mary Shelley"}},
	{file: "page.html", format: "html", title: "Wallaby Gazette",
		words:  []string{"kangaroojam", "festival & more", "Front Page"},
		absent: []string{"scriptonlyword", "quokkaloaf-style", "noscriptonlyword", "<b>"},
		meta:   map[string]string{"author": "Grace Hopper"}},
	{file: "writer.pdf", format: "pdf", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn"},
		meta: map[string]string{"author": "Ada Lovelace", "pages": "1"}},
	{file: "objstm.pdf", format: "pdf", title: "Quokka Field Notes", words: []string{"quokkaloaf"}},
	{file: "writer.docx", format: "docx", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn"},
		meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "writer.odt", format: "odt", title: "Quokka Field Notes", words: []string{"quokkaloaf", "Observations at Dawn"},
		meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "writer.rtf", format: "rtf", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café"},
		absent: []string{"Times New Roman", "\\par"}, meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "writer.epub", format: "epub", title: "Quokka Field Notes", words: []string{"quokkaloaf", "Observations at Dawn"},
		meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "calc.xlsx", format: "xlsx", title: "Marsupial Ledger", words: []string{"wombatcrumble", "Marsupials", "Burrows", "bilbyburrow", "42"}},
	{file: "calc.ods", format: "ods", title: "Marsupial Ledger", words: []string{"wombatcrumble", "Marsupials", "bilbyburrow"}},
	{file: "writer.doc", format: "doc", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn", "tab\tand"},
		meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "calc.xls", format: "xls", title: "Marsupial Ledger", words: []string{"Marsupials\nName\tCount\nwombatcrumble\t42", "Burrows\nbilbyburrow"},
		meta: map[string]string{"sheets": "2"}},
	{file: "writer.mobi", format: "mobi", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn"},
		meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "writer.azw3", format: "mobi", title: "Quokka Field Notes", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn"},
		absent: []string{"margin", "{"}, meta: map[string]string{"author": "Ada Lovelace"}},
	{file: "impress.pptx", format: "pptx", title: "Platypus Symposium", words: []string{"platypusbrioche", "echidnamuffin"}},
	{file: "impress.odp", format: "odp", title: "Platypus Symposium", words: []string{"platypusbrioche", "echidnamuffin"}},
	{file: "message.eml", format: "eml", title: "Dingo déjà vu", words: []string{"dingoscone", "Café at noon"},
		absent: []string{"(html)", "JVBERi0"},
		meta:   map[string]string{"from": "Alice Example <alice@example.com>", "attachments": "recipe.pdf"}},
	{file: "inbox.mbox", format: "mbox", words: []string{"emupudding", "possumpie", "First wombat", "Second wombat", "\nFrom here on"},
		absent: []string{"<i>"}, meta: map[string]string{"messages": "2"}},
	{file: "animals.csv", format: "csv", words: []string{`likes "devilcake", a lot`, "numbat\twoodland"}},
	{file: "animals.tsv", format: "csv", words: []string{"quolltart"}},
	{file: "config.json", format: "json", words: []string{"cassowarycurry", "species: ", "tab\there é"}},
	{file: "config.yaml", format: "yaml", title: "Lyrebird settings", words: []string{"lyrebirdlatte", "key: value"}},
	{file: "config.toml", format: "toml", title: "Galah Config", words: []string{"galahgoulash", "bird: cockatoo"}},
	{file: "feed.xml", format: "xml", title: "Echidna Feed", words: []string{"echidnaeclair", "First post"}},
	{file: "photo.jpg", format: "image",
		meta: map[string]string{"camera": "Trovecam QX-7", "created": "2021-03-04 05:06:07", "width": "24", "height": "16"}},
	{file: "tone.flac", format: "audio", title: "Song of the Numbat",
		meta: map[string]string{"artist": "The Bandicoots", "album": "Outback Tapes"}},
}

func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			doc, err := Extract(context.Background(), filepath.Join("testdata", fx.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkDoc(t, doc, fx)
		})
	}
}

func checkDoc(t *testing.T, doc Document, fx fixture) {
	t.Helper()
	if doc.Warning != "" {
		t.Errorf("warning %q", doc.Warning)
	}
	if doc.Format != fx.format {
		t.Errorf("format %q, want %q", doc.Format, fx.format)
	}
	if doc.Title != fx.title {
		t.Errorf("title %q, want %q", doc.Title, fx.title)
	}
	if doc.Mime == "" {
		t.Error("no mime type")
	}
	if !utf8.ValidString(doc.Text) {
		t.Error("text is not UTF-8")
	}
	for _, w := range fx.words {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, doc.Text)
		}
	}
	for _, w := range fx.absent {
		if strings.Contains(doc.Text, w) {
			t.Errorf("text has %q:\n%s", w, doc.Text)
		}
	}
	for k, v := range fx.meta {
		if doc.Meta[k] != v {
			t.Errorf("meta %s = %q, want %q (all: %v)", k, doc.Meta[k], v, doc.Meta)
		}
	}
}

// Content sniffing must find the format when the extension says nothing.
func TestDetectWithoutExtension(t *testing.T) {
	cases := map[string]string{
		"writer.pdf": "pdf", "writer.docx": "docx", "calc.xlsx": "xlsx", "impress.pptx": "pptx",
		"writer.odt": "odt", "calc.ods": "ods", "impress.odp": "odp", "writer.epub": "epub",
		"writer.rtf": "rtf", "writer.doc": "doc", "calc.xls": "xls", "page.html": "html", "feed.xml": "xml", "message.eml": "eml",
		"inbox.mbox": "mbox", "photo.jpg": "image", "tone.flac": "audio", "source.go": "text",
	}
	dir := t.TempDir()
	for file, want := range cases {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strings.TrimSuffix(file, filepath.Ext(file))+"-noext")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		doc, err := Extract(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if doc.Format != want {
			t.Errorf("%s without extension: format %q, want %q", file, doc.Format, want)
		}
	}
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func extractBytes(t *testing.T, name string, data []byte, opt Options) Document {
	t.Helper()
	doc, err := Extract(context.Background(), writeFile(t, name, data), opt)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestEmptyFile(t *testing.T) {
	for _, name := range []string{"empty.txt", "empty.pdf", "empty.docx", "empty"} {
		doc := extractBytes(t, name, nil, Options{})
		if doc.Format != "metadata" || doc.Text != "" || doc.Warning != "" {
			t.Errorf("%s: %+v", name, doc)
		}
	}
}

func TestBinaryIsMetadataOnly(t *testing.T) {
	data := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00")
	doc := extractBytes(t, "prog", append(data, make([]byte, 200)...), Options{})
	if doc.Format != "metadata" || doc.Text != "" || doc.Warning != "" {
		t.Errorf("ELF: %+v", doc)
	}
	doc = extractBytes(t, "blob.txt", []byte("abc\x00\x01\x02\x03def"), Options{})
	if doc.Format != "metadata" || doc.Text != "" || doc.Warning != "" {
		t.Errorf("NUL bytes: %+v", doc)
	}
}

func TestLargerThanMaxFileSize(t *testing.T) {
	doc := extractBytes(t, "big.txt", []byte(strings.Repeat("wombat ", 300)), Options{MaxFileSize: 1 << 10})
	if doc.Text != "" || doc.Warning != "larger than 1 KB: indexed by name only" || doc.Format != "text" {
		t.Errorf("%+v", doc)
	}
}

func TestTextCutAtValidBoundary(t *testing.T) {
	text := strings.Repeat("é", 1000) // two bytes each
	for _, name := range []string{"cut.txt", "cut.md", "cut.html", "cut.csv"} {
		doc := extractBytes(t, name, []byte(text), Options{MaxTextBytes: 101})
		if !utf8.ValidString(doc.Text) || len(doc.Text) > 101 || len(doc.Text) < 90 {
			t.Errorf("%s: %d bytes, valid %v", name, len(doc.Text), utf8.ValidString(doc.Text))
		}
		if doc.Warning != "text truncated at 101 bytes" {
			t.Errorf("%s: warning %q", name, doc.Warning)
		}
	}
}

// A huge text file is read only as far as the text limit needs.
func TestLargeTextIsStreamed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("numbat log line ", 8) + "\n")
	for i := 0; i < (64<<20)/len(line); i++ {
		f.Write(line)
	}
	f.Close()
	var before, after runtimeMem
	before.read()
	doc, err := Extract(context.Background(), p, Options{MaxTextBytes: 1 << 20})
	after.read()
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Text) > 1<<20 || len(doc.Text) < 1<<19 || doc.Warning != "text truncated at 1 MB" {
		t.Errorf("%d bytes, warning %q", len(doc.Text), doc.Warning)
	}
	if grew := after.total - before.total; grew > 16<<20 {
		t.Errorf("allocated %d MB for a 64 MB file with a 1 MB limit", grew>>20)
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc, err := Extract(ctx, "testdata/writer.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "" || doc.Format != "pdf" || !strings.Contains(doc.Warning, "cancelled") {
		t.Errorf("%+v", doc)
	}
}

func TestTimeout(t *testing.T) {
	doc, err := Extract(context.Background(), "testdata/writer.docx", Options{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "" || !strings.Contains(doc.Warning, "took longer than 1ns") {
		t.Errorf("%+v", doc)
	}
}

// countdownCtx expires after a number of Err calls, so a test can stop an
// extractor in the middle of its loop without timing.
type countdownCtx struct {
	context.Context
	left int
}

func (c *countdownCtx) Err() error {
	if c.left--; c.left < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// Each loop that can run long checks the context.
func TestDeadlineInsideLoops(t *testing.T) {
	var csv, md, html, js strings.Builder
	for i := 0; i < 20000; i++ {
		csv.WriteString("a,b,c\n")
		md.WriteString("line *of* markdown\n")
		html.WriteString("<p>para</p>")
		js.WriteString(`"s",`)
	}
	cases := map[string]string{
		"data.csv": csv.String(), "notes.md": md.String(), "page.html": html.String(),
		"list.json": "[" + js.String() + `"end"]`,
	}
	for name, content := range cases {
		s := testSource(name, []byte(content), Options{})
		s.ctx = &countdownCtx{Context: context.Background(), left: 3}
		doc := runFamily(s, detect(s))
		if !strings.Contains(doc.Warning, "took longer than") {
			t.Errorf("%s: warning %q", name, doc.Warning)
		}
		if len(doc.Text) >= len(content)/2 {
			t.Errorf("%s: the loop went on after the deadline (%d bytes)", name, len(doc.Text))
		}
	}
}

func TestPanicIsRecovered(t *testing.T) {
	err := protect(func() error { panic("parser exploded") })
	var p *panicError
	if !errors.As(err, &p) || p.val != "parser exploded" {
		t.Fatalf("protect returned %v", err)
	}
	s := testSource("x.txt", []byte("hello"), Options{})
	doc := runFamily(s, family{name: "pdf", mime: "application/pdf", run: func(s *source, _ *Document) error {
		i := len(s.head) + 1
		s.text.Write(s.head[:i]) // out of range: a runtime panic, as a parser bug would raise
		return nil
	}})
	if !strings.Contains(doc.Warning, "internal error reading this PDF") || doc.Format != "pdf" {
		t.Errorf("%+v", doc)
	}
}

func TestErrorsWrapFSErrors(t *testing.T) {
	_, err := Extract(context.Background(), filepath.Join(t.TempDir(), "missing.txt"), Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, err = Extract(context.Background(), t.TempDir(), Options{})
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	if _, statErr := os.Stat("/dev/null"); statErr == nil {
		_, err = Extract(context.Background(), "/dev/null", Options{})
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("device: %v", err)
		}
	}
}

func TestReadErrorIsAnError(t *testing.T) {
	eio := errors.New("input/output error")
	trap := &readTrap{r: failingReader{eio}}
	doc := extractFrom(context.Background(), "x.pdf", trap, 4096, Options{})
	if !errors.Is(trap.err, eio) {
		t.Errorf("trap kept %v (doc %+v)", trap.err, doc)
	}
}

type failingReader struct{ err error }

func (f failingReader) ReadAt([]byte, int64) (int, error) { return 0, f.err }

func TestVanishesBeforeOpen(t *testing.T) {
	p := writeFile(t, "gone.txt", []byte("here for now"))
	testHookAfterStat = func(path string) { os.Remove(path) }
	defer func() { testHookAfterStat = nil }()
	_, err := Extract(context.Background(), p, Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}

// A file that shrinks after it was checked gives what is left, no error.
func TestShrinksWhileRead(t *testing.T) {
	p := writeFile(t, "shrink.txt", []byte(strings.Repeat("numbat ", 100000)))
	testHookAfterStat = func(path string) { os.Truncate(path, 20) }
	defer func() { testHookAfterStat = nil }()
	doc, err := Extract(context.Background(), p, Options{})
	if err != nil || doc.Text != "numbat numbat numbat" {
		t.Errorf("err %v, text %q", err, doc.Text)
	}
}

func TestPDFMetadataDates(t *testing.T) {
	if got := pdfDate("D:20240131120000+01'00'"); got != "2024-01-31 12:00:00" {
		t.Error(got)
	}
	if meaningfulTitle("Microsoft Word - report.docx") || meaningfulTitle("untitled") || !meaningfulTitle("Annual Report") {
		t.Error("title filter")
	}
}

func testSource(name string, data []byte, opt Options) *source {
	s := &source{ctx: context.Background(), name: name, ext: strings.ToLower(filepath.Ext(name)),
		r: strings.NewReader(string(data)), size: int64(len(data)), opt: opt.withDefaults()}
	s.head = readHead(s.r, s.size)
	return s
}

type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.total = ms.TotalAlloc
}

func TestHTMLDeclaredCharset(t *testing.T) {
	page := "<html><head><meta charset=\"iso-8859-7\"><title>\xc1\xe8\xdc\xed\xe1</title></head><body>\xe3\xe5\xe9\xdc tuatarataco</body></html>"
	doc := extractBytes(t, "greek.html", []byte(page), Options{})
	if doc.Title != "Αθάνα" || !strings.Contains(doc.Text, "γειά tuatarataco") {
		t.Errorf("%+v", doc)
	}
}

// The text limit holds for formats that stream their text too.
func TestTextLimitAcrossFormats(t *testing.T) {
	for _, file := range []string{"writer.pdf", "writer.docx", "writer.odt", "writer.rtf", "calc.xlsx", "message.eml", "page.html"} {
		doc, err := Extract(context.Background(), filepath.Join("testdata", file), Options{MaxTextBytes: 30})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Text) > 30 || !utf8.ValidString(doc.Text) || doc.Warning != "text truncated at 30 bytes" {
			t.Errorf("%s: %d bytes %q, warning %q", file, len(doc.Text), doc.Text, doc.Warning)
		}
	}
}
