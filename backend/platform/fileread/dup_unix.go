//go:build unix

package fileread

import (
	"os"
	"syscall"
)

// dupFile copies fd's descriptor, closed on exec unless handed to a
// child on purpose (exec.Cmd.ExtraFiles).
func dupFile(fd *os.File) (*os.File, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	n, err := syscall.Dup(int(fd.Fd()))
	if err != nil {
		return nil, &os.PathError{Op: "dup", Path: fd.Name(), Err: err}
	}
	syscall.CloseOnExec(n)
	return os.NewFile(uintptr(n), fd.Name()), nil
}
