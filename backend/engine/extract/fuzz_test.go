package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Every family has a fuzz target that feeds hostile bytes straight to its
// extractor. A recovered panic counts as a failure here: protect keeps the
// process alive in production, but each panic is a bug to fix.

const fuzzTextLimit = 1 << 20

func fuzzFamily(f *testing.F, fam, name string, wrap func([]byte) []byte, seeds ...string) {
	for _, s := range seeds {
		if strings.Contains(s, ".") && !strings.ContainsAny(s, "\n<{") {
			f.Add(fixtureBytes(f, s))
		} else {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if wrap != nil && !bytes.HasPrefix(data, []byte("PK")) {
			data = wrap(data)
		}
		checkFuzzDoc(t, runFuzz(fam, name, data))
	})
}

func runFuzz(fam, name string, data []byte) Document {
	s := testSource(name, data, Options{MaxTextBytes: fuzzTextLimit, MaxFileSize: 64 << 20})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.ctx = ctx
	return runFamily(s, family{name: fam, mime: "application/octet-stream", run: runner(fam)})
}

func checkFuzzDoc(t *testing.T, doc Document) {
	t.Helper()
	if strings.Contains(doc.Warning, "internal error") {
		t.Fatalf("parser panic: %s", doc.Warning)
	}
	if strings.Contains(doc.Warning, "took longer") {
		t.Fatalf("too slow: %s", doc.Warning)
	}
	if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
		t.Fatal("invalid UTF-8")
	}
	if len(doc.Text) > fuzzTextLimit {
		t.Fatalf("text of %d bytes passed the limit", len(doc.Text))
	}
	for k, v := range doc.Meta {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			t.Fatal("invalid UTF-8 in metadata")
		}
	}
}

// zipOf builds a zip with entries in the given order; a data entry of nil
// takes the fuzz input.
func zipOf(entries ...string) func([]byte) []byte {
	return func(data []byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := 0; i+1 < len(entries); i += 2 {
			w, _ := zw.Create(entries[i])
			if entries[i+1] == "" {
				w.Write(data)
			} else {
				w.Write([]byte(entries[i+1]))
			}
		}
		zw.Close()
		return buf.Bytes()
	}
}

func FuzzText(f *testing.F) {
	for _, c := range legacyTexts {
		data, _ := c.enc.NewEncoder().Bytes([]byte(c.text))
		f.Add(data)
	}
	fuzzFamily(f, "text", "f.txt", nil, "latin1.txt", "utf16le.txt", "utf16be.txt", "source.go", "\xff\xfe\x00")
}

func FuzzMarkdown(f *testing.F) {
	fuzzFamily(f, "markdown", "f.md", nil, "notes.md", "---\ntitle: x\n---\n# [a](b) ![c](d) <e> `f` **g**",
		"Title\n=====\n[[[[[[[[[[[[](((((((((")
}

func FuzzHTML(f *testing.F) {
	fuzzFamily(f, "html", "f.html", nil, "page.html", "<title>t</title><h1>h</h1><pre> x </pre><script>s</script>")
}

func FuzzPDF(f *testing.F) {
	page := []byte("BT /F1 10 Tf 1 0 0 1 72 700 Tm [(a) 20 (b) -400 (c)] TJ 3 Tc (de) Tj 0 -12 TD (f) ' 1 2 (g) \" ET " +
		"q 1 0 0 -1 0 792 cm BT 1 0 0 -1 320 90 Tm (h) Tj ET Q")
	f.Add(onePagePDF(lzwLiterals(page), "LZWDecode", helveticaFont))
	f.Add(onePagePDF(runLength(page), "RunLengthDecode", helveticaFont))
	f.Add(onePagePDF(page, "", "<< /Subtype /Type1 /Encoding << /BaseEncoding /MacRomanEncoding /Differences [97 /f_f_i /afii10017 /uni0416] >> >>"))
	f.Add(onePagePDF(page, "", "<< /Subtype /Type0 /Encoding /Identity-H /DescendantFonts [<< /DW 500 /W [97 [600 700] 99 120 250] >>] >>"))
	f.Add(onePagePDF(page, "", "<< /Subtype /Type3 /FontMatrix [0.01 0 0 0.01 0 0] /FirstChar 97 /Widths [50 60 70] >>"))
	fuzzFamily(f, "pdf", "f.pdf", nil, "writer.pdf", "objstm.pdf", "encrypted.pdf", "aes256.pdf", "rc4-40.pdf", "cid-no-tounicode.pdf",
		"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]>>endobj "+
			"3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R>>endobj 4 0 obj<</Length 5 0 R>>stream\n"+
			"BT (hello) Tj [(a) -300 (b)] TJ ET\nendstream endobj 5 0 obj 31 endobj trailer<</Root 1 0 R>>\n%%EOF")
}

func FuzzDOCX(f *testing.F) {
	fuzzFamily(f, "docx", "f.docx", zipOf("docProps/core.xml", "", "word/document.xml", ""), "writer.docx",
		`<w:document><w:body><w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>x</w:t><w:tab/></w:r></w:p></w:body></w:document>`)
}

