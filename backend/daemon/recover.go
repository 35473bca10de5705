package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"trove/backend/store"
)

// openIndex opens the index of dataDir. An index that lost its content (a
// file of zero bytes), that is not a database any more, or that is missing
// while the config dir remembers watched folders, is set aside and started
// anew with the folders restored from the copy of their list, and the
// returned notice says so (for the log and the status): the watched folders
// are never forgotten silently.
func openIndex(dataDir, configDir string, log *slog.Logger) (*store.Store, string, error) {
	listPath := filepath.Join(configDir, store.FolderListName)
	saved, err := store.LoadFolderList(listPath)
	if err != nil {
		log.Warn("cannot read the copy of the watched-folder list", "path", listPath, "err", err)
	}
	var what string
	switch {
	case store.IsEmptyIndex(dataDir):
		what = "was empty (zero bytes)"
	case !store.ExistsIndex(dataDir):
		if len(saved) == 0 {
			return openFresh(dataDir) // a first start
		}
		what = "was missing"
	default:
		st, err := store.Open(dataDir)
		if err == nil {
			return st, "", nil
		}
		if !store.IsCorrupt(err) {
			return nil, "", err
		}
		what = fmt.Sprintf("could not be read (%v)", err)
	}
	aside, err := store.SetAside(dataDir)
	if err != nil {
		return nil, "", err
	}
	st, err := store.Open(dataDir)
	if err != nil {
		return nil, "", err
	}
	if err := st.RestoreDirectories(context.Background(), saved); err != nil {
		st.Close()
		return nil, "", err
	}
	notice := fmt.Sprintf("The index %s; a new index was started", what)
	if aside != "" {
		notice += fmt.Sprintf(" and the old file kept as %s", filepath.Base(aside))
	}
	notice += fmt.Sprintf(". %d watched folders were restored from %s and are being indexed again.", len(saved), listPath)
	if len(saved) == 0 {
		notice += " No copy of the watched-folder list was found: watch your folders again."
	}
	log.Warn(notice)
	return st, notice, nil
}

func openFresh(dataDir string) (*store.Store, string, error) {
	st, err := store.Open(dataDir)
	return st, "", err
}
