package pipeline

import (
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"trove/backend/core"
	"trove/backend/engine/extract"
	"trove/backend/store"
)

// TestOCRSettingReachesExtraction: extraction.ocr turns OCR on for the
// files the queue reads, and the OCR mark is part of the indexed text.
func TestOCRSettingReachesExtraction(t *testing.T) {
	var cfg core.Settings
	if extractOptions(cfg, "/", nil).OCR {
		t.Error("OCR on by default")
	}
	cfg.Extraction.OCR = true
	if !extractOptions(cfg, "/", nil).OCR {
		t.Error("extraction.ocr does not turn OCR on")
	}
	text := withMetadata(extract.Document{Text: "wombat", Meta: map[string]string{"ocr": "tesseract"}})
	if text != "wombat\n\nocr: tesseract\n" {
		t.Errorf("%q", text)
	}
}

// screenshot renders a line of text as a PNG with Ghostscript.
func screenshot(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("gs"); err != nil {
		t.Skip("ghostscript is not installed (make go-test installs it)")
	}
	ps := filepath.Join(t.TempDir(), "page.ps")
	writeFile(t, ps, "%!PS\n/Helvetica findfont 28 scalefont setfont\n40 700 moveto (Wombat harbour ledger) show\nshowpage\n")
	if out, err := exec.Command("gs", "-q", "-sDEVICE=png16m", "-r100", "-dTextAlphaBits=4", "-o", path, ps).CombinedOutput(); err != nil {
		t.Fatalf("gs: %v: %s", err, out)
	}
}

// TestOCRPendingIsReadWhenOCRRuns: a screenshot indexed with OCR off is
// recorded as pending OCR and, though unchanged, is read again once OCR
// runs; while tesseract is missing it is left as it was (nothing fails);
// files OCR reads nothing more of are not read again.
func TestOCRPendingIsReadWhenOCRRuns(t *testing.T) {
	if !extract.CheckOCR(t.Context()).Available {
		t.Skip("tesseract is not installed (make go-test installs it)")
	}
	root := t.TempDir()
	var cfg *core.Settings
	var mu sync.Mutex
	indexed := map[string]int{}
	r := newRig(t, root, func(d *Deps, c *core.Settings) {
		cfg = c
		d.Publish = func(e core.EventData) {
			if ev, ok := e.(core.FileIndexed); ok {
				mu.Lock()
				indexed[filepath.Base(ev.Path)]++
				mu.Unlock()
			}
		}
	})
	shot, note := filepath.Join(root, "shot.png"), filepath.Join(root, "note.txt")
	screenshot(t, shot)
	writeFile(t, note, "a note about the garden")
	indexAll := func() {
		t.Helper()
		for _, p := range []string{shot, note} {
			if err := r.index(t, t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
	}
	pending := func(path string) bool {
		t.Helper()
		rec, ok, err := r.store.Lookup(t.Context(), path)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", path, ok, err)
		}
		return rec.OCRPending
	}
	wombats := func() int {
		t.Helper()
		hits, _, err := r.store.TermMatches(t.Context(), store.ContentTable, store.Any(store.Phrase{Words: []string{"wombat"}}), store.TermScope{})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	count := func(name string) int { mu.Lock(); defer mu.Unlock(); return indexed[name] }

	indexAll()
	if !pending(shot) || pending(note) || wombats() != 0 {
		t.Fatalf("OCR off: shot pending %v, note pending %v, %d wombats", pending(shot), pending(note), wombats())
	}
	if r.p.OCRRuns(t.Context()) {
		t.Error("OCR runs while extraction.ocr is off")
	}

	cfg.Extraction.OCR = true
	r.p.OCR = &extract.OCRProbe{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	indexAll()
	if r.p.OCRRuns(t.Context()) || count("shot.png") != 1 || !pending(shot) {
		t.Fatalf("tesseract missing: shot indexed %d times, pending %v", count("shot.png"), pending(shot))
	}

	r.p.OCR = nil // the real tesseract
	if !r.p.OCRRuns(t.Context()) {
		t.Fatal("OCR does not run with extraction.ocr on and tesseract installed")
	}
	indexAll()
	if count("shot.png") != 2 || pending(shot) || wombats() != 1 {
		t.Fatalf("OCR on: shot indexed %d times, pending %v, %d wombats", count("shot.png"), pending(shot), wombats())
	}
	indexAll()
	if count("shot.png") != 2 || count("note.txt") != 1 {
		t.Errorf("read again without cause: shot %d, note %d", count("shot.png"), count("note.txt"))
	}
}
