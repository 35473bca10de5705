package service

import (
	"context"
	"errors"
	"io/fs"

	"trove/backend/core"
	"trove/backend/platform/fileread"
)

// The actions that hand an indexed file to someone (its bytes to the
// preview, its path to an application) first check that its path still
// names the file the index was made from. Between indexing and the click,
// anyone who can write to the folder may put something else there: a
// symbolic link to /etc/shadow, or another file moved or hard-linked over
// it. So the path is opened as the indexer opens it (no symbolic link
// below its watched folder, only a regular file) and the open file is
// compared with the record:
//
//   - another file (device and inode differ from the record's), or no
//     regular file there: FILE_GONE, 404. The file that was indexed is not
//     at that path any more.
//   - the same file with another size or time: FILE_CHANGED, 409, where
//     the answer is the file's content (its image), which would not be
//     what the index holds. Opening it is still fine: it is the person's
//     own file, edited since.
//   - a record of an older Trove that kept no device and inode: its size
//     and time must match, else FILE_CHANGED.
//
// The check and the application's own open are two steps: a swap in
// between is not caught, but it would have to land in that instant.

// onDisk checks that the indexed file id is still on disk as it was
// indexed (see above) and returns its record.
func (s *Service) onDisk(ctx context.Context, id int64) (core.File, error) {
	f, fh, err := s.openIndexed(ctx, id, false)
	if err != nil {
		return core.File{}, err
	}
	fh.Close()
	return f, nil
}

// openIndexed opens the indexed file id for reading after the check
// above; unchanged also refuses a file edited since it was indexed.
func (s *Service) openIndexed(ctx context.Context, id int64, unchanged bool) (core.File, *fileread.File, error) {
	f, err := s.File(ctx, id)
	if err != nil {
		return core.File{}, nil, err
	}
	dir, err := s.store.Directory(ctx, f.DirID)
	if err != nil {
		return core.File{}, nil, core.Fail(core.FileGone, "%s is no longer in a watched folder", f.Path)
	}
	if s.indexer.Offline(dir.ID) {
		return core.File{}, nil, core.Fail(core.FolderOffline,
			"%s is in %s, which is offline (its drive or share is not there): connect it again and retry", f.Path, dir.Path)
	}
	fh, err := fileread.Open(ctx, dir.Path, f.Path, nil)
	if err != nil {
		return core.File{}, nil, unreadable(f.Path, err)
	}
	if err := sameFile(f, fh.Stat(), unchanged); err != nil {
		fh.Close()
		return core.File{}, nil, err
	}
	return f, fh, nil
}

// sameFile compares the file open at a record's path with the record.
func sameFile(f core.File, now fs.FileInfo, unchanged bool) error {
	dev, ino := fileread.Identity(now)
	known := f.Inode != 0 && ino != 0
	if known && (dev != f.Device || ino != f.Inode) {
		return core.Fail(core.FileGone, "%s is no longer the file that was indexed: another file took its name", f.Path)
	}
	edited := now.Size() != f.Size || now.ModTime().UnixNano() != f.Modified.UnixNano()
	if edited && (unchanged || !known) {
		return core.Fail(core.FileChanged, "%s changed since it was indexed; Trove indexes it again shortly", f.Path)
	}
	return nil
}

// unreadable is an indexed file that could not be opened or read: its
// read timed out, or it is not on disk as it was indexed.
func unreadable(path string, err error) error {
	var te *fileread.TimeoutError
	if errors.As(err, &te) {
		return core.Fail(core.ReadTimeout, "%v", err)
	}
	return core.Fail(core.FileGone, "%s is no longer on disk as it was indexed: %v", path, err)
}
