package api_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"trove/internal/testserver"
)

// Each format is indexed through the real pipeline and found by a word that
// exists only in its body (or, for media, in its metadata); the extension
// filter tells apart fixtures that share a word.
var formats = []struct{ file, query string }{
	{"source.go", "wallabywaffle"},
	{"latin1.txt", "bandicootbagel"},
	{"utf16le.txt", "thylacinetoast"},
	{"utf16be.txt", "sugarglidersoup"},
	{"notes.md", "koalacrumpet"},
	{"page.html", "kangaroojam"},
	{"writer.pdf", "quokkaloaf ext:pdf"},
	{"writer.docx", "quokkaloaf ext:docx"},
	{"writer.odt", "quokkaloaf ext:odt"},
	{"writer.rtf", "quokkaloaf ext:rtf"},
	{"writer.epub", "quokkaloaf ext:epub"},
	{"calc.xlsx", "wombatcrumble ext:xlsx"},
	{"calc.ods", "wombatcrumble ext:ods"},
	{"impress.pptx", "platypusbrioche ext:pptx"},
	{"impress.odp", "platypusbrioche ext:odp"},
	{"message.eml", "dingoscone"},
	{"inbox.mbox", "emupudding"},
	{"animals.csv", "devilcake"},
	{"animals.tsv", "quolltart"},
	{"config.json", "cassowarycurry"},
	{"config.yaml", "lyrebirdlatte"},
	{"config.toml", "galahgoulash"},
	{"feed.xml", "echidnaeclair"},
	{"photo.jpg", "Trovecam"},
	{"tone.flac", "Bandicoots"},
}

func TestEveryFormatIsFoundByItsContent(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	for _, f := range formats {
		data, err := os.ReadFile(filepath.Join("..", "..", "engine", "extract", "testdata", f.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f.file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.IndexDir(root, len(formats))
	for _, f := range formats {
		r := s.Do("POST", "/api/search/", map[string]any{"query": f.query, "limit": 3})
		got := paths(r)
		if len(got) == 0 || got[0] != filepath.Join(root, f.file) {
			t.Errorf("%s: %q found %v", f.file, f.query, got)
		}
	}
}

// Broken inputs are reported with their reason and the service keeps
// serving.
func TestBrokenFilesAreReportedWithReasons(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "engine", "extract", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pdf := fixture("writer.pdf")
	if err := os.WriteFile(filepath.Join(root, "truncated.pdf"), pdf[:len(pdf)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "encrypted.pdf"), fixture("encrypted.pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "missing-part.docx"), withoutPart(t, fixture("writer.docx"), "word/document.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bomb.zip"), zipBomb(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "empty.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "fine.txt", "a perfectly ordinary note about kiwis")
	id := s.IndexDir(root, 7)
	r := s.Get(fmt.Sprintf("/api/watched-directories/%d/problems", id))
	list, _ := r.Field("data.problems").([]any)
	reasons := map[string]string{}
	for _, x := range list {
		p := x.(map[string]any)
		reasons[filepath.Base(p["path"].(string))] = p["status"].(string) + ": " + p["error"].(string)
	}
	for name, want := range map[string]string{
		"truncated.pdf":     "indexed: ",
		"encrypted.pdf":     "indexed: encrypted",
		"missing-part.docx": "indexed: ",
		"bomb.zip":          "indexed: ",
		"pipe":              "failed: not a regular file",
	} {
		if got, ok := reasons[name]; !ok || !strings.HasPrefix(got, want) || len(got) <= len(want) && want == "indexed: " {
			t.Errorf("%s: reason %q, want it to start with %q", name, got, want)
		}
	}
	if _, ok := reasons["empty.txt"]; ok {
		t.Errorf("an empty file is not a problem: %q", reasons["empty.txt"])
	}
	if got := paths(s.Do("POST", "/api/search/", map[string]any{"query": "kiwis"})); len(got) != 1 {
		t.Fatalf("the service stopped serving well: %v", got)
	}
	// Files indexed by name only are still found by name.
	if got := paths(s.Do("POST", "/api/search/", map[string]any{"query": "encrypted"})); len(got) == 0 || filepath.Base(got[0]) != "encrypted.pdf" {
		t.Fatalf("by name: %v", got)
	}
}

func withoutPart(t *testing.T, data []byte, part string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name == part {
			continue
		}
		w, _ := zw.Create(f.Name)
		rc, _ := f.Open()
		b := new(bytes.Buffer)
		b.ReadFrom(rc)
		rc.Close()
		w.Write(b.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipBomb is a small zip whose one entry inflates to 256 MiB of zeros.
func zipBomb(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("zeros.txt")
	if err != nil {
		t.Fatal(err)
	}
	// 8 MiB of zeros deflate about 1,000 to one: far past the ratio that
	// marks a bomb, and cheap to make (256 MiB took minutes under -race).
	block := make([]byte, 1<<20)
	for range 8 {
		if _, err := w.Write(block); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
