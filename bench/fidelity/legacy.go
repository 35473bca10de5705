package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// legacyOffice has LibreOffice save the prose, the table and the slides as
// Word, Excel and PowerPoint 97-2003 files, and reads each with Debian's
// programs for these formats as well as with LibreOffice's own text
// export. Trove is measured against the source text and against each
// program's reading; each program's reading is measured against the
// source text too.
func (c *corpus) legacyOffice() error {
	if !c.have("soffice", "libreoffice 97-2003") {
		return nil
	}
	text := prose(0, 6)
	csv, cells := table()
	slides, slideText := presentation()
	for name, content := range map[string]string{"lo.txt": text, "lo-sheet.csv": csv, "lo-slides.fodp": slides} {
		if err := c.write(name, content); err != nil {
			return err
		}
	}
	files := []struct{ src, filter, out, format, ref string }{
		{"lo.txt", "doc:MS Word 97", "lo.doc", "doc", text},
		{"lo-sheet.csv", "xls:MS Excel 97", "lo-sheet.xls", "xls", cells},
		{"lo-slides.fodp", "ppt:MS PowerPoint 97", "lo-slides.ppt", "ppt", slideText},
	}
	if _, err := os.Stat("/usr/lib/libreoffice/program/libsdlo.so"); err != nil {
		c.skipped = append(c.skipped, "libreoffice ppt (LibreOffice Impress not installed)")
		files = files[:2]
	}
	for _, f := range files {
		if err := c.run("soffice", "--headless", "--norestore", "--convert-to", f.filter, "--outdir", c.dir, c.path(f.src)); err != nil {
			return err
		}
		c.add(f.out, "libreoffice", f.format, f.ref, "source")
		for _, tool := range legacyReaders[f.format] {
			if !c.have(tool.prog, tool.name+" "+f.format) {
				continue
			}
			got, err := tool.read(c, f.out)
			if err == nil && strings.TrimSpace(got) == "" {
				err = errors.New("read no text")
			}
			if err != nil {
				c.skipped = append(c.skipped, tool.name+" "+f.out+": "+err.Error())
				continue
			}
			c.docs = append(c.docs, doc{path: c.path(f.out), producer: "libreoffice", format: f.format,
				ref: got, refKind: tool.name, source: f.ref})
		}
	}
	return nil
}

// legacyReader is a program that reads a 97-2003 file as text.
type legacyReader struct {
	name, prog string
	read       func(c *corpus, file string) (string, error)
}

var legacyReaders = map[string][]legacyReader{
	"doc": {
		{"antiword", "antiword", stdout("antiword", "-w", "0")},
		{"catdoc", "catdoc", stdout("catdoc", "-w", "-d", "utf-8")},
		{"soffice txt", "soffice", sofficeText("txt:Text (encoded):UTF8", ".txt")},
	},
	"xls": {
		{"xls2csv", "xls2csv", stdout("xls2csv", "-d", "utf-8")},
		{"soffice csv", "soffice", sofficeText("csv:Text - txt - csv (StarCalc):44,34,76,1", ".csv")},
	},
	"ppt": {
		{"catppt", "catppt", stdout("catppt", "-d", "utf-8")},
		{"soffice pdf+pdftotext", "soffice", sofficePDFText},
	},
}

func stdout(name string, args ...string) func(*corpus, string) (string, error) {
	return func(c *corpus, file string) (string, error) {
		out, err := exec.CommandContext(c.ctx, name, append(args, c.path(file))...).Output()
		return string(out), err
	}
}

// sofficeConvert converts the file into its own folder, so that the
// result does not overwrite the corpus's sources, and returns its path.
func sofficeConvert(c *corpus, file, filter, ext string) (string, error) {
	base := strings.TrimSuffix(file, filepath.Ext(file))
	dir := c.path("ref-" + base)
	if err := c.run("soffice", "--headless", "--norestore", "--convert-to", filter, "--outdir", dir, c.path(file)); err != nil {
		return "", err
	}
	return filepath.Join(dir, base+ext), nil
}

func sofficeText(filter, ext string) func(*corpus, string) (string, error) {
	return func(c *corpus, file string) (string, error) {
		p, err := sofficeConvert(c, file, filter, ext)
		if err != nil {
			return "", err
		}
		out, err := os.ReadFile(p)
		return string(out), err
	}
}

// sofficePDFText is LibreOffice's reading of a presentation, which it
// exports to no text format: its PDF, read by pdftotext.
func sofficePDFText(c *corpus, file string) (string, error) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		return "", err
	}
	p, err := sofficeConvert(c, file, "pdf", ".pdf")
	if err != nil {
		return "", err
	}
	return pdftotext(c.ctx, p, "-raw")
}
