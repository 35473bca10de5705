// Package thumbs makes small pictures of files for result lists, and keeps
// them: images are scaled down in Go, a PDF's first page is drawn by
// poppler's pdftoppm. Pictures are PNG, at most Px pixels on their long
// side, drawn by ffmpeg for videos, kept in a folder of the data dir whose size is capped: past the
// cap the pictures used longest ago go.
package thumbs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decoders for image.Decode
	_ "image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	_ "golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// The sizes a picture may be asked in, and the one given when none is.
const (
	MinPx     = 32
	MaxPx     = 512
	DefaultPx = 256
)

// maxPixels bounds the images decoded: a small file can declare a huge
// picture, and decoding it would take gigabytes.
const maxPixels = 64 << 20

// toolTimeout bounds drawing a PDF's first page or a video's frame.
const toolTimeout = 20 * time.Second

// ErrNoTool is the error when the tool that draws a kind of file is not
// installed.
var ErrNoTool = errors.New("the tool that draws this kind of file is not installed")

// Image scales the image r holds down to fit px by px (never up).
func Image(r io.Reader, px int) ([]byte, error) {
	var head bytes.Buffer
	cfg, _, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return nil, fmt.Errorf("read the image: %w", err)
	}
	if cfg.Width*cfg.Height > maxPixels {
		return nil, fmt.Errorf("the image is %dx%d, too large to draw small", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(io.MultiReader(&head, r))
	if err != nil {
		return nil, fmt.Errorf("read the image: %w", err)
	}
	return encode(scale(img, px))
}

// scale fits img in px by px, keeping its proportions.
func scale(img image.Image, px int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= px && h <= px {
		return img
	}
	if w >= h {
		w, h = px, max(1, h*px/w)
	} else {
		w, h = max(1, w*px/h), px
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

func encode(img image.Image) ([]byte, error) {
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// PDF draws the first page of the PDF r holds to fit px by px. The PDF
// comes on pdftoppm's standard input: the tool never opens a path, which
// another file could have taken since the caller checked it.
func PDF(ctx context.Context, r io.Reader, px int) ([]byte, error) {
	tool, err := exec.LookPath("pdftoppm")
	if err != nil {
		return nil, fmt.Errorf("%w: pdftoppm (poppler-utils)", ErrNoTool)
	}
	// No output root: the picture goes to standard output.
	return run(ctx, "pdftoppm", r, nil, tool, "-png", "-singlefile", "-f", "1", "-l", "1", "-scale-to", fmt.Sprint(px), "-")
}

// videoFrames is how many frames from the start ffmpeg's thumbnail
// filter weighs: it picks the most typical, so a fade from black or a
// title card is passed over.
const videoFrames = 60

// Video draws a typical frame near the start of the video fd holds, to
// fit px by px. ffmpeg reads the descriptor the caller opened (as fd 3),
// not a path: it must seek (an MP4's index may sit at its end), and the
// path may name another file by now. The caller keeps and closes fd.
func Video(ctx context.Context, fd *os.File, px int) ([]byte, error) {
	tool, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, fmt.Errorf("%w: ffmpeg", ErrNoTool)
	}
	// Never larger than the video: min() keeps a small one as it is.
	fit := fmt.Sprintf("thumbnail=%d,scale=w='min(iw,%d)':h='min(ih,%d)':force_original_aspect_ratio=decrease", videoFrames, px, px)
	return run(ctx, "ffmpeg", nil, fd, tool, "-nostdin", "-v", "error", "-i", "file:/dev/fd/3",
		"-an", "-sn", "-vf", fit, "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-")
}

// run runs a drawing tool under toolTimeout, with stdin and fd as its
// standard input and fd 3, and returns what it wrote.
func run(ctx context.Context, name string, stdin io.Reader, fd *os.File, tool string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	if fd != nil {
		cmd.ExtraFiles = []*os.File{fd}
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s took longer than %v", name, toolTimeout)
		}
		return nil, fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	if stdout.Len() == 0 {
		return nil, fmt.Errorf("%s drew nothing", name)
	}
	return stdout.Bytes(), nil
}

// Key names one picture: of one version of one file, at one size. A file
// changed or replaced has another key, so a kept picture is never stale.
type Key struct {
	FileID        int64
	Device, Inode uint64
	Size, ModNs   int64
	Px            int
}

func (k Key) name() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d/%d/%d/%d/%d", k.FileID, k.Device, k.Inode, k.Size, k.ModNs, k.Px))
	return hex.EncodeToString(sum[:16]) + ".png"
}

// Cache keeps pictures in Dir, at most Cap bytes of them.
type Cache struct {
	Dir string
	Cap int64

	mu sync.Mutex // guards size, serialises trims
	// size is the bytes the folder holds, read from it at the first Put
	// and kept up to date since: a Put lists the folder only when the cap
	// is passed.
	size  int64
	sized bool
}

// Get returns the picture kept for k, if any, and marks it used now.
func (c *Cache) Get(k Key) ([]byte, bool) {
	p := filepath.Join(c.Dir, k.name())
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(p, now, now) // the trim keeps what was used last
	return data, true
}

// Put keeps a picture for k, then trims the folder to its cap.
func (c *Cache) Put(k Key, data []byte) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Dir, ".new-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(c.Dir, k.name()))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sized {
		c.size, c.sized = c.trim(false), true
	} else {
		c.size += int64(len(data))
	}
	if c.size > c.Cap {
		c.size = c.trim(true)
	}
	return nil
}

// trim lists the folder and returns the bytes it holds; with drop, once
// it holds more than the cap, it first removes the pictures used longest
// ago until it holds at most three quarters of it. c.mu is held.
func (c *Cache) trim(drop bool) int64 {
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return 0
	}
	type kept struct {
		name string
		size int64
		used time.Time
	}
	var all []kept
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !strings.HasSuffix(e.Name(), ".png") {
			continue
		}
		all = append(all, kept{e.Name(), info.Size(), info.ModTime()})
		total += info.Size()
	}
	if !drop || total <= c.Cap {
		return total
	}
	slices.SortFunc(all, func(a, b kept) int { return a.used.Compare(b.used) })
	for _, k := range all {
		if total <= c.Cap*3/4 {
			break
		}
		if err := os.Remove(filepath.Join(c.Dir, k.name)); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= k.size
		}
	}
	return total
}
