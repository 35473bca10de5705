package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"trove/backend/core"
	"trove/backend/platform/atomicfile"
)

// FolderListName is the copy of the watched-folder list kept in the config
// directory. The list lives in the index, which can be lost (a zero-length
// file, an unreadable one); with this copy Trove restores the folders
// instead of silently forgetting them.
const FolderListName = "watched-folders.json"

type folderList struct {
	Version int            `json:"version"`
	Folders []listedFolder `json:"folders"`
}

type listedFolder struct {
	ID          int64     `json:"id"`
	Path        string    `json:"path"`
	Recursive   bool      `json:"recursive"`
	FilePattern string    `json:"file_pattern,omitempty"`
	AddedAt     time.Time `json:"added_at"`
	NamesOnly   bool      `json:"names_only,omitempty"`
	RescanEvery int       `json:"rescan_seconds,omitempty"`
	MountPoint  string    `json:"mount_point,omitempty"`
}

// SaveFolderList writes the copy of the watched-folder list, atomically.
func SaveFolderList(path string, dirs []core.WatchedDirectory) error {
	l := folderList{Version: 1, Folders: make([]listedFolder, 0, len(dirs))}
	for _, d := range dirs {
		l.Folders = append(l.Folders, listedFolder{ID: d.ID, Path: d.Path, Recursive: d.Recursive, FilePattern: d.FilePattern, AddedAt: d.CreatedAt.UTC(),
			NamesOnly: d.NamesOnly, RescanEvery: d.RescanSeconds, MountPoint: d.MountPoint})
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// LoadFolderList reads the copy; a missing copy is an empty list.
func LoadFolderList(path string) ([]core.WatchedDirectory, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var l folderList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	out := make([]core.WatchedDirectory, 0, len(l.Folders))
	for _, f := range l.Folders {
		if f.Path == "" {
			continue
		}
		out = append(out, core.WatchedDirectory{ID: f.ID, Path: f.Path, IsActive: true, Recursive: f.Recursive,
			FilePattern: f.FilePattern, CreatedAt: f.AddedAt, NamesOnly: f.NamesOnly, RescanSeconds: f.RescanEvery,
			MountPoint: f.MountPoint})
	}
	return out, nil
}
