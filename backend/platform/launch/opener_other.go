//go:build !unix && !windows

package launch

import "errors"

// defaultOpener: no known opener on this system; set TROVE_OPENER.
const defaultOpener = "xdg-open"

func revealNative(string) error { return errors.ErrUnsupported }
