package extract

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"trove/internal/poll"
)

// fakeTesseract writes a shell script standing in for tesseract.
func fakeTesseract(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tesseract")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func found(path string) func(string) (string, error) {
	return func(string) (string, error) { return path, nil }
}

// The real tesseract (Debian tesseract-ocr) is found with its languages;
// osd, which is no language, is not listed.
func TestOCRProbeFindsTesseract(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (make go-test installs it)")
	}
	st := (&OCRProbe{}).Status(t.Context())
	if !st.Available || st.Message != "" || !filepath.IsAbs(st.Path) || st.CheckedAt.IsZero() {
		t.Fatalf("%+v", st)
	}
	if !slices.Contains(st.Languages, "eng") || slices.Contains(st.Languages, "osd") {
		t.Errorf("languages %q", st.Languages)
	}
}

// Without tesseract on the PATH (or as the lookup says), OCR is not
// available and the message says what to install.
func TestOCRProbeMissing(t *testing.T) {
	t.Run("empty PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		st := (&OCRProbe{}).Status(t.Context())
		if st.Available || st.Message != OCRNotInstalled || st.Path != "" || st.Languages != nil {
			t.Errorf("%+v", st)
		}
	})
	t.Run("lookup", func(t *testing.T) {
		st := (&OCRProbe{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}).Status(t.Context())
		if st.Available || st.Message != OCRNotInstalled {
			t.Errorf("%+v", st)
		}
	})
}

// A tesseract that fails, hangs, lists no language or makes the look
// panic gives a status that says so, never an error or a crash.
func TestOCRProbeFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool func(t *testing.T) func(string) (string, error)
		want string
	}{
		{"fails", func(t *testing.T) func(string) (string, error) {
			return found(fakeTesseract(t, "echo 'error while loading shared libraries: libtesseract.so.5' >&2; exit 127"))
		}, "tesseract does not work: tesseract: exit status 127: error while loading shared libraries"},
		// The child sleep keeps the output open after the shell is killed.
		{"hangs", func(t *testing.T) func(string) (string, error) { return found(fakeTesseract(t, "sleep 5; echo eng")) },
			"tesseract did not answer within 200ms"},
		{"no languages", func(t *testing.T) func(string) (string, error) {
			return found(fakeTesseract(t, `echo 'List of available languages in "/x/" (1):'; echo osd`))
		}, "tesseract has no language packs"},
		{"panics", func(t *testing.T) func(string) (string, error) {
			return func(string) (string, error) { panic("lookup broke") }
		}, "looking for tesseract failed: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := (&OCRProbe{LookPath: tc.tool(t), Timeout: 200 * time.Millisecond}).Status(t.Context())
			if st.Available || !strings.HasPrefix(st.Message, tc.want) || st.CheckedAt.IsZero() {
				t.Errorf("%+v, want message %q", st, tc.want)
			}
		})
	}
}

// A request waits for the first look no longer than it may wait itself,
// and then learns the answer once the look is done.
func TestOCRProbeNeverHoldsARequest(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "go")
	tool := fakeTesseract(t, `while [ ! -e '`+gate+`' ]; do sleep 0.02; done
echo 'List of available languages in "/x/" (3):'
printf 'deu\nosd\neng\n'`)
	p := &OCRProbe{LookPath: found(tool), Timeout: time.Minute}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if st := p.Status(ctx); st.Available || st.Message != ocrChecking {
		t.Fatalf("while the look runs: %+v", st)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st := p.Status(t.Context())
	if !st.Available || !slices.Equal(st.Languages, []string{"deu", "eng"}) || st.Path != tool {
		t.Errorf("after the look: %+v", st)
	}
}

// The answer is remembered; once it is old, it is still given at once
// while a new look runs, so tesseract installed meanwhile is noticed.
func TestOCRProbeCachesAndRefreshes(t *testing.T) {
	tool := fakeTesseract(t, `printf 'List of available languages (1):\neng\n'`)
	var mu sync.Mutex
	looks, installed := 0, false
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &OCRProbe{
		LookPath: func(string) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			looks++
			if !installed {
				return "", exec.ErrNotFound
			}
			return tool, nil
		},
		MaxAge: time.Minute,
		Now:    func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
	}
	lookCount := func() int { mu.Lock(); defer mu.Unlock(); return looks }
	for range 3 {
		if st := p.Status(t.Context()); st.Available || st.Message != OCRNotInstalled {
			t.Fatalf("%+v", st)
		}
	}
	if n := lookCount(); n != 1 {
		t.Fatalf("%d looks for three fresh requests", n)
	}
	mu.Lock()
	installed, now = true, now.Add(2*time.Minute)
	mu.Unlock()
	if st := p.Status(t.Context()); st.Available {
		t.Fatalf("an old answer is given at once, the new look runs behind it: %+v", st)
	}
	if !poll.Until(10*time.Second, func() bool { return p.Status(t.Context()).Available }) {
		t.Fatalf("the install was not noticed (%d looks)", lookCount())
	}
	if n := lookCount(); n != 2 {
		t.Errorf("%d looks, want 2", n)
	}
}

// Only what OCR would read is left pending: images large enough to hold
// text, not icons and not plain text.
func TestOCRPendingOnlyWhereOCRReads(t *testing.T) {
	pngOf := func(w, h int) []byte {
		var b bytes.Buffer
		png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)))
		return b.Bytes()
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		pending bool
	}{
		{"shot.png", pngOf(400, 120), true},
		{"icon.png", pngOf(16, 16), false},
		{"note.txt", []byte("a plain note about wombats"), false},
	} {
		if doc := extractBytes(t, tc.name, tc.data, Options{}); doc.OCRPending != tc.pending {
			t.Errorf("%s: pending %v, want %v (%+v)", tc.name, doc.OCRPending, tc.pending, doc)
		}
	}
}
