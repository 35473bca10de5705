package store

import (
	"slices"
	"testing"
	"time"

	"trove/backend/core"
)

func pendingPaths(t *testing.T, s *Store) []string {
	t.Helper()
	recs, err := s.PendingOCR(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		if !r.OCRPending {
			t.Errorf("%s listed but not pending", r.Path)
		}
		out = append(out, r.Path)
	}
	slices.Sort(out)
	return out
}

// A file written as pending OCR is listed until it is written again
// without, or fails.
func TestPendingOCR(t *testing.T) {
	s, _ := openTemp(t)
	dir, err := s.AddDirectory(ctx, "/", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/scan.pdf", "/shot.png", "/note.txt"} {
		d := doc(dir.ID, p, "text")
		d.OCRPending = p != "/note.txt"
		if _, err := s.PutDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if got := pendingPaths(t, s); !slices.Equal(got, []string{"/scan.pdf", "/shot.png"}) {
		t.Fatalf("pending %q", got)
	}
	if rec, _, err := s.Lookup(ctx, "/shot.png"); err != nil || !rec.OCRPending {
		t.Errorf("lookup: %+v %v", rec, err)
	}
	if _, err := s.PutDocument(ctx, doc(dir.ID, "/shot.png", "read by OCR")); err != nil {
		t.Fatal(err)
	}
	f := doc(dir.ID, "/scan.pdf").File
	f.Error = "broken"
	if _, err := s.PutFailed(ctx, f); err != nil {
		t.Fatal(err)
	}
	if got := pendingPaths(t, s); len(got) != 0 {
		t.Errorf("pending %q after both were written again", got)
	}
}

// An index from before OCR pending was recorded gets it from what it can
// tell: images tesseract reads, not yet read by OCR and not too big, and
// PDFs without a text layer.
func TestPendingOCRFromOlderIndex(t *testing.T) {
	s, dir := openTemp(t)
	d, err := s.AddDirectory(ctx, "/", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	put := func(path, mime, warning string, size int64, text string) {
		t.Helper()
		doc := doc(d.ID, path, text)
		doc.File.Mime, doc.File.Error, doc.File.Size = mime, warning, size
		if _, err := s.PutDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	put("/shot.png", "image/png", "", 5000, "width: 800\nheight: 600")
	put("/photo.jpg", "image/jpeg", "text in images not read: OCR is on but tesseract is not installed", 9000, "camera: X")
	put("/read.png", "image/png", "", 5000, "Wombat\n\nocr: tesseract\n")
	put("/huge.tif", "image/tiff", "", 50<<20, "")
	put("/big.png", "image/png", "larger than 1 MB: indexed by name only", 2<<20, "")
	put("/logo.svg", "image/svg+xml", "", 500, "")
	put("/scan.pdf", "application/pdf", "PDF without a text layer (scanned pages): turn on OCR to read them", 700, "pages: 3")
	put("/report.pdf", "application/pdf", "", 700, "The report")
	f := doc(d.ID, "/broken.png", "").File
	f.Mime = "image/png"
	if _, err := s.PutFailed(ctx, f); err != nil {
		t.Fatal(err)
	}
	rollBack(t, s, 4) // before OCR pending
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"/photo.jpg", "/scan.pdf", "/shot.png"}
	if got := pendingPaths(t, s); !slices.Equal(got, want) {
		t.Errorf("pending %q, want %q", got, want)
	}
	if rec, _, _ := s.Lookup(ctx, "/broken.png"); rec.State != core.StateFailed || rec.OCRPending {
		t.Errorf("failed file: %+v", rec)
	}
}
