package service

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"trove/backend/core"
	"trove/backend/engine/thumbs"
	"trove/backend/platform/fileread"
)

// The sizes a thumbnail may be asked in (pixels on its long side), and
// the one given when none is.
const (
	MinThumbnail     = thumbs.MinPx
	MaxThumbnail     = thumbs.MaxPx
	DefaultThumbnail = thumbs.DefaultPx
)

// thumbnailCap is the most the kept pictures take on disk: at ~20 KB a
// picture, the first pages of a few thousand results.
const thumbnailCap = 64 << 20

// maxThumbnailPDF is the largest PDF whose first page is drawn: pdftoppm
// reads all of it from its standard input.
const maxThumbnailPDF = 256 << 20

// thumbnailCache is where the pictures are kept, when Trove has a data
// dir.
func thumbnailCache(dataDir string) *thumbs.Cache {
	if dataDir == "" {
		return nil
	}
	return &thumbs.Cache{Dir: filepath.Join(dataDir, "thumbnails"), Cap: thumbnailCap}
}

// Thumbnail is a small picture of an indexed file, as PNG, at most px
// pixels on its long side: the image scaled down, a PDF's first page or
// a frame near a video's start.
// As with Image, it is drawn only from the file that was indexed,
// unchanged, and kept for that version of the file.
func (s *Service) Thumbnail(ctx context.Context, id int64, px int) ([]byte, error) {
	f, err := s.File(ctx, id)
	if err != nil {
		return nil, err
	}
	draw, err := drawerOf(f)
	if err != nil {
		return nil, err
	}
	rctx, cancel := fileread.WithTimeout(ctx, imageRead)
	defer cancel()
	_, fh, err := s.openIndexed(rctx, id, true)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	dev, ino := fileread.Identity(fh.Stat())
	key := thumbs.Key{FileID: id, Device: dev, Inode: ino, Size: f.Size, ModNs: f.Modified.UnixNano(), Px: px}
	if s.thumbs != nil {
		if data, ok := s.thumbs.Get(key); ok {
			return data, nil
		}
	}
	data, err := draw(ctx, fh, px)
	switch {
	case errors.Is(err, thumbs.ErrNoTool):
		return nil, core.Fail(core.NoThumbnail, "no picture of file %d: %v", id, err)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, core.Fail(core.NoThumbnail, "no picture of %s could be drawn: %v", f.Path, err)
	}
	if s.thumbs != nil {
		if err := s.thumbs.Put(key, data); err != nil {
			s.log.Warn("cannot keep a thumbnail", "dir", s.thumbs.Dir, "err", err)
		}
	}
	return data, nil
}

type drawer func(ctx context.Context, f *fileread.File, px int) ([]byte, error)

// drawerOf says how a file's picture is drawn, or why none is.
func drawerOf(f core.File) (drawer, error) {
	if f.State != core.StateIndexed {
		return nil, core.Fail(core.NotIndexed, "file %d is not indexed", f.ID)
	}
	var draw drawer
	switch {
	case f.Mime == "application/pdf":
		if f.Size > maxThumbnailPDF {
			return nil, tooLargeToDraw(f)
		}
		draw = func(ctx context.Context, fh *fileread.File, px int) ([]byte, error) {
			return thumbs.PDF(ctx, io.LimitReader(fh.Reader(), maxThumbnailPDF), px)
		}
	case strings.HasPrefix(f.Mime, "image/") && f.Mime != "image/svg+xml":
		if f.Size > MaxImage {
			return nil, tooLargeToDraw(f)
		}
		draw = func(_ context.Context, fh *fileread.File, px int) ([]byte, error) {
			return thumbs.Image(io.LimitReader(fh.Reader(), MaxImage), px)
		}
	case strings.HasPrefix(f.Mime, "video/"):
		// ffmpeg reads only the frames it needs, from a video of any size.
		draw = func(ctx context.Context, fh *fileread.File, px int) ([]byte, error) {
			fd, err := fh.Dup()
			if err != nil {
				return nil, err
			}
			defer fd.Close()
			return thumbs.Video(ctx, fd, px)
		}
	default:
		return nil, core.Fail(core.NoThumbnail, "file %d is %q: Trove draws small pictures of images, PDFs and videos", f.ID, f.Mime)
	}
	return draw, nil
}

func tooLargeToDraw(f core.File) error {
	return core.Fail(core.TooLarge, "file %d is too large to draw a small picture of", f.ID)
}
