package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// doc is one document of the corpus and the text it should give.
type doc struct {
	path     string
	producer string // the program that wrote it
	format   string // pdf, docx, ...
	ref      string // the text it should give
	refKind  string // "source" (made from this text), "pdftotext" (poppler's reading of it), or the reference program
	ordered  bool   // the reading order is part of the test (columns)
	source   string // with a reference program: the text the document was made from
}

// corpus makes the documents in dir with the Debian programs at hand. A
// producer whose program is missing is listed in skipped, not fatal.
type corpus struct {
	ctx     context.Context
	dir     string
	full    bool
	docs    []doc
	skipped []string
}

func buildCorpus(ctx context.Context, dir string, full bool) (*corpus, error) {
	c := &corpus{ctx: ctx, dir: dir, full: full}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	steps := []func() error{c.libreoffice, c.chromium, c.groff, c.ghostscript, c.cairo, c.qpdf, c.shipped}
	if full {
		steps = append(steps, c.legacyOffice)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *corpus) have(prog, producer string) bool {
	if _, err := exec.LookPath(prog); err != nil {
		c.skipped = append(c.skipped, producer+" ("+prog+" not installed)")
		return false
	}
	return true
}

func (c *corpus) run(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(c.ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = c.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(c.dir, ".home"))
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

func (c *corpus) path(name string) string { return filepath.Join(c.dir, name) }

func (c *corpus) write(name, content string) error {
	return os.WriteFile(c.path(name), []byte(content), 0o644)
}

func (c *corpus) add(name, producer, format, ref, kind string) {
	c.docs = append(c.docs, doc{path: c.path(name), producer: producer, format: format, ref: ref, refKind: kind})
}

// libreoffice writes the text as PDF, DOCX, ODT, RTF and EPUB, a table as
// XLSX and slides as PPTX, in one run of soffice.
func (c *corpus) libreoffice() error {
	if !c.have("soffice", "libreoffice") {
		return nil
	}
	text := prose(0, 6)
	if err := c.write("lo.txt", text); err != nil {
		return err
	}
	csv, cells := table()
	if err := c.write("lo-sheet.csv", csv); err != nil {
		return err
	}
	slides, slideText := presentation()
	if err := c.write("lo-slides.fodp", slides); err != nil {
		return err
	}
	conv := func(to string, files ...string) error {
		return c.run("soffice", append([]string{"--headless", "--norestore", "--convert-to", to, "--outdir", c.dir}, files...)...)
	}
	if err := conv("pdf", c.path("lo.txt")); err != nil {
		return err
	}
	c.add("lo.pdf", "libreoffice", "pdf", text, "source")
	if !c.full {
		return nil // each run of soffice takes seconds: the small corpus has its PDF only
	}
	for _, to := range []string{"docx", "odt", "rtf", "epub"} {
		if err := conv(to, c.path("lo.txt")); err != nil {
			return err
		}
		c.add("lo."+to, "libreoffice", to, text, "source")
	}
	if err := conv("xlsx", c.path("lo-sheet.csv")); err != nil {
		return err
	}
	c.add("lo-sheet.xlsx", "libreoffice", "xlsx", cells, "source")
	if _, err := os.Stat("/usr/lib/libreoffice/program/libsdlo.so"); err != nil {
		c.skipped = append(c.skipped, "libreoffice pptx (LibreOffice Impress not installed)")
		return nil
	}
	for _, to := range []string{"pptx", "pdf"} {
		if err := conv(to, c.path("lo-slides.fodp")); err != nil {
			return err
		}
		c.add("lo-slides."+to, "libreoffice", to, slideText, "source")
	}
	return nil
}

// chromium prints HTML to PDF (Skia, CID fonts), one page in two columns.
func (c *corpus) chromium() error {
	text := prose(6, 6)
	if err := c.write("page.html", htmlPage(text, false)); err != nil {
		return err
	}
	c.add("page.html", "source", "html", text, "source")
	chrome := "chromium"
	if !c.have(chrome, "chromium") {
		return nil
	}
	cols := prose(12, 4)
	if err := c.write("columns.html", htmlPage(cols, true)); err != nil {
		return err
	}
	names := []string{"columns", "page"}
	if !c.full {
		names = names[:1]
	}
	for _, name := range names {
		err := c.run(chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
			"--user-data-dir="+c.path(".chromium"), "--print-to-pdf="+c.path("chromium-"+name+".pdf"), "file://"+c.path(name+".html"))
		if err != nil {
			return err
		}
	}
	c.add("chromium-columns.pdf", "chromium", "pdf", cols, "source")
	c.docs[len(c.docs)-1].ordered = true
	if c.full {
		c.add("chromium-page.pdf", "chromium", "pdf", text, "source")
	}
	return nil
}

// groff typesets the text without hyphenation, and man pages as they
// come (their reference is pdftotext's reading).
func (c *corpus) groff() error {
	if !c.have("groff", "groff") {
		return nil
	}
	text := prose(16, 5)
	if err := c.write("groff.ms", roff(text)); err != nil {
		return err
	}
	if err := c.runOut("groff.pdf", "groff", "-k", "-ms", "-Tpdf", c.path("groff.ms")); err != nil {
		return err
	}
	c.add("groff.pdf", "groff", "pdf", text, "source")
	pages := []string{"/usr/share/man/man1/groff.1.gz"}
	if c.full {
		pages = append(pages, "/usr/share/man/man1/ls.1.gz", "/usr/share/man/man1/bash.1.gz", "/usr/share/man/man1/tar.1.gz")
	}
	for i, man := range pages {
		src, err := readMaybeGz(man)
		if err != nil {
			continue
		}
		in := fmt.Sprintf("man%d.roff", i)
		if err := os.WriteFile(c.path(in), src, 0o644); err != nil {
			return err
		}
		out := fmt.Sprintf("groff-man%d.pdf", i)
		if err := c.runOut(out, "groff", "-man", "-Tpdf", c.path(in)); err != nil {
			return err
		}
		if err := c.addPoppler(out, "groff", "pdf"); err != nil {
			return err
		}
	}
	return nil
}

// ghostscript turns groff's PostScript into PDF with ps2pdf, once with
// Flate and once with LZW streams.
func (c *corpus) ghostscript() error {
	if !c.have("ps2pdf", "ghostscript") || !c.have("groff", "ghostscript") {
		return nil
	}
	text := prose(21, 5)
	if err := c.write("gs.ms", roff(text)); err != nil {
		return err
	}
	if err := c.runOut("gs.ps", "groff", "-k", "-ms", "-Tps", c.path("gs.ms")); err != nil {
		return err
	}
	if err := c.run("ps2pdf", c.path("gs.ps"), c.path("gs.pdf")); err != nil {
		return err
	}
	c.add("gs.pdf", "ghostscript", "pdf", text, "source")
	if err := c.run("gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", "-dUseFlateCompression=false",
		"-dCompatibilityLevel=1.2", "-sOutputFile="+c.path("gs-lzw.pdf"), c.path("gs.ps")); err != nil {
		return err
	}
	c.add("gs-lzw.pdf", "ghostscript", "pdf", text, "source")
	return nil
}

// cairo renders SVG text with rsvg-convert, and re-renders LibreOffice's
// PDF with pdftocairo.
func (c *corpus) cairo() error {
	if !c.have("rsvg-convert", "cairo") {
		return nil
	}
	text := prose(26, 3)
	if err := c.write("cairo.svg", svgPage(text)); err != nil {
		return err
	}
	if err := c.run("rsvg-convert", "-f", "pdf", "-o", c.path("cairo-svg.pdf"), c.path("cairo.svg")); err != nil {
		return err
	}
	c.add("cairo-svg.pdf", "cairo", "pdf", text, "source")
	if _, err := os.Stat(c.path("lo.pdf")); err == nil && c.have("pdftocairo", "cairo") {
		if err := c.run("pdftocairo", "-pdf", c.path("lo.pdf"), c.path("cairo-lo.pdf")); err != nil {
			return err
		}
		c.add("cairo-lo.pdf", "cairo", "pdf", prose(0, 6), "source")
	}
	return nil
}

// qpdf encrypts LibreOffice's PDF with an empty user password under each
// security handler revision, and packs it into object streams.
func (c *corpus) qpdf() error {
	if !c.have("qpdf", "qpdf") {
		return nil
	}
	if _, err := os.Stat(c.path("lo.pdf")); err != nil {
		return nil
	}
	text := prose(0, 6)
	variants := []struct {
		name string
		args []string
	}{
		{"qpdf-aes256.pdf", []string{"--encrypt", "", "owner", "256", "--"}},
		{"qpdf-aes128.pdf", []string{"--encrypt", "", "owner", "128", "--use-aes=y", "--"}},
		{"qpdf-rc4-128.pdf", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "128", "--use-aes=n", "--"}},
		{"qpdf-rc4-40.pdf", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "40", "--"}},
		{"qpdf-objstm.pdf", []string{"--object-streams=generate"}},
	}
	for _, v := range variants {
		args := append([]string{c.path("lo.pdf")}, v.args...)
		if err := c.run("qpdf", append(args, c.path(v.name))...); err != nil {
			return err
		}
		c.add(v.name, "qpdf", "pdf", text, "source")
	}
	return nil
}

