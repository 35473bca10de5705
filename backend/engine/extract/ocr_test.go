package extract

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ocrFixtures renders a page of text with Ghostscript as a screenshot-like
// PNG and as a scanned PDF (one image per page, no text layer).
func ocrFixtures(t *testing.T) (png, scan string) {
	t.Helper()
	if _, err := exec.LookPath("gs"); err != nil {
		t.Skip("ghostscript is not installed (make go-test installs it)")
	}
	dir := t.TempDir()
	text := filepath.Join(dir, "text.pdf")
	content := "BT /F1 28 Tf 60 700 Td (Wombat harbour ledger) Tj 0 -40 Td (quokka lighthouse 1923) Tj ET"
	if err := os.WriteFile(text, onePagePDF([]byte(content), "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"), 0o644); err != nil {
		t.Fatal(err)
	}
	png, scan = filepath.Join(dir, "shot.png"), filepath.Join(dir, "scan.pdf")
	for _, args := range [][]string{
		{"-q", "-sDEVICE=png16m", "-r120", "-dTextAlphaBits=4", "-o", png, text},
		{"-q", "-sDEVICE=pdfimage8", "-r200", "-o", scan, text},
	} {
		if out, err := exec.Command("gs", args...).CombinedOutput(); err != nil {
			t.Fatalf("gs %v: %v: %s", args, err, out)
		}
	}
	return png, scan
}

// TestOCR: with the setting off, a screenshot gives no text and a scanned
// PDF says it has no text layer, and both say OCR would read them; on,
// tesseract reads both and the document is marked as OCR text; with
// tesseract missing, the files are indexed as before, still pending, and
// the warning says why their text was not read.
func TestOCR(t *testing.T) {
	png, scan := ocrFixtures(t)
	if !CheckOCR(t.Context()).Available {
		t.Skip("tesseract is not installed (make go-test installs it)")
	}
	t.Run("off", func(t *testing.T) {
		doc, err := Extract(t.Context(), png, Options{})
		if err != nil || doc.Text != "" || doc.Meta["ocr"] != "" || !doc.OCRPending {
			t.Errorf("png: %v %+v", err, doc)
		}
		doc, err = Extract(t.Context(), scan, Options{})
		if err != nil || strings.TrimSpace(doc.Text) != "" || doc.Warning != errPDFNoTextLayer.Error() || !doc.OCRPending {
			t.Errorf("scan: %v %+v", err, doc)
		}
	})
	t.Run("on", func(t *testing.T) {
		for _, path := range []string{png, scan} {
			doc, err := Extract(t.Context(), path, Options{OCR: true})
			if err != nil {
				t.Fatal(err)
			}
			low := strings.ToLower(doc.Text)
			if !strings.Contains(low, "wombat") || !strings.Contains(low, "lighthouse") || doc.Meta["ocr"] != "tesseract" || doc.Warning != "" || doc.OCRPending {
				t.Errorf("%s: %+v", filepath.Base(path), doc)
			}
			// A scanned page's text is of that page; an image has none.
			if page := doc.Pages.At(strings.Index(low, "wombat")); path == scan && page != 1 || path == png && page != 0 {
				t.Errorf("%s: wombat on page %d (%v)", filepath.Base(path), page, doc.Pages)
			}
		}
	})
	t.Run("missing", func(t *testing.T) {
		missing := &OCRProbe{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
		for _, path := range []string{png, scan} {
			doc, err := Extract(t.Context(), path, Options{OCR: true, Tesseract: missing})
			if err != nil || doc.Warning != OCRMissing || doc.Meta["ocr"] != "" || !doc.OCRPending {
				t.Errorf("%s: %v %+v", filepath.Base(path), err, doc)
			}
		}
	})
}

// TestRunToolSaysWhy: a failing program's error carries what it wrote on
// stderr (pdftoppm's and tesseract's reasons reach the warning).
func TestRunToolSaysWhy(t *testing.T) {
	_, err := runTool(exec.Command("sh", "-c", "echo 'Syntax Error: broken xref' >&2; exit 3"))
	if err == nil || !strings.Contains(err.Error(), "broken xref") || !strings.HasPrefix(err.Error(), "sh: ") {
		t.Errorf("%v", err)
	}
}
