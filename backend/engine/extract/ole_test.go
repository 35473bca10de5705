package extract

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// gunzipFixture reads a fixture kept compressed: LibreOffice stores a
// 440 KB preview bitmap in every .ppt it writes.
func gunzipFixture(t testing.TB, name string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(fixtureBytes(t, name)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestPowerPoint(t *testing.T) {
	doc := extractBytes(t, "impress.ppt", gunzipFixture(t, "impress.ppt.gz"), Options{})
	checkDoc(t, doc, fixture{file: "impress.ppt", format: "ppt", title: "Platypus Symposium",
		words:  []string{"Platypus Symposium\nThe platypusbrioche tasting", "Speaker note about echidnamuffin"},
		absent: []string{"Click to", "master"}})
	doc = extractBytes(t, "impress-noext", gunzipFixture(t, "impress.ppt.gz"), Options{})
	if doc.Format != "ppt" || !strings.Contains(doc.Text, "platypusbrioche") {
		t.Errorf("without extension: %+v", doc)
	}
}

// A file named .doc that holds a workbook is read as what it is.
func TestOLEFamilyByStreams(t *testing.T) {
	doc := extractBytes(t, "misnamed.doc", fixtureBytes(t, "calc.xls"), Options{})
	if doc.Format != "xls" || !strings.Contains(doc.Text, "wombatcrumble") {
		t.Errorf("%+v", doc)
	}
	doc = extractBytes(t, "page.doc", []byte("<html><body><p>Word saved this as HTML: bettongbrulee</p></body></html>"), Options{})
	if doc.Format != "html" || !strings.Contains(doc.Text, "bettongbrulee") {
		t.Errorf("HTML named .doc: %+v", doc)
	}
}

func patchAt(data []byte, old, new string) []byte {
	out := bytes.Clone(data)
	i := bytes.Index(out, []byte(old))
	if i < 0 {
		return nil
	}
	copy(out[i:], new)
	return out
}

func utf16z(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s + "\x00")) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return string(b)
}

func TestOLEEncrypted(t *testing.T) {
	word := bytes.Clone(fixtureBytes(t, "writer.doc"))
	fibAt := bytes.Index(word, []byte{0xEC, 0xA5})
	word[fibAt+0x0B] |= 0x01                                                                              // fEncrypted
	sheet := patchAt(fixtureBytes(t, "calc.xls"), "\x42\x00\x02\x00\xb0\x04", "\x2f\x00\x02\x00\xb0\x04") // CODEPAGE becomes FILEPASS
	slides := patchAt(gunzipFixture(t, "impress.ppt.gz"), "\x00\x00\xf5\x0f\x1c\x00\x00\x00", "\x00\x00\xf5\x0f\x20\x00\x00\x00")
	// An encrypted .docx: a compound file with an EncryptedPackage stream.
	raw := "\x01\x00" + utf16z("Ole")[:8]
	pkg := patchAt(fixtureBytes(t, "writer.doc"), raw, utf16z("EncryptedPackage"))
	if i := bytes.Index(pkg, []byte(utf16z("EncryptedPackage"))); i >= 0 {
		binary.LittleEndian.PutUint16(pkg[i+64:], 34)
	}
	cases := []struct {
		name   string
		data   []byte
		format string
	}{
		{"locked.doc", word, "doc"}, {"locked.xls", sheet, "xls"}, {"locked.ppt", slides, "ppt"}, {"locked.docx", pkg, "docx"},
	}
	for _, c := range cases {
		if c.data == nil {
			t.Fatalf("%s: bytes to patch not found", c.name)
		}
		doc := extractBytes(t, c.name, c.data, Options{})
		if doc.Format != c.format || !strings.HasPrefix(doc.Warning, "encrypted: ") || strings.Contains(doc.Text, "quokkaloaf") {
			t.Errorf("%s: %+v", c.name, doc)
		}
	}
}

