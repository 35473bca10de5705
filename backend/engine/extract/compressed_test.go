package extract

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompressedFiles: a text file compressed with bzip2, xz and zstd is
// indexed by its text, and a compressed tar by its entries; the programs
// are Debian's.
func TestCompressedFiles(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("The numbat compressed its diary. ", 50)
	if err := os.WriteFile(filepath.Join(dir, "diary.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "entry.md"), []byte("# entry"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []struct{ prog, ext string }{{"bzip2", ".bz2"}, {"xz", ".xz"}, {"zstd", ".zst"}} {
		t.Run(tool.prog, func(t *testing.T) {
			if _, err := exec.LookPath(tool.prog); err != nil {
				t.Skip(tool.prog + " is not installed")
			}
			raw, err := exec.Command(tool.prog, "-c", filepath.Join(dir, "diary.txt")).Output()
			if err != nil {
				t.Fatal(err)
			}
			doc := extractBytes(t, "diary.txt"+tool.ext, raw, Options{})
			if doc.Format != "text" || !strings.Contains(doc.Text, "numbat compressed its diary") {
				t.Errorf("text: %+v", doc)
			}
			tarball, err := exec.Command("tar", "-C", dir, "-cf", "-", "--use-compress-program="+tool.prog, "entry.md", "diary.txt").Output()
			if err != nil {
				t.Fatal(err)
			}
			doc = extractBytes(t, "both.tar"+tool.ext, tarball, Options{})
			if doc.Format != "archive" || !strings.Contains(doc.Text, "entry.md") || doc.Meta["entries"] != "2" {
				t.Errorf("tar: %+v", doc)
			}
			// A truncated stream gives what it could, and a warning, never a failure.
			doc = extractBytes(t, "cut.txt"+tool.ext, raw[:len(raw)/2], Options{})
			if doc.Format == "" {
				t.Errorf("truncated: %+v", doc)
			}
		})
	}
	// Text that merely starts like bzip2's magic stays text.
	if doc := extractBytes(t, "notes.txt", []byte("BZh9 is not a header\n"), Options{}); doc.Format != "text" {
		t.Errorf("BZh text: %+v", doc)
	}
}
