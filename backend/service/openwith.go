package service

import (
	"context"

	"trove/backend/core"
	"trove/backend/platform/launch"
)

// DesktopApp is an application that opens a type of file.
type DesktopApp = launch.App

// AppOpener lists the desktop's applications for a type of file and opens
// a file with one of them (launch.Desktop is one).
type AppOpener interface {
	Apps(mime string) ([]launch.App, error)
	OpenWith(id, mime, path string) error
}

func (s *Service) appOpener() (AppOpener, error) {
	if a, ok := s.opener.(AppOpener); ok {
		return a, nil
	}
	return nil, core.Fail(core.NoOpener, "this Trove cannot open files")
}

// Apps lists the applications that open an indexed file's type.
func (s *Service) Apps(ctx context.Context, id int64) ([]DesktopApp, error) {
	f, err := s.File(ctx, id)
	if err != nil {
		return nil, err
	}
	a, err := s.appOpener()
	if err != nil {
		return nil, err
	}
	return a.Apps(f.Mime)
}

// OpenWith opens an indexed file with one of the applications Apps lists
// for it, and returns its path.
func (s *Service) OpenWith(ctx context.Context, id int64, app string) (string, error) {
	f, err := s.onDisk(ctx, id)
	if err != nil {
		return "", err
	}
	a, err := s.appOpener()
	if err != nil {
		return "", err
	}
	if err := a.OpenWith(app, f.Mime, f.Path); err != nil {
		return "", core.FailField(core.OpenFailed, "app", "%v", err)
	}
	return f.Path, nil
}