// oleWithDirectory builds a compound file whose directory chain runs
// through n sectors of empty entries.
func oleWithDirectory(n int) []byte {
	fat := (n + 127) / 127
	h := make([]byte, 512)
	copy(h, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
	binary.LittleEndian.PutUint16(h[0x18:], 0x3E)
	binary.LittleEndian.PutUint16(h[0x1A:], 3)
	binary.LittleEndian.PutUint16(h[0x1C:], 0xFFFE)
	binary.LittleEndian.PutUint16(h[0x1E:], 9)
	binary.LittleEndian.PutUint16(h[0x20:], 6)
	binary.LittleEndian.PutUint32(h[0x2C:], uint32(fat))
	binary.LittleEndian.PutUint32(h[0x30:], uint32(fat))
	binary.LittleEndian.PutUint32(h[0x38:], 4096)
	binary.LittleEndian.PutUint32(h[0x3C:], 0xFFFFFFFE)
	binary.LittleEndian.PutUint32(h[0x44:], 0xFFFFFFFE)
	for i := range 109 {
		v := uint32(0xFFFFFFFF)
		if i < fat {
			v = uint32(i)
		}
		binary.LittleEndian.PutUint32(h[0x4C+4*i:], v)
	}
	table := make([]byte, 512*fat)
	for i := range 128 * fat {
		v := uint32(0xFFFFFFFF)
		switch {
		case i < fat:
			v = 0xFFFFFFFD
		case i < fat+n-1:
			v = uint32(i + 1)
		case i == fat+n-1:
			v = 0xFFFFFFFE
		}
		binary.LittleEndian.PutUint32(table[4*i:], v)
	}
	dir := make([]byte, 512*n)
	copy(dir, utf16z("Root Entry"))
	binary.LittleEndian.PutUint16(dir[64:], 22)
	dir[66] = 5 // the root storage
	for i := 0; i < 4*n; i++ {
		for _, f := range []int{68, 72, 76} { // no siblings, no child
			binary.LittleEndian.PutUint32(dir[128*i+f:], 0xFFFFFFFF)
		}
	}
	return append(append(h, table...), dir...)
}

func TestOLEHostile(t *testing.T) {
	start := time.Now()
	if doc := extractBytes(t, "empty.ole", oleWithDirectory(1), Options{}); doc.Format != "metadata" || doc.Warning != "" {
		t.Errorf("an empty compound file: %+v", doc)
	}
	// 9000 directory sectors: 36000 entries from a 4.6 MB file.
	if doc := extractBytes(t, "dir.doc", oleWithDirectory(9000), Options{}); doc.Warning != errOLEDirectory.Error() {
		t.Errorf("huge directory: %+v", doc)
	}
	word := fixtureBytes(t, "writer.doc")
	// The directory's sector chain points back at itself.
	cyclic := bytes.Clone(word)
	dirStart := binary.LittleEndian.Uint32(cyclic[0x30:])
	fatAt := 512 * (int(binary.LittleEndian.Uint32(cyclic[0x4C:])) + 1)
	binary.LittleEndian.PutUint32(cyclic[fatAt+4*int(dirStart):], dirStart)
	if doc := extractBytes(t, "cyclic.doc", cyclic, Options{}); !strings.Contains(doc.Warning, "corrupt DOC") {
		t.Errorf("cyclic chain: %+v", doc)
	}
	// WordDocument claims 2 GB: no more than the file is read.
	huge := bytes.Clone(word)
	name := bytes.Index(huge, []byte(utf16z("WordDocument")))
	binary.LittleEndian.PutUint32(huge[name+120:], 0x7FFFFFFF)
	if doc := extractBytes(t, "huge.doc", huge, Options{}); doc.Format != "doc" || doc.Warning == "" {
		t.Errorf("huge stream: %+v", doc)
	}
	for _, f := range []string{"writer.doc", "calc.xls"} {
		data := fixtureBytes(t, f)
		for _, n := range []int{600, len(data) / 2, len(data) - 700} {
			doc := extractBytes(t, "cut-"+f, data[:n], Options{})
			if doc.Warning == "" || strings.Contains(doc.Warning, "internal error") {
				t.Errorf("%s cut at %d: %+v", f, n, doc)
			}
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// Pieces of 8-bit and UTF-16 text in any order of the stream, as fast
// saves leave them, with a field's code dropped and its result kept.
func TestWordPieces(t *testing.T) {
	w := []byte("xxxxcaf\xe9 \x13HYPERLINK x\x14link\x15 end\r")
	utf := []byte(nil)
	for _, u := range utf16.Encode([]rune("ünïcode\x07cell\r")) {
		utf = binary.LittleEndian.AppendUint16(utf, u)
	}
	w = append(w, utf...)
	first := uint32(len("caf\xe9 \x13HYPERLINK x\x14link\x15 end\r"))
	second := uint32(len(utf) / 2)
	var plc []byte
	for _, cp := range []uint32{0, second, second + first} {
		plc = binary.LittleEndian.AppendUint32(plc, cp)
	}
	pcd := func(fc uint32) []byte {
		return append(append([]byte{0, 0}, binary.LittleEndian.AppendUint32(nil, fc)...), 0, 0)
	}
	plc = append(plc, pcd(uint32(4+first))...) // the UTF-16 piece comes first
	plc = append(plc, pcd(4*2|0x40000000)...)  // then the compressed one, at byte 4
	clx := append([]byte{1, 2, 0, 0xAA, 0xBB, 2}, binary.LittleEndian.AppendUint32(nil, uint32(len(plc)))...)
	pieces, err := parseCLX(append(clx, plc...))
	if err != nil {
		t.Fatal(err)
	}
	s := testSource("f.doc", nil, Options{})
	s.text = newSink(1 << 20)
	if err := readPieces(s, w, pieces, int64(first+second), &wordText{out: s.text}); err != nil {
		t.Fatal(err)
	}
	if got, want := s.text.String(), "ünïcode\tcell\ncafé link end"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWord95(t *testing.T) {
	w := make([]byte, 0x40)
	binary.LittleEndian.PutUint16(w, wordIdent)
	binary.LittleEndian.PutUint16(w[2:], 0x68)
	binary.LittleEndian.PutUint32(w[0x18:], 0x40)
	text := "Word 95 keeps bilbybiscuit text in one run\r"
	w = append(w, text...)
	binary.LittleEndian.PutUint32(w[0x1C:], uint32(len(w)))
	f, err := parseFIB(w)
	if err != nil || !f.tooOld {
		t.Fatal(f, err)
	}
	s := testSource("f.doc", nil, Options{})
	s.text = newSink(1 << 20)
	if err := word95Text(w, f, &wordText{out: s.text}); err != nil || s.text.String() != strings.TrimSpace(text) {
		t.Errorf("%q %v", s.text.String(), err)
	}
}
