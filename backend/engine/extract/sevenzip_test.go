package extract

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz/lzma"
)

func TestSevenZip(t *testing.T) {
	doc := extractBytes(t, "solid.7z", fixtureBytes(t, "solid.7z"), Options{})
	if doc.Format != "archive" || doc.Mime != "application/x-7z-compressed" || doc.Warning != "" || doc.Meta["entries"] != "3" {
		t.Errorf("%+v", doc)
	}
	for _, w := range []string{"blob.bin", "docs/notes.txt", "kiwifritter", "readme.md", "marmotmuffin"} {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("lacks %q: %q", w, doc.Text)
		}
	}
}

func TestSevenZipEncrypted(t *testing.T) {
	doc := extractBytes(t, "encrypted.7z", fixtureBytes(t, "encrypted.7z"), Options{})
	if !strings.HasPrefix(doc.Warning, "encrypted: 2 archive entries") || !strings.Contains(doc.Text, "docs/notes.txt") ||
		strings.Contains(doc.Text, "kiwifritter") {
		t.Errorf("%+v", doc)
	}
	doc = extractBytes(t, "hidden.7z", fixtureBytes(t, "hidden-names.7z"), Options{})
	if !strings.HasPrefix(doc.Warning, "encrypted: 7z archive that needs a password") || doc.Text != "" {
		t.Errorf("%+v", doc)
	}
}

// patch7zHeader replaces bytes in a 7z file's (unencoded) header and
// fixes the checksums that cover it.
func patch7zHeader(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	out := bytes.Clone(data)
	i := bytes.Index(out, []byte(old))
	if i < 0 {
		t.Fatal("header bytes not found")
	}
	copy(out[i:], new)
	off := 32 + int(binary.LittleEndian.Uint64(out[12:]))
	size := int(binary.LittleEndian.Uint64(out[20:]))
	binary.LittleEndian.PutUint32(out[28:], crc32.ChecksumIEEE(out[off:off+size]))
	binary.LittleEndian.PutUint32(out[8:], crc32.ChecksumIEEE(out[12:32]))
	return out
}

func TestSevenZipHostile(t *testing.T) {
	data := fixtureBytes(t, "lzma-header.7z")
	doc := extractBytes(t, "ok.7z", data, Options{})
	if doc.Warning != "" || !strings.Contains(doc.Text, "kiwifritter") {
		t.Fatalf("unpatched: %+v", doc)
	}
	// An LZMA coder asking for a 4 GB dictionary is refused before allocating.
	big := patch7zHeader(t, data, "\x03\x01\x01\x05\x5d\x00\x10\x00\x00", "\x03\x01\x01\x05\x5d\x00\x00\x00\xf0")
	doc = extractBytes(t, "dict.7z", big, Options{})
	if !strings.Contains(doc.Warning, "dictionary larger than 64 MB") || !strings.Contains(doc.Text, "src/docs/notes.txt") {
		t.Errorf("dictionary: %+v", doc)
	}
	solid := fixtureBytes(t, "solid.7z")
	for _, n := range []int{len(solid) / 2, 40, 31} {
		doc = extractBytes(t, "cut.7z", solid[:n], Options{})
		if doc.Warning == "" || doc.Format != "archive" {
			t.Errorf("cut at %d: %+v", n, doc)
		}
	}
}

// A solid stream whose first entry is 40 MB of zeros: reaching the text
// entry after it means decompressing them, so the loop stops first.
func TestSevenZipSolidBomb(t *testing.T) {
	if _, err := exec.LookPath("7z"); err != nil {
		t.Skip("7z (p7zip-full) is not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "0-zeros.dat"), make([]byte, 40<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "1-after.txt"), []byte("the dingodumpling after the zeros"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("7z", "a", "-bd", "-ms=on", "-mx=1", "bomb.7z", "0-zeros.dat", "1-after.txt")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "bomb.7z"))
	if err != nil {
		t.Fatal(err)
	}
	doc := extractBytes(t, "bomb.7z", data, Options{})
	if !strings.Contains(doc.Warning, "compression bomb") || !strings.Contains(doc.Text, "1-after.txt") ||
		strings.Contains(doc.Text, "dingodumpling") {
		t.Errorf("%d bytes: %+v", len(data), doc)
	}
}

// sevenZipWithHeader wraps a plain header in a 7z start header.
func sevenZipWithHeader(hdr []byte) []byte {
	out := []byte("7z\xbc\xaf\x27\x1c\x00\x04")
	start := binary.LittleEndian.AppendUint64(nil, 0)
	start = binary.LittleEndian.AppendUint64(start, uint64(len(hdr)))
	start = binary.LittleEndian.AppendUint32(start, crc32.ChecksumIEEE(hdr))
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(start))
	return append(append(out, start...), hdr...)
}

// A header of nine bytes declaring 2^32-1 files is refused before the
// library allocates an entry for each.
func TestSevenZipFileCountBomb(t *testing.T) {
	doc := extractBytes(t, "files.7z", sevenZipWithHeader([]byte{0x01, 0x05, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00}), Options{})
	if !strings.Contains(doc.Warning, "more than 20000 entries") {
		t.Errorf("%+v", doc)
	}
	// The same count behind an LZMA-compressed header, as 7-Zip writes
	// headers by default.
	var packed bytes.Buffer
	lw, err := lzma.WriterConfig{DictCap: 1 << 16, Size: 9}.NewWriter(&packed)
	if err != nil {
		t.Fatal(err)
	}
	lw.Write([]byte{0x01, 0x05, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00})
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	raw := packed.Bytes()
	props, stream := raw[:5], raw[13:] // the .lzma header: properties, then the size
	enc := []byte{0x17, 0x06, 0x00, 0x01, 0x09, byte(len(stream)), 0x00,
		0x07, 0x0B, 0x01, 0x00, 0x01, 0x23, 0x03, 0x01, 0x01, 0x05}
	enc = append(append(enc, props...), 0x0C, 9, 0x00, 0x00)
	data := sevenZipWithHeader(enc)
	binary.LittleEndian.PutUint64(data[12:], uint64(len(stream)))
	data = append(append(data[:32:32], stream...), enc...)
	binary.LittleEndian.PutUint32(data[8:], crc32.ChecksumIEEE(data[12:32]))
	doc = extractBytes(t, "packed-files.7z", data, Options{})
	if !strings.Contains(doc.Warning, "more than 20000 entries") {
		t.Errorf("compressed header: %+v", doc)
	}
	for f, want := range map[string]uint64{"solid.7z": 3, "lzma-header.7z": 1, "encrypted.7z": 2} {
		if n, err := declared7zFiles(testSource(f, fixtureBytes(t, f), Options{})); err != nil || n != want {
			t.Errorf("%s: %d files, %v", f, n, err)
		}
	}
}
