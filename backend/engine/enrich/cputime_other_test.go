//go:build !unix

package enrich

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
