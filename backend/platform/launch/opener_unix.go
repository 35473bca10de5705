//go:build unix && !darwin

package launch

import "net/url"

// defaultOpener is the freedesktop opener.
const defaultOpener = "xdg-open"

// revealNative asks the file manager to show path selected, through the
// FileManager1 D-Bus interface that Nautilus, Dolphin, Nemo and others
// implement.
func revealNative(path string) error {
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	return runBounded("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.FileManager1",
		"--type=method_call", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1.ShowItems",
		"array:string:"+uri, "string:")
}
