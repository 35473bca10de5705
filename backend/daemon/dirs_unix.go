//go:build unix && !darwin

package daemon

import (
	"os"
	"path/filepath"
)

// DefaultDirs returns the XDG data and config directories for Trove:
// $XDG_DATA_HOME/trove and $XDG_CONFIG_HOME/trove.
func DefaultDirs() (dataDir, configDir string) {
	home, _ := os.UserHomeDir()
	dataHome := os.Getenv("XDG_DATA_HOME")
	if dataHome == "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	configHome := os.Getenv("XDG_CONFIG_HOME")
	if configHome == "" {
		configHome = filepath.Join(home, ".config")
	}
	return filepath.Join(dataHome, "trove"), filepath.Join(configHome, "trove")
}
