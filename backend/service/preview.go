package service

import (
	"context"
	"io"
	"strings"
	"time"

	"trove/backend/core"
	"trove/backend/engine/search"
	"trove/backend/platform/fileread"
)

// FilePreview is an indexed file's text with the query's words marked.
type FilePreview = search.Preview

// PreviewPart is a stretch of a preview's text, a match or not.
type PreviewPart = search.Part

// Preview returns an indexed file's text as indexed, with every word
// matching text marked. Only files the index holds have one.
func (s *Service) Preview(ctx context.Context, id int64, text string) (FilePreview, error) {
	return s.search.Preview(ctx, id, text)
}

// MaxImage is the largest image the preview serves.
const MaxImage = 32 << 20

// imageRead bounds reading one image from disk.
const imageRead = 10 * time.Second

// Image returns the bytes and MIME type of an indexed image. It reads the
// file as the indexer does (fileread: no links below its folder, no FIFO),
// and only when it is the file that was indexed, unchanged (ondisk.go):
// the preview shows nothing the index does not hold.
func (s *Service) Image(ctx context.Context, id int64) ([]byte, string, error) {
	f, err := s.File(ctx, id)
	if err != nil {
		return nil, "", err
	}
	switch {
	case f.State != core.StateIndexed:
		return nil, "", core.Fail(core.NotIndexed, "file %d is not indexed", id)
	case !strings.HasPrefix(f.Mime, "image/") || f.Mime == "image/svg+xml":
		return nil, "", core.Fail(core.NotAnImage, "file %d is %q, not an image the preview shows", id, f.Mime)
	case f.Size > MaxImage:
		return nil, "", core.Fail(core.TooLarge, "file %d is larger than %d MB", id, MaxImage>>20)
	}
	rctx, cancel := fileread.WithTimeout(ctx, imageRead)
	defer cancel()
	_, fh, err := s.openIndexed(rctx, id, true)
	if err != nil {
		return nil, "", err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh.Reader(), MaxImage))
	if err != nil {
		return nil, "", unreadable(f.Path, err)
	}
	return data, f.Mime, nil
}
