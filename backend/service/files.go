package service

import (
	"context"
	"errors"

	"trove/backend/core"
	"trove/backend/platform/launch"
)

// Opener opens files for the person using Trove.
type Opener interface {
	Open(path string) error
	Reveal(path string) error
}

// Problems lists a folder's files that failed or were indexed by name
// only, with their reasons, and how many there are in all.
func (s *Service) Problems(ctx context.Context, dirID int64, limit int) ([]core.File, int, error) {
	if _, err := s.store.Directory(ctx, dirID); err != nil {
		return nil, 0, err
	}
	return s.store.Problems(ctx, dirID, limit)
}

// PageOpener opens a file at a page, where its application can be told
// one (launch.Desktop is one).
type PageOpener interface {
	OpenAt(path, mime string, page int) error
}

// OpenFile opens an indexed file with its default application, or shows it
// in its folder. Only files the index knows can be opened, never an
// arbitrary path. It returns the file's path.
func (s *Service) OpenFile(ctx context.Context, id int64, reveal bool) (string, error) {
	return s.open(ctx, id, func(o Opener, f core.File) error {
		if reveal {
			return o.Reveal(f.Path)
		}
		return o.Open(f.Path)
	})
}

// OpenFileAt opens an indexed file with its default application at page
// (from 1) where that application can be told a page; elsewhere as
// OpenFile does, at its first page.
func (s *Service) OpenFileAt(ctx context.Context, id int64, page int) (string, error) {
	return s.open(ctx, id, func(o Opener, f core.File) error {
		if po, ok := o.(PageOpener); ok {
			return po.OpenAt(f.Path, f.Mime, page)
		}
		return o.Open(f.Path)
	})
}

// open runs how on an indexed file that is on disk, and says what went
// wrong in the API's words.
func (s *Service) open(ctx context.Context, id int64, how func(Opener, core.File) error) (string, error) {
	f, err := s.onDisk(ctx, id)
	if err != nil {
		return "", err
	}
	if s.opener == nil {
		return "", core.Fail(core.NoOpener, "this Trove cannot open files")
	}
	err = how(s.opener, f)
	switch {
	case err == nil:
		return f.Path, nil
	case errors.Is(err, launch.ErrNoApplication):
		return "", core.Fail(core.NoApplication, "%v", err)
	case errors.Is(err, launch.ErrNoOpener):
		return "", core.Fail(core.NoOpener, "%v", err)
	}
	return "", core.Fail(core.OpenFailed, "%v", err)
}
