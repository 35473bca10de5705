package indexer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// ocrFolder indexes a screenshot and a note with OCR off: the screenshot's
// words are not found.
func ocrFolder(t *testing.T, s *testserver.Server) (root, shot, note string) {
	t.Helper()
	fast(t, s)
	root = t.TempDir()
	shot, note = filepath.Join(root, "shot.png"), filepath.Join(root, "note.txt")
	testserver.Screenshot(t, shot, "Wombat harbour ledger")
	testserver.WriteFiles(t, root, "note.txt", "a note about the garden")
	s.IndexDir(root, 2)
	if hits := wombats(s); len(hits) != 0 {
		t.Fatalf("OCR off, yet the screenshot's words are found: %q", hits)
	}
	return root, shot, note
}

func wombats(s *testserver.Server) []string {
	return paths(s.Do("POST", "/api/search/", map[string]any{"query": "wombat harbour", "mode": "keyword", "limit": 5}))
}

// Turning OCR on reads the files already indexed that OCR reads more of
// (the screenshot), without a rebuild, and leaves the others alone.
func TestTurningOCROnReadsIndexedImages(t *testing.T) {
	s := testserver.Start(t)
	_, shot, note := ocrFolder(t, s)
	noteBefore := lookup(s, note).Field("indexed_at")
	if r := s.Do("PUT", "/api/settings/", map[string]any{"extraction.ocr": true}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	testserver.Eventually(t, settle, "the screenshot read with OCR", func() bool {
		hits := wombats(s)
		return len(hits) == 1 && hits[0] == shot
	})
	testserver.Eventually(t, settle, "an empty queue", func() bool { return s.Get("/api/queue/status").Field("total") == float64(0) })
	if r := lookup(s, note); r.Field("indexed_at") != noteBefore {
		t.Errorf("the note was read again: %v -> %v", noteBefore, r.Field("indexed_at"))
	}
}

// Without tesseract, turning OCR on fails nothing and reads nothing again;
// once Trove starts where tesseract is installed, the screenshot is read.
func TestOCRWaitsForTesseract(t *testing.T) {
	s := testserver.Start(t, testserver.WithoutTesseract())
	root, shot, _ := ocrFolder(t, s)
	before := lookup(s, shot)
	if r := s.Do("PUT", "/api/settings/", map[string]any{"extraction.ocr": true}); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	// Asked at start and by the change, each time found not to run.
	testserver.Eventually(t, settle, "the change's request to read files with OCR", func() bool {
		log, _ := os.ReadFile(s.LogPath)
		return strings.Count(string(log), "OCR does not run") == 2
	})
	barrier(t, s)
	after := lookup(s, shot)
	if after.Field("indexed_at") != before.Field("indexed_at") || after.Field("status") != "indexed" || after.Field("error") != before.Field("error") {
		t.Fatalf("without tesseract the screenshot changed:\nbefore %s\nafter  %s", before.Body, after.Body)
	}
	if f := s.WaitIdle(root, 2); f["failed_count"] != float64(0) {
		t.Fatalf("folder %v", f)
	}
	s.Stop()
	s = testserver.Start(t, testserver.WithDirs(s.DataDir, s.ConfigDir)) // tesseract found
	testserver.Eventually(t, settle, "the screenshot read with OCR after the restart", func() bool {
		hits := wombats(s)
		return len(hits) == 1 && hits[0] == shot
	})
}
