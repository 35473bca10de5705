package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// imageCorpus indexes one 3x2 PNG and one text file and returns their ids.
func imageCorpus(t *testing.T) (s *testserver.Server, img, txt int64) {
	t.Helper()
	s = testserver.Start(t)
	root := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, root, "photo.png", b.String(), "note.txt", "Tide tables for the harbour.")
	s.IndexDir(root, 2)
	return s, s.FileID(filepath.Join(root, "photo.png")), s.FileID(filepath.Join(root, "note.txt"))
}

// A request a browser made for another site's page, or for a page on
// another port of this host (the same site), shows no Origin on GET, so
// only Sec-Fetch-Site tells it apart. The API refuses it in the endpoint's
// error shape; Trove's own pages, typed addresses and programs pass.
func TestAPIRefusesRequestsOfOtherSites(t *testing.T) {
	s, img, txt := imageCorpus(t)
	imgPath := fmt.Sprintf("/api/files/%d/image", img)
	for _, site := range []string{"cross-site", "same-site", "Cross-Site"} {
		r := s.Do("GET", imgPath, nil, "Sec-Fetch-Site", site, "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image")
		if r.Status != 403 || r.Field("error.code") != "FORBIDDEN" || bytes.HasPrefix(r.Body, []byte("\x89PNG")) {
			t.Errorf("image, Sec-Fetch-Site %s: %d %s", site, r.Status, r.Body)
		}
		if got := r.Header.Get("Cross-Origin-Resource-Policy"); got != "same-origin" {
			t.Errorf("refusal, Sec-Fetch-Site %s: Cross-Origin-Resource-Policy %q", site, got)
		}
	}
	// The refusal takes each family's shape: /api/files/{id} is bare.
	if r := s.Do("GET", fmt.Sprintf("/api/files/%d", txt), nil, "Sec-Fetch-Site", "cross-site"); r.Status != 403 ||
		r.Field("code") != "FORBIDDEN" || r.Field("error") == nil {
		t.Errorf("file record, cross-site: %d %s", r.Status, r.Body)
	}
	// A page elsewhere that links to the API (a navigation) is refused too.
	if r := s.Do("GET", "/api/status/", nil, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"); r.Status != 403 {
		t.Errorf("navigation from another site: %d %s", r.Status, r.Body)
	}
	// Trove's own UI, a typed address, a program without fetch metadata.
	for _, h := range [][]string{{"Sec-Fetch-Site", "same-origin"}, {"Sec-Fetch-Site", "none"}, nil} {
		r := s.Do("GET", imgPath, nil, h...)
		if r.Status != 200 || !bytes.HasPrefix(r.Body, []byte("\x89PNG")) {
			t.Errorf("image with %v: %d %s", h, r.Status, r.Body)
		}
		if got := r.Header.Get("Cross-Origin-Resource-Policy"); got != "same-origin" {
			t.Errorf("image with %v: Cross-Origin-Resource-Policy %q", h, got)
		}
	}
	// The web UI's own files may be linked to from anywhere.
	if r := s.Do("GET", "/", nil, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"); r.Status != 200 {
		t.Errorf("UI from a link elsewhere: %d", r.Status)
	}
}

// A real browser showing a page of another site (localhost is another
// site than 127.0.0.1) or of another port of Trove's host cannot load an
// indexed image, while the same page's own image loads.
func TestBrowserPageCannotEmbedIndexedImage(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (make go-test installs it)")
	}
	s, img, _ := imageCorpus(t)
	src := fmt.Sprintf("%s/api/files/%d/image", s.URL, img)
	if !strings.HasPrefix(src, "http://127.0.0.1:") {
		t.Fatalf("the test server is not on 127.0.0.1: %s", s.URL)
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/own.png" {
			w.Header().Set("Content-Type", "image/png")
			png.Encode(w, image.NewGray(image.Rect(0, 0, 1, 1)))
			return
		}
		fmt.Fprintf(w, `<!doctype html><title>page</title>
<img id="own" src="/own.png" onload="this.alt='loaded'" onerror="this.alt='refused'">
<img id="trove" src="%s" onload="this.alt='loaded '+this.naturalWidth" onerror="this.alt='refused'">`, src)
	}))
	defer page.Close()
	port := page.URL[strings.LastIndex(page.URL, ":")+1:]
	for _, host := range []string{"localhost", "127.0.0.1"} {
		dom := dumpDOM(t, chrome, "http://"+host+":"+port+"/")
		if !strings.Contains(dom, `id="own" src="/own.png" onload="this.alt='loaded'" onerror="this.alt='refused'" alt="loaded"`) {
			t.Fatalf("page on %s: its own image did not load, so the browser check proves nothing:\n%s", host, dom)
		}
		if !strings.Contains(dom, `alt="refused"`) || strings.Contains(dom, `alt="loaded 3"`) {
			t.Errorf("page on %s loaded Trove's image:\n%s", host, dom)
		}
	}
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// load event (which waits for every image to load or fail).
func dumpDOM(t *testing.T, chrome, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profile := t.TempDir()
	cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+profile, "--dump-dom", url)
	cmd.Env = append(os.Environ(), "HOME="+profile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, stderr.String())
	}
	return string(out)
}
