//go:build !linux && !darwin && !windows

package pipeline

import (
	"io/fs"
	"time"
)

// fileTimes: on other systems Trove reads no access or birth time and
// reports the modification time for both.
func fileTimes(_ string, st fs.FileInfo) (accessed, created time.Time) {
	return st.ModTime(), st.ModTime()
}
