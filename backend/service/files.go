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

// OpenFile opens an indexed file with its default application, or shows it
// in its folder. Only files the index knows can be opened, never an
// arbitrary path. It returns the file's path.
func (s *Service) OpenFile(ctx context.Context, id int64, reveal bool) (string, error) {
	f, err := s.onDisk(ctx, id)
	if err != nil {
		return "", err
	}
	if s.opener == nil {
		return "", core.Fail(core.NoOpener, "this Trove cannot open files")
	}
	if reveal {
		err = s.opener.Reveal(f.Path)
	} else {
		err = s.opener.Open(f.Path)
	}
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
