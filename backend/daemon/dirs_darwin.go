package daemon

import (
	"os"
	"path/filepath"
)

// DefaultDirs on macOS: settings in ~/Library/Application Support/Trove,
// the index in its Index folder (delete that to start the index afresh
// and keep the settings).
func DefaultDirs() (dataDir, configDir string) {
	home, _ := os.UserHomeDir()
	configDir = filepath.Join(home, "Library", "Application Support", "Trove")
	return filepath.Join(configDir, "Index"), configDir
}
