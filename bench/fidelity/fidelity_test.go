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
