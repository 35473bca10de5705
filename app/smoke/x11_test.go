//go:build desktopsmoke

package smoke

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// startXvfb starts a virtual display on a free number and returns ":N".
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1400x900x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("Xvfb: %v (apt-get install xvfb)", err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return ":" + firstLine(t, r, "Xvfb's display number")
}

// firstLine reads the first line a helper process reports (a display
// number, a bus address), failing the test if none comes.
func firstLine(t *testing.T, r io.Reader, what string) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case s := <-line:
		if s == "" {
			t.Fatalf("no %s", what)
		}
		return s
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s within 30s", what)
	}
	return ""
}

// display is a client connection to the X server.
type display struct {
	conn *xgb.Conn
	root xproto.Window
}

func openDisplay(t *testing.T, name string) *display {
	t.Helper()
	xgb.Logger = log.New(io.Discard, "", 0) // Xvfb needs no authority file
	conn, err := xgb.NewConnDisplay(name)
	if err != nil {
		t.Fatalf("connect to %s: %v", name, err)
	}
	t.Cleanup(conn.Close)
	return &display{conn: conn, root: xproto.Setup(conn).DefaultScreen(conn).Root}
}

func (d *display) atom(name string) xproto.Atom {
	r, err := xproto.InternAtom(d.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	return r.Atom
}

func (d *display) title(w xproto.Window) string {
	for _, name := range []string{"_NET_WM_NAME", "WM_NAME"} {
		r, err := xproto.GetProperty(d.conn, false, w, d.atom(name), xproto.AtomAny, 0, 256).Reply()
		if err == nil && r.ValueLen > 0 {
			return string(r.Value)
		}
	}
	return ""
}

// findWindow returns a mapped top-level window with this title, or 0.
func (d *display) findWindow(title string) xproto.Window {
	tree, err := xproto.QueryTree(d.conn, d.root).Reply()
	if err != nil {
		return 0
	}
	for _, w := range tree.Children {
		attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
		if err != nil || attr.MapState != xproto.MapStateViewable {
			continue
		}
		if d.title(w) == title {
			return w
		}
	}
	return 0
}

// waitWindow waits for a mapped top-level window with this title.
func (d *display) waitWindow(t *testing.T, title string) xproto.Window {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if w := d.findWindow(title); w != 0 {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("no window titled %q appeared", title)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (d *display) size(w xproto.Window) (int, int) {
	g, err := xproto.GetGeometry(d.conn, xproto.Drawable(w)).Reply()
	if err != nil {
		return 0, 0
	}
	return int(g.Width), int(g.Height)
}

// capture reads a window's pixels (24-bit TrueColor, 32 bits per pixel,
// BGRX in memory).
func (d *display) capture(w xproto.Window) (*image.RGBA, error) {
	width, height := d.size(w)
	if width == 0 {
		return nil, fmt.Errorf("window %d has no size", w)
	}
	r, err := xproto.GetImage(d.conn, xproto.ImageFormatZPixmap, xproto.Drawable(w), 0, 0, uint16(width), uint16(height), 0xffffffff).Reply()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for i := 0; i+3 < len(r.Data) && i/4 < width*height; i += 4 {
		p := i / 4
		img.SetRGBA(p%width, p/width, color.RGBA{r.Data[i+2], r.Data[i+1], r.Data[i], 255})
	}
	return img, nil
}

// colours counts the distinct colours of an image: a blank or half-drawn
// window has a handful, a rendered screen with text and icons hundreds.
func colours(img *image.RGBA) int {
	seen := map[uint32]bool{}
	for i := 0; i+3 < len(img.Pix); i += 4 {
		seen[uint32(img.Pix[i])<<16|uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+2])] = true
	}
	return len(seen)
}

func savePNG(t *testing.T, img image.Image, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// settled captures a window once two captures a moment apart agree and the
// image has at least minColours colours: the page has loaded and drawn.
func (d *display) settled(t *testing.T, w xproto.Window, minColours int, within time.Duration) *image.RGBA {
	t.Helper()
	var last *image.RGBA
	deadline := time.Now().Add(within)
	for {
		img, err := d.capture(w)
		if err == nil && colours(img) >= minColours && last != nil && bytes.Equal(img.Pix, last.Pix) {
			return img
		}
		if time.Now().After(deadline) {
			t.Fatalf("the window did not settle within %s (last error %v)", within, err)
		}
		last = img
		time.Sleep(300 * time.Millisecond)
	}
}

// close asks a window to close as a window manager does (WM_DELETE_WINDOW).
func (d *display) close(w xproto.Window) error {
	ev := xproto.ClientMessageEvent{
		Format: 32, Window: w, Type: d.atom("WM_PROTOCOLS"),
		Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(d.atom("WM_DELETE_WINDOW")), uint32(xproto.TimeCurrentTime), 0, 0, 0}),
	}
	return xproto.SendEventChecked(d.conn, false, w, xproto.EventMaskNoEvent, string(ev.Bytes())).Check()
}

// typeText types lower-case letters into the window with the keyboard
// focus, through XTEST, as a person at the keyboard would.
func (d *display) typeText(t *testing.T, w xproto.Window, text string) {
	t.Helper()
	if err := xtest.Init(d.conn); err != nil {
		t.Fatalf("XTEST: %v", err)
	}
	if err := xproto.SetInputFocusChecked(d.conn, xproto.InputFocusParent, w, xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatalf("focus: %v", err)
	}
	setup := xproto.Setup(d.conn)
	first, n := setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)
	km, err := xproto.GetKeyboardMapping(d.conn, first, n).Reply()
	if err != nil {
		t.Fatal(err)
	}
	per := int(km.KeysymsPerKeycode)
	codeOf := func(r rune) xproto.Keycode {
		for i := 0; i < int(n); i++ {
			if km.Keysyms[i*per] == xproto.Keysym(r) {
				return first + xproto.Keycode(i)
			}
		}
		t.Fatalf("no key types %q", r)
		return 0
	}
	for _, r := range text {
		code := byte(codeOf(r))
		for _, ev := range []byte{xproto.KeyPress, xproto.KeyRelease} {
			if err := xtest.FakeInputChecked(d.conn, ev, code, xproto.TimeCurrentTime, w, 0, 0, 0).Check(); err != nil {
				t.Fatalf("key %q: %v", r, err)
			}
		}
	}
}
