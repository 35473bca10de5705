package launch

import (
	"context"
	"os/exec"
	"time"
)

// defaultOpener is macOS's open(1), which picks the default application.
const defaultOpener = "open"

// revealNative shows path selected in the Finder.
func revealNative(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "open", "-R", path).Run()
}
