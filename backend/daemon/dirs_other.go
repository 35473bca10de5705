//go:build !unix && !windows

package daemon

import (
	"os"
	"path/filepath"
)

// DefaultDirs on other systems: Go's per-user config directory.
func DefaultDirs() (dataDir, configDir string) {
	base, err := os.UserConfigDir()
	if err != nil {
		base = "."
	}
	return filepath.Join(base, "trove", "index"), filepath.Join(base, "trove")
}
