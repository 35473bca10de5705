package api_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/pdftest"
	"trove/internal/testserver"
)

func writePNG(t *testing.T, path string, w, h int, c color.Color) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A thumbnail is the image scaled down, or a PDF's first page, at the size
// asked; kept in the data dir; drawn only from the file that was indexed;
// refused for other kinds and bad sizes, and behind the API's guards.
func TestThumbnailsOfImagesAndPDFs(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("s3cret"))
	root := t.TempDir()
	photo := filepath.Join(root, "wide-photo.png")
	writePNG(t, photo, 800, 400, color.RGBA{200, 30, 30, 255})
	if err := os.WriteFile(filepath.Join(root, "report.pdf"), pdftest.Pages("Quarterly harbour report, first page.", "Second page."), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "notes.txt", "harbour notes")
	s.IndexDir(root, 3)

	picture := func(path string, want int) image.Image {
		t.Helper()
		r := s.Get(path)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %s %s", path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		img, err := png.Decode(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", path, err)
		}
		if b := img.Bounds(); max(b.Dx(), b.Dy()) != want {
			t.Fatalf("%s: %dx%d, want %d on the long side", path, b.Dx(), b.Dy(), want)
		}
		return img
	}
	img := s.FileID(photo)
	if b := picture(fmt.Sprintf("/api/files/%d/thumbnail", img), 256).Bounds(); b.Dy() != 128 {
		t.Fatalf("proportions lost: %v", b)
	}
	if r, g, _, _ := picture(fmt.Sprintf("/api/files/%d/thumbnail?size=64", img), 64).At(10, 10).RGBA(); r>>8 < 190 || g>>8 > 40 {
		t.Fatalf("the picture is not the image's: r %d g %d", r>>8, g>>8)
	}
	picture(fmt.Sprintf("/api/files/%d/thumbnail?size=128", s.FileID(filepath.Join(root, "report.pdf"))), 128)
	kept, _ := filepath.Glob(filepath.Join(s.DataDir, "thumbnails", "*.png"))
	if len(kept) != 3 {
		t.Fatalf("%d pictures kept in the data dir, want 3", len(kept))
	}

	for path, code := range map[string]string{
		fmt.Sprintf("/api/files/%d/thumbnail", s.FileID(filepath.Join(root, "notes.txt"))): "NO_THUMBNAIL",
		fmt.Sprintf("/api/files/%d/thumbnail?size=5", img):                                 "INVALID_PARAMETER",
		fmt.Sprintf("/api/files/%d/thumbnail?size=big", img):                               "INVALID_PARAMETER",
	} {
		if r := s.Get(path); r.Status != 400 || r.Field("error.code") != code {
			t.Errorf("%s: %d %s, want 400 %s", path, r.Status, r.Body, code)
		}
	}
	if r := s.Get("/api/files/999999/thumbnail"); r.Status != 404 {
		t.Errorf("unknown file: %d %s", r.Status, r.Body)
	}

	path := fmt.Sprintf("/api/files/%d/thumbnail?size=64", img)
	if r := s.Do("GET", path, nil, "Sec-Fetch-Site", "cross-site"); r.Status != 403 {
		t.Errorf("asked by another site's page: %d", r.Status)
	}
	s.Token = ""
	if r := s.Get(path); r.Status != 401 {
		t.Errorf("without the token: %d", r.Status)
	}
	s.Token = "s3cret"

	// Another image renamed onto the indexed one's name is not drawn, even
	// with a picture of the old one kept.
	other := filepath.Join(t.TempDir(), "other.png")
	writePNG(t, other, 800, 400, color.RGBA{30, 200, 30, 255})
	if err := os.Rename(other, photo); err != nil {
		t.Fatal(err)
	}
	if r := s.Get(path); r.Status == 200 {
		t.Fatalf("drew a file swapped in for the indexed one")
	}
}

// A video's thumbnail is one of its frames, read through the descriptor
// Trove opened: an MP4 whose index sits at its end (ffmpeg's default) is
// drawn too. A file that only looks like a video is refused in the
// endpoint's shape.
func TestThumbnailsOfVideos(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed; make go-test installs it")
	}
	s := testserver.Start(t)
	root := t.TempDir()
	clip := filepath.Join(root, "red-clip.mp4")
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=red:size=320x180:rate=10",
		"-t", "2", "-pix_fmt", "yuv420p", clip).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(root, "broken.mp4"), []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isomnot a video at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.IndexDir(root, 2)

	r := s.Get(fmt.Sprintf("/api/files/%d/thumbnail?size=128", s.FileID(clip)))
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("video: %d %s", r.Status, r.Body)
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 128 || b.Dy() != 72 {
		t.Fatalf("%dx%d, want 128x72", b.Dx(), b.Dy())
	}
	if red, g, _, _ := img.At(60, 30).RGBA(); red>>8 < 200 || g>>8 > 60 {
		t.Fatalf("the picture is not the video's frame: r %d g %d", red>>8, g>>8)
	}
	if r := s.Get(fmt.Sprintf("/api/files/%d/thumbnail?size=512", s.FileID(clip))); r.Status != 200 {
		t.Fatalf("video at 512: %d %s", r.Status, r.Body)
	} else if img, err := png.Decode(bytes.NewReader(r.Body)); err != nil || img.Bounds().Dx() != 320 {
		t.Fatalf("a small video was enlarged (or not drawn): %v %v", err, img)
	}

	broken := fmt.Sprintf("/api/files/%d/thumbnail", s.FileID(filepath.Join(root, "broken.mp4")))
	if r := s.Get(broken); r.Status != 400 || r.Field("error.code") != "NO_THUMBNAIL" || !strings.Contains(fmt.Sprint(r.Field("error.message")), "ffmpeg") {
		t.Fatalf("broken video: %d %s, want 400 NO_THUMBNAIL from ffmpeg", r.Status, r.Body)
	}
}
