package daemon

import (
	"os"
	"path/filepath"
)

// DefaultDirs on Windows: the index in %LOCALAPPDATA%\Trove (it stays on
// this machine), settings in %APPDATA%\Trove (they roam with the profile).
func DefaultDirs() (dataDir, configDir string) {
	home, _ := os.UserHomeDir()
	local, roaming := os.Getenv("LOCALAPPDATA"), os.Getenv("APPDATA")
	if local == "" {
		local = filepath.Join(home, "AppData", "Local")
	}
	if roaming == "" {
		roaming = filepath.Join(home, "AppData", "Roaming")
	}
	return filepath.Join(local, "Trove"), filepath.Join(roaming, "Trove")
}
