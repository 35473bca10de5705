package extract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// OCR reads the text of images and of scanned PDF pages with tesseract
// (Debian's tesseract-ocr), in every language pack installed. It is off
// by default: it costs seconds per page. It runs inside Extract, so the
// per-file time limit and the queue's concurrency bound it like any other
// extraction; tesseract itself is held to one thread.

const (
	ocrMinPixels = 200 * 50 // smaller images (icons, bullets) are not read
	ocrMaxImage  = 40 << 20 // larger images are not handed to tesseract
	ocrMaxPages  = 50       // scanned pages read per PDF
	ocrDPI       = "200"
)

// OCRMissing is the warning of a file that OCR would have read, when
// tesseract is not installed.
const OCRMissing = "text in images not read: OCR is on but tesseract is not installed"

// ocrImage runs tesseract on image bytes, in every language it has.
func ocrImage(ctx context.Context, tool OCRStatus, img []byte) (string, error) {
	cmd := exec.CommandContext(ctx, tool.Path, "stdin", "stdout", "-l", strings.Join(tool.Languages, "+"))
	cmd.Stdin = bytes.NewReader(img)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := runTool(cmd)
	return string(out), err
}

// runTool runs a command for its output; its error says what the program
// wrote on stderr.
func runTool(cmd *exec.Cmd) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", filepath.Base(cmd.Path), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// ocrApplies tells whether OCR would read more of the document as
// extracted, were it on: an image large enough to hold text, or a PDF with
// pages that gave none.
func ocrApplies(s *source, doc *Document) bool {
	if s.ctx.Err() != nil {
		return false
	}
	switch doc.Format {
	case "image":
		w, _ := strconv.Atoi(doc.Meta["width"])
		h, _ := strconv.Atoi(doc.Meta["height"])
		return w*h >= ocrMinPixels && s.size <= ocrMaxImage && ocrFormats[doc.Mime]
	case "pdf":
		return len(s.textless) > 0
	}
	return false
}

// ocrFormats are the image types tesseract's Leptonica reads.
var ocrFormats = map[string]bool{"image/png": true, "image/jpeg": true, "image/tiff": true, "image/gif": true,
	"image/bmp": true, "image/webp": true}

// runOCR adds the text tesseract reads to the document, and marks it.
// Without tesseract the document says OCR is still pending, and why.
func runOCR(s *source, doc *Document) {
	tool := s.opt.tesseract().Status(s.ctx)
	if !tool.Available {
		doc.OCRPending = true
		if doc.Warning == "" {
			doc.Warning = OCRMissing
		}
		return
	}
	var read []ocrText
	var err error
	if doc.Format == "image" {
		var img []byte
		img, _, err = s.prefix(ocrMaxImage)
		if err == nil {
			var text string
			text, err = ocrImage(s.ctx, tool, img)
			read = []ocrText{{text: text}}
		}
	} else {
		read, err = ocrPDFPages(s, tool)
	}
	if addOCRText(doc, read, s.opt.MaxTextBytes) {
		setMeta(doc, "ocr", "tesseract")
		if doc.Warning == errPDFNoTextLayer.Error() {
			doc.Warning = ""
		}
	}
	switch {
	case s.ctx.Err() != nil:
		doc.Warning = ctxWarning(s)
	case err != nil && doc.Warning == "":
		doc.Warning = "OCR failed: " + err.Error()
	}
}

// ocrText is what OCR read of an image, or of a PDF's page (from 1; 0
// for an image).
type ocrText struct {
	page int
	text string
}

// addOCRText appends what OCR read to the document's text, within the
// text limit, each PDF page marked where it starts; it tells whether any
// text was added.
func addOCRText(doc *Document, read []ocrText, limit int) bool {
	added := false
	for _, r := range read {
		sep := ""
		if doc.Text != "" {
			sep = "\n\n"
		}
		text := cutUTF8(strings.TrimSpace(r.text), max(0, limit-len(doc.Text)-len(sep)))
		if text == "" {
			continue
		}
		doc.Text += sep
		if r.page > 0 {
			doc.Pages = doc.Pages.Add(len(doc.Text), r.page)
		}
		doc.Text += text
		added = true
	}
	return added
}

// ocrPDFPages renders the pages without a text layer with poppler's
// pdftoppm and reads them.
func ocrPDFPages(s *source, tool OCRStatus) ([]ocrText, error) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		return nil, fmt.Errorf("pdftoppm (poppler-utils) is not installed")
	}
	data, _, err := s.prefix(pdfMaxFile)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "trove-ocr")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, err
	}
	var out []ocrText
	for i, page := range s.textless {
		if i >= ocrMaxPages || s.ctx.Err() != nil {
			break
		}
		n := strconv.Itoa(page)
		cmd := exec.CommandContext(s.ctx, "pdftoppm", "-r", ocrDPI, "-gray", "-png", "-f", n, "-l", n, "-singlefile", in) // no output root: the image goes to stdout
		img, err := runTool(cmd)
		if err != nil {
			return out, err
		}
		text, err := ocrImage(s.ctx, tool, img)
		if err != nil {
			return out, err
		}
		out = append(out, ocrText{page: page, text: text})
	}
	return out, nil
}
