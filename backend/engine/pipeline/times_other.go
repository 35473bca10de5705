//go:build !linux && !darwin && !windows

package pipeline

import (
	"io/fs"
	"time"
)

// fileTimes: on other systems Trove reads no access or birth time; the
// modification time stands in for the access time.
func fileTimes(_ string, st fs.FileInfo) (accessed, birth time.Time) {
	return st.ModTime(), time.Time{}
}
