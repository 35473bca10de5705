package launch

// defaultOpener is macOS's open(1), which picks the default application.
const defaultOpener = "open"

// revealNative shows path selected in the Finder.
func revealNative(path string) error { return runBounded("open", "-R", path) }
