//go:build unix

package extract

import (
	"os"
	"syscall"
)

// openNoBlock opens read-only with O_NONBLOCK: a FIFO swapped in after the
// mode check then opens at once instead of waiting for a writer, and the
// check on the descriptor rejects it. Regular files ignore the flag.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