// shipped adds the PDFs Debian packages ship under /usr/share/doc.
func (c *corpus) shipped() error {
	var found []string
	filepath.WalkDir("/usr/share/doc", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".pdf") || strings.HasSuffix(p, ".pdf.gz")) {
			found = append(found, p)
		}
		return nil
	})
	sort.Strings(found)
	if !c.full && len(found) > 2 {
		found = found[:2]
	}
	for i, p := range found {
		b, err := readMaybeGz(p)
		if err != nil || !bytes.HasPrefix(b, []byte("%PDF")) {
			continue
		}
		name := fmt.Sprintf("shipped%02d-%s", i, strings.TrimSuffix(filepath.Base(p), ".gz"))
		if err := os.WriteFile(c.path(name), b, 0o644); err != nil {
			return err
		}
		if err := c.addPoppler(name, "debian-doc", "pdf"); err != nil {
			c.skipped = append(c.skipped, name+": "+err.Error())
		}
	}
	return nil
}

// addPoppler adds a PDF whose reference is pdftotext's reading.
func (c *corpus) addPoppler(name, producer, format string) error {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		c.skipped = append(c.skipped, name+" (pdftotext not installed)")
		return nil
	}
	ref, err := pdftotext(c.ctx, c.path(name), "-raw")
	if err != nil {
		return err
	}
	c.add(name, producer, format, ref, "pdftotext")
	return nil
}

