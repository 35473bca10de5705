package pipeline

import (
	"testing"

	"trove/backend/core"
	"trove/backend/extract"
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
