package api_test

import (
	"os/exec"
	"slices"
	"testing"

	"trove/internal/testserver"
)

// GET /api/status/ says whether OCR can run: with Debian's tesseract-ocr,
// available with its languages; without tesseract, not available, no
// languages, and what to install.
func TestStatusSaysWhetherOCRCanRun(t *testing.T) {
	t.Run("installed", func(t *testing.T) {
		if _, err := exec.LookPath("tesseract"); err != nil {
			t.Skip("tesseract is not installed (make go-test installs it)")
		}
		r := testserver.Start(t).Get("/api/status/")
		langs, _ := r.Field("ocr.languages").([]any)
		if r.Status != 200 || r.Field("ocr.available") != true || r.Field("ocr.message") != "" || !slices.Contains(langs, any("eng")) {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("missing", func(t *testing.T) {
		r := testserver.Start(t, testserver.WithoutTesseract()).Get("/api/status/")
		langs, ok := r.Field("ocr.languages").([]any)
		if r.Status != 200 || r.Field("ocr.available") != false || !ok || len(langs) != 0 ||
			r.Field("ocr.message") != "tesseract is not installed: install tesseract-ocr to use OCR" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

// Turning OCR on without tesseract is saved like any setting, and kept.
func TestOCROnWithoutTesseractIsSaved(t *testing.T) {
	s := testserver.Start(t, testserver.WithoutTesseract())
	if r := s.Do("PUT", "/api/settings/", map[string]any{"extraction.ocr": true}); r.Status != 200 || r.Field("extraction.ocr") != true {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r := s.Get("/api/settings/"); r.Field("extraction.ocr") != true {
		t.Fatalf("%s", r.Body)
	}
	if r := s.Get("/api/status/"); r.Status != 200 || r.Field("ocr.available") != false {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}
