//go:build !unix && !windows

package dirlock

import "os"

// Platforms without file locks (js, wasip1, plan9) run unguarded.
func tryLock(*os.File) error { return nil }

func unlock(*os.File) error { return nil }
