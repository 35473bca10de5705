package launch

import (
	"os/exec"
	"syscall"
)

// defaultOpener hands the file to the shell, which opens it with its
// associated application (what a double click does).
const defaultOpener = "rundll32.exe url.dll,FileProtocolHandler"

// revealNative shows path selected in Explorer. Explorer parses its own
// command line (/select,"path"), so it is written raw; it exits with
// status 1 even when it worked, so only a failure to start counts.
func revealNative(path string) error {
	cmd := exec.Command("explorer.exe")
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `explorer.exe /select,"` + path + `"`}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
