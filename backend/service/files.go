package service

import (
	"context"
	"errors"
	"os"

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
		return "", core.Invalid("NO_OPENER", "this Trove cannot open files")
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
		return "", core.Invalid("NO_APPLICATION", "%v", err)
	case errors.Is(err, launch.ErrNoOpener):
		return "", core.Invalid("NO_OPENER", "%v", err)
	}
	return "", core.Invalid("OPEN_FAILED", "%v", err)
}

// onDisk is the record of an indexed file that is still on disk
// (FILE_GONE when it is not), for the actions that hand it to another
// program.
func (s *Service) onDisk(ctx context.Context, id int64) (core.File, error) {
	f, err := s.File(ctx, id)
	if err != nil {
		return core.File{}, err
	}
	if _, err := os.Stat(f.Path); err != nil {
		return core.File{}, core.NotFound("FILE_GONE", "%s is no longer on disk", f.Path)
	}
	return f, nil
}