func FuzzXLSX(f *testing.F) {
	fuzzFamily(f, "xlsx", "f.xlsx", zipOf(
		"xl/workbook.xml", `<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/sharedStrings.xml", "", "xl/worksheets/sheet1.xml", ""), "calc.xlsx",
		`<sst><si><t>a</t></si></sst><sheetData><row><c t="s"><v>0</v></c><c><v>1.5</v></c></row></sheetData>`)
}

func FuzzPPTX(f *testing.F) {
	fuzzFamily(f, "pptx", "f.pptx", zipOf("ppt/presentation.xml", "<p/>", "ppt/slides/slide1.xml", "",
		"ppt/notesSlides/notesSlide1.xml", ""), "impress.pptx",
		`<p:sld><p:sp><p:nvPr><p:ph type="title"/></p:nvPr><a:p><a:r><a:t>t</a:t></a:r></a:p></p:sp></p:sld>`)
}

func FuzzODF(f *testing.F) {
	fuzzFamily(f, "odt", "f.odt", zipOf("mimetype", "application/vnd.oasis.opendocument.text", "meta.xml", "",
		"content.xml", ""), "writer.odt", "calc.ods", "impress.odp",
		`<office:body><text:h>h</text:h><text:p>a<text:s/>b<text:tab/></text:p><table:table table:name="T"/></office:body>`)
}

func FuzzEPUB(f *testing.F) {
	fuzzFamily(f, "epub", "f.epub", zipOf("mimetype", "application/epub+zip",
		"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`,
		"OEBPS/content.opf", `<package><metadata><dc:title>T</dc:title></metadata><manifest><item id="c1" href="c%201.xhtml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
		"OEBPS/c 1.xhtml", ""), "writer.epub", "<html><body><p>chapter</p></body></html>")
}

func FuzzRTF(f *testing.F) {
	fuzzFamily(f, "rtf", "f.rtf", nil, "writer.rtf", `{\rtf1\ansi\ansicpg1251{\info{\title T}}\u1055?\'e9\bin3 abc{\*\x y}\par}`,
		`{\rtf1{\fonttbl{\f1\fcharset128 M;}{\f2\fcharset204 A;}}\f1\'82\'a0{\f2\'e1}\u-10179?\u-8704?\u-10179?x\u-8704?\par}`)
}

func FuzzEML(f *testing.F) {
	fuzzFamily(f, "eml", "f.eml", nil, "message.eml",
		"Subject: =?iso-8859-1?q?caf=e9?=\nContent-Type: text/html; charset=shift_jis\nContent-Transfer-Encoding: base64\n\nPGI+aGk8L2I+\n")
}

func FuzzMbox(f *testing.F) {
	fuzzFamily(f, "mbox", "f.mbox", nil, "inbox.mbox", "From a\nSubject: x\n\nbody\n\nFrom b\n\n>From c\n")
}

func FuzzCSV(f *testing.F) {
	fuzzFamily(f, "csv", "f.csv", nil, "animals.csv", "animals.tsv", "a;b;c\n\"x\"\"y\";2;3\n")
}

func FuzzJSON(f *testing.F) {
	fuzzFamily(f, "json", "f.json", nil, "config.json", `{"a\"b":["\ud83d\ude00",{"c":null}]}`)
}

func FuzzYAML(f *testing.F) {
	fuzzFamily(f, "yaml", "f.yaml", nil, "config.yaml", "a: &x [1, 2]\nb: *x\n---\n- c\n")
}

func FuzzTOML(f *testing.F) {
	fuzzFamily(f, "toml", "f.toml", nil, "config.toml", "a = [[1], {b = \"c\"}]\n[[t]]\nx = 1\n")
}

func FuzzXML(f *testing.F) {
	fuzzFamily(f, "xml", "f.xml", nil, "feed.xml", `<?xml version="1.0" encoding="ISO-8859-1"?><a>&amp;<title>t</title><![CDATA[c]]></a>`)
}

func FuzzMedia(f *testing.F) {
	ilst := mp4Atom("ilst", mp4Text("\xa9nam", "t"), mp4Text("\xa9day", "2001"))
	moov := mp4Atom("moov", mp4Atom("udta", mp4Atom("meta", []byte{0, 0, 0, 0}, ilst)))
	f.Add(append(mp4Atom("ftyp", []byte("M4A ")), moov...))
	fuzzFamily(f, "image", "f.jpg", nil, "photo.jpg", "tone.flac",
		"ID3\x03\x00\x00\x00\x00\x00\x20TIT2\x00\x00\x00\x06\x00\x00\x01\xff\xfeA\x00",
		"II*\x00\x08\x00\x00\x00\x01\x00\x10\x01\x02\x00\x03\x00\x00\x00ab\x00\x00",
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x00\x80", "OggS\x03vorbis\x01\x00\x00\x00a\x01\x00\x00\x00\x03\x00\x00\x00t=x")
}

func FuzzArchive(f *testing.F) {
	f.Add(makeZip(map[string][]byte{"a.txt": []byte("hello"), "b/c.md": []byte("# hi")}))
	f.Add(fixtureBytes(f, "writer.docx"))
	xzFile := fixtureBytes(f, "diary.txt.xz")
	f.Add(append(append(bytes.Clone(xzFile), 0, 0, 0, 0), xzWithDict(f, xzFile, 12, 40)...)) // two streams, the second's dictionary refused
	fuzzFamily(f, "archive", "f.zip", nil, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
		"diary.txt.bz2", "diary.txt.xz", "diary.txt.zst")
}

// FuzzExtract goes through detection, as files arrive in practice.
func FuzzExtract(f *testing.F) {
	for _, fx := range fixtures {
		f.Add(fx.file, fixtureBytes(f, fx.file))
	}
	f.Add("1700000000.M1P2.mail.example.md", []byte(maildirMessage))
	f.Add("1700000000.M1P2.host:2,S", []byte("X-Odd: header\n\nbody"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if strings.ContainsAny(name, "/\x00") {
			return
		}
		doc := extractFrom(context.Background(), name, bytes.NewReader(data), int64(len(data)),
			Options{MaxTextBytes: fuzzTextLimit, Timeout: 5 * time.Second})
		checkFuzzDoc(t, doc)
	})
}

func FuzzOLE(f *testing.F) {
	f.Add(gunzipFixture(f, "impress.ppt.gz"))
	f.Add(oleWithDirectory(2))
	fuzzFamily(f, "doc", "f.doc", nil, "writer.doc", "calc.xls")
}

// oleStreams reads named streams of a fixture, as seeds for the stream
// parsers, which whole-file mutations seldom reach past the sector tables.
func oleStreams(f *testing.F, data []byte, names ...string) [][]byte {
	o, err := openOLE(testSource("f", data, Options{}))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, n := range names {
		b, err := o.stream(n)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// runStream runs a stream parser the way runFamily runs an extractor.
func runStream(fam string, run func(s *source, d *Document) error) Document {
	s := testSource("f", []byte{0}, Options{MaxTextBytes: fuzzTextLimit})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.ctx = ctx
	return runFamily(s, family{name: fam, mime: "application/octet-stream", run: run})
}

func FuzzWordStreams(f *testing.F) {
	st := oleStreams(f, fixtureBytes(f, "writer.doc"), "WordDocument", "1Table")
	f.Add(st[0], st[1])
	f.Fuzz(func(t *testing.T, w, table []byte) {
		checkFuzzDoc(t, runStream("doc", func(s *source, _ *Document) error {
			return readWord(s, w, func(string) ([]byte, error) { return table, nil })
		}))
	})
}

func FuzzWorkbookStream(f *testing.F) {
	f.Add(oleStreams(f, fixtureBytes(f, "calc.xls"), "Workbook")[0])
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFuzzDoc(t, runStream("xls", func(s *source, d *Document) error { return readWorkbook(s, b, d) }))
	})
}

func FuzzPowerPointStreams(f *testing.F) {
	st := oleStreams(f, gunzipFixture(f, "impress.ppt.gz"), "PowerPoint Document", "Current User")
	f.Add(st[0], st[1])
	f.Fuzz(func(t *testing.T, doc, user []byte) {
		checkFuzzDoc(t, runStream("ppt", func(s *source, _ *Document) error { return readPowerPoint(s, doc, user) }))
	})
}

func FuzzSevenZip(f *testing.F) {
	fuzzFamily(f, "archive", "f.7z", nil, "solid.7z", "encrypted.7z", "hidden-names.7z", "lzma-header.7z")
}

func FuzzRAR(f *testing.F) {
	f.Add(rar5(rarEntry{name: "d", dir: true}, rarEntry{name: "d/a.txt", data: []byte("rar text")},
		rarEntry{name: "b.txt", data: []byte("secret"), encrypted: true}))
	f.Add(append([]byte("Rar!\x1a\x07\x01\x00"), rarBlock(append([]byte{4, 0, 0, 0, 15}, make([]byte, 16)...))...))
	fuzzFamily(f, "archive", "f.rar", nil)
}

func FuzzMOBI(f *testing.F) {
	f.Add(mobiBook{html: mobiHTML, compress: true, recordSize: 64, trailing: true}.bytes())
	f.Add(mobiBook{html: mobiHTML, recordSize: 100}.bytes())
	fuzzFamily(f, "mobi", "f.mobi", nil, "writer.mobi", "writer.azw3")
}

// The CHM listing and table of contents are parsed here; the file itself
// is chmlib's to read.
func FuzzCHMListing(f *testing.F) {
	f.Add([]byte("   1     2751      133   normal file\t\t/a.html\n   0 0 0 normal dir /\n"),
		[]byte(`<param name="Local" value="a.html#x"><PARAM NAME="local" VALUE="/b.htm">`))
	f.Fuzz(func(t *testing.T, list, hhc []byte) {
		entries, total := chmEntries(list)
		if total < 0 || len(entries) > bytes.Count(list, []byte("\n"))+1 {
			t.Fatalf("%d entries, total %d", len(entries), total)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "toc.hhc"), hhc, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range chmContents(dir, "toc.hhc") {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("page %q", p)
			}
		}
	})
}