func (c *corpus) runOut(out, name string, args ...string) error {
	cmd := exec.CommandContext(c.ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v: %s", name, err, stderr.String())
	}
	return os.WriteFile(c.path(out), stdout.Bytes(), 0o644)
}

func pdftotext(ctx context.Context, path, mode string) (string, error) {
	out, err := exec.CommandContext(ctx, "pdftotext", mode, "-enc", "UTF-8", path, "-").Output()
	return string(out), err
}

func readMaybeGz(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil || !strings.HasSuffix(p, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, 64<<20))
}

// htmlPage sets paragraphs in one column, or in two with CSS columns.
func htmlPage(text string, columns bool) string {
	style := "body{font-family:serif;font-size:12pt}"
	if columns {
		style += "body{column-count:2;column-gap:2em}"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>Fidelity</title><style>%s</style></head><body>\n", style)
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(p))
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// roff sets paragraphs with the ms macros, hyphenation off.
func roff(text string) string {
	var b strings.Builder
	b.WriteString(".nh\n")
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		b.WriteString(".PP\n.nh\n")
		for _, line := range strings.Split(p, "\n") {
			b.WriteString(strings.TrimLeft(line, ".'") + "\n")
		}
	}
	return b.String()
}

// svgPage writes each sentence as a text element on its own line.
func svgPage(text string) string {
	var b strings.Builder
	lines := strings.Split(strings.Join(strings.Fields(text), " "), ". ")
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2400\" height=\"%d\">\n", 30*len(lines)+40)
	for i, l := range lines {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%d\" font-family=\"DejaVu Sans\" font-size=\"16\">%s</text>\n", 30*(i+1), html.EscapeString(l))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// table is a CSV sheet and the text of its cells.
func table() (csv, cells string) {
	words := strings.Fields(prose(30, 2))
	var b, t strings.Builder
	for i := 0; i+4 <= len(words); i += 4 {
		row := words[i : i+4]
		for j := range row {
			row[j] = strings.Trim(row[j], ",.;:\"")
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%d\n", row[0], row[1], row[2], row[3], 1000+i)
		fmt.Fprintf(&t, "%s %s %s %s %d\n", row[0], row[1], row[2], row[3], 1000+i)
	}
	return b.String(), t.String()
}

// presentation is a flat ODP with one slide per paragraph.
func presentation() (fodp, text string) {
	paras := strings.Split(strings.TrimSpace(prose(32, 3)), "\n\n")
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation"><office:body><office:presentation>
`)
	for i, p := range paras {
		fmt.Fprintf(&b, `<draw:page draw:name="s%d"><draw:frame svg:x="1cm" svg:y="1cm" svg:width="24cm" svg:height="15cm"><draw:text-box><text:p>%s</text:p></draw:text-box></draw:frame></draw:page>
`, i, html.EscapeString(strings.Join(strings.Fields(p), " ")))
	}
	b.WriteString("</office:presentation></office:body></office:document>\n")
	return b.String(), strings.Join(paras, "\n\n")
}
