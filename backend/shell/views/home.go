package views

import (
	"os"
	"path/filepath"
	"strings"
)

// expandHome turns "~" and "~/..." into the home folder of the user Trove
// runs as, as a shell would; anything else is returned as it is.
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, p[1:])
}
