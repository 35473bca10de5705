//go:build unix && !darwin

package launch

import (
	"context"
	"net/url"
	"os/exec"
	"time"
)

// defaultOpener is the freedesktop opener.
const defaultOpener = "xdg-open"

// revealNative asks the file manager to show path selected, through the
// FileManager1 D-Bus interface that Nautilus, Dolphin, Nemo and others
// implement. A bus that does not answer is given 5 s.
func revealNative(path string) error {
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.FileManager1",
		"--type=method_call", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1.ShowItems",
		"array:string:"+uri, "string:").Run()
}
