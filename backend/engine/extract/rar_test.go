package extract

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

// No free program writes RAR, so these tests build RAR5 archives of stored
// (uncompressed) entries by the format's description: enough to read names,
// text, flags and damage through the real decoder.

type rarEntry struct {
	name      string
	data      []byte
	declared  int64 // unpacked size written in the header; 0: len(data)
	dir       bool
	encrypted bool // an encryption record: the contents need a password
}

func rarVint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// rarBlock frames a header: CRC32, size, then the header itself.
func rarBlock(hdr []byte) []byte {
	size := rarVint(nil, uint64(len(hdr)))
	crc := crc32.ChecksumIEEE(append(bytes.Clone(size), hdr...))
	return append(append(binary.LittleEndian.AppendUint32(nil, crc), size...), hdr...)
}

func rar5(entries ...rarEntry) []byte {
	out := []byte("Rar!\x1a\x07\x01\x00")
	out = append(out, rarBlock([]byte{1, 0, 0})...) // main header: no flags
	for _, e := range entries {
		out = append(out, rarFileBlock(e)...)
	}
	return append(out, rarBlock([]byte{5, 0, 0})...) // end of archive
}

func rarFileBlock(e rarEntry) []byte {
	var extra []byte
	if e.encrypted {
		rec := rarVint(nil, 1)                 // encryption record
		rec = rarVint(rec, 0)                  // AES-256
		rec = rarVint(rec, 0)                  // no password check
		rec = append(rec, 15)                  // KDF count
		rec = append(rec, make([]byte, 32)...) // salt and IV
		extra = append(rarVint(nil, uint64(len(rec))), rec...)
	}
	flags := uint64(2) // a data area follows
	if len(extra) > 0 {
		flags |= 1
	}
	hdr := rarVint(nil, 2)
	hdr = rarVint(hdr, flags)
	if len(extra) > 0 {
		hdr = rarVint(hdr, uint64(len(extra)))
	}
	hdr = rarVint(hdr, uint64(len(e.data)))
	fileFlags := uint64(4) // CRC32 present
	if e.dir {
		fileFlags |= 1
	}
	size := uint64(len(e.data))
	if e.declared != 0 {
		size = uint64(e.declared)
	}
	hdr = rarVint(hdr, fileFlags)
	hdr = rarVint(hdr, size)
	hdr = rarVint(hdr, 0x20) // attributes
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.ChecksumIEEE(e.data))
	hdr = rarVint(hdr, 0) // version 0, stored
	hdr = rarVint(hdr, 1) // Unix
	hdr = rarVint(hdr, uint64(len(e.name)))
	hdr = append(hdr, e.name...)
	hdr = append(hdr, extra...)
	return append(rarBlock(hdr), e.data...)
}

func TestRAR(t *testing.T) {
	inner := makeZip(map[string][]byte{"deep.txt": []byte("innermostpavlova")})
	data := rar5(rarEntry{name: "docs", dir: true},
		rarEntry{name: "docs/notes.txt", data: []byte("The rar member mentions quokkastrudel.")},
		rarEntry{name: "inner.zip", data: inner},
		rarEntry{name: "logo.png", data: []byte("\x89PNG\r\n\x1a\nbinarystuffword")})
	doc := extractBytes(t, "stored.rar", data, Options{})
	if doc.Format != "archive" || doc.Mime != "application/vnd.rar" || doc.Warning != "" || doc.Meta["entries"] != "4" {
		t.Errorf("%+v", doc)
	}
	for _, w := range []string{"docs/notes.txt", "quokkastrudel", "inner.zip", "logo.png"} {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("lacks %q: %q", w, doc.Text)
		}
	}
	for _, w := range []string{"innermostpavlova", "binarystuffword"} {
		if strings.Contains(doc.Text, w) {
			t.Errorf("has %q", w)
		}
	}
}

func TestRAREncrypted(t *testing.T) {
	data := rar5(rarEntry{name: "plain.txt", data: []byte("open numbatnougat")},
		rarEntry{name: "secret.txt", data: []byte("ciphertext-not-text"), encrypted: true})
	doc := extractBytes(t, "locked.rar", data, Options{})
	if !strings.HasPrefix(doc.Warning, "encrypted: 1 archive entries") || !strings.Contains(doc.Text, "secret.txt") ||
		!strings.Contains(doc.Text, "numbatnougat") || strings.Contains(doc.Text, "ciphertext") {
		t.Errorf("%+v", doc)
	}
	// Encrypted headers: an encryption header, then nothing readable.
	hidden := append([]byte("Rar!\x1a\x07\x01\x00"), rarBlock(append([]byte{4, 0, 0, 0, 15}, make([]byte, 16)...))...)
	hidden = append(hidden, bytes.Repeat([]byte{0x5a}, 64)...)
	doc = extractBytes(t, "hidden.rar", hidden, Options{})
	if !strings.HasPrefix(doc.Warning, "encrypted: RAR archive whose names") {
		t.Errorf("%+v", doc)
	}
}

func TestRARHostile(t *testing.T) {
	good := rar5(rarEntry{name: "a.txt", data: []byte("first wallabywonton")}, rarEntry{name: "b.txt", data: []byte("second")})
	doc := extractBytes(t, "cut.rar", good[:len(good)-30], Options{})
	if doc.Warning == "" || !strings.Contains(doc.Text, "wallabywonton") {
		t.Errorf("truncated: %+v", doc)
	}
	// A header declaring an exabyte of stored data is listed, never read.
	huge := rar5(rarEntry{name: "huge.txt", data: []byte("tiny"), declared: 1 << 60})
	doc = extractBytes(t, "huge.rar", huge, Options{})
	if !strings.Contains(doc.Text, "huge.txt") || strings.Contains(doc.Text, "tiny") {
		t.Errorf("huge: %+v", doc)
	}
	// Too many entries: the loop stops at the cap and says so.
	var many []rarEntry
	for i := range zipMaxEntries + 5 {
		many = append(many, rarEntry{name: "e" + strings.Repeat("x", i%7), data: nil})
	}
	doc = extractBytes(t, "many.rar", rar5(many...), Options{})
	if !strings.Contains(doc.Warning, "more than 20000 entries") || doc.Meta["entries"] != "20000" {
		t.Errorf("many: %q %v", doc.Warning, doc.Meta)
	}
}
