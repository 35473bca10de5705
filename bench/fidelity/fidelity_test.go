package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestFidelityThresholds makes the small corpus and checks that Trove
// gives at least 97 % of the reference's words for every producer and
// format, reads the encrypted PDFs, and reads the two-column page in
// column order. Producers whose program is missing are skipped; make
// go-test installs them.
func TestFidelityThresholds(t *testing.T) {
	if testing.Short() {
		t.Skip("makes documents with LibreOffice, Chromium, groff, Ghostscript, cairo and qpdf")
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("poppler-utils is not installed")
	}
	c, err := buildCorpus(t.Context(), t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	rows := measureAndLog(t, c)
	for _, g := range groups(rows) {
		if g.trove.recall() < 0.97 {
			t.Errorf("%s %s: recall %.3f < 0.97", g.producer, g.format, g.trove.recall())
		}
	}
	for _, r := range rows {
		switch {
		case strings.Contains(r.path, "qpdf-") && (r.warning != "" || r.trove.recall() < 0.97):
			t.Errorf("%s: %q, recall %.3f", r.path, r.warning, r.trove.recall())
		case r.ordered && r.trove.order() < 0.97:
			t.Errorf("%s: reading order %.3f < 0.97", r.path, r.trove.order())
		}
	}
}

// TestLegacyOfficeFidelity saves the prose, a table and slides as Word,
// Excel and PowerPoint 97-2003 files with LibreOffice, and checks that
// Trove gives at least 95 % of the words of the source text and of every
// reference program's reading that itself reads the file (half the
// source's words or more).
func TestLegacyOfficeFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("makes documents with LibreOffice")
	}
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice is not installed")
	}
	c := &corpus{ctx: t.Context(), dir: t.TempDir(), full: true}
	if err := c.legacyOffice(); err != nil {
		t.Fatal(err)
	}
	rows := measureAndLog(t, c)
	formats := map[string]bool{}
	for _, g := range groups(rows) {
		formats[g.format] = true
		if g.tool && g.poppler.recall() < 0.5 {
			continue // the program does not read this file
		}
		if g.trove.recall() < 0.95 {
			t.Errorf("%s %s against %s: recall %.3f < 0.95", g.producer, g.format, g.refKind, g.trove.recall())
		}
	}
	if !formats["doc"] || !formats["xls"] {
		t.Errorf("formats measured: %v", formats)
	}
}

// measureAndLog reads the corpus and logs what was skipped and the table.
func measureAndLog(t *testing.T, c *corpus) []result {
	t.Helper()
	for _, s := range c.skipped {
		t.Log("skipped:", s)
	}
	rows, err := measure(t.Context(), c.docs)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	printTable(&table, rows)
	t.Log("\n" + table.String())
	return rows
}
