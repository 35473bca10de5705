//go:build !unix

package extract

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
