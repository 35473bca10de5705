package extract

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPDFEmptyUserPassword: PDFs that anyone may open, encrypted by qpdf
// under each revision of the standard security handler, are read; one
// that needs a password says so.
func TestPDFEmptyUserPassword(t *testing.T) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Skip("qpdf is not installed (make go-test installs it)")
	}
	dir := t.TempDir()
	cases := []struct {
		name, warning string
		args          []string
	}{
		{"aes256", "", []string{"--encrypt", "", "owner", "256", "--"}},
		{"aes128", "", []string{"--encrypt", "", "owner", "128", "--use-aes=y", "--"}},
		{"rc4-128", "", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "128", "--use-aes=n", "--"}},
		{"rc4-40", "", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "40", "--"}},
		{"aes128-cleartext-metadata", "", []string{"--encrypt", "", "owner", "128", "--use-aes=y", "--cleartext-metadata", "--"}},
		{"user-password", "encrypted PDF that needs a password: contents not indexed", []string{"--encrypt", "secret", "owner", "256", "--"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".pdf")
			args := append([]string{"testdata/writer.pdf"}, c.args...)
			if b, err := exec.Command("qpdf", append(args, out)...).CombinedOutput(); err != nil {
				t.Fatalf("qpdf: %v: %s", err, b)
			}
			doc, err := Extract(t.Context(), out, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Warning != c.warning {
				t.Fatalf("warning %q, want %q", doc.Warning, c.warning)
			}
			if c.warning == "" && (!strings.Contains(doc.Text, "quokkaloaf ritual") || doc.Title != "Quokka Field Notes") {
				t.Errorf("title %q text %q", doc.Title, doc.Text)
			}
		})
	}
}
