package scheduler

import (
	"errors"
	"fmt"
	"os/exec"
)

// NewSystem reads the power state from pmset. macOS gives no CPU load
// without cgo, so the CPU rule cannot be evaluated there (and holds).
func NewSystem() Probe { return macSystem{} }

type macSystem struct{}

func (macSystem) Power() (Power, error) {
	out, err := exec.Command("pmset", "-g", "batt").Output()
	if err != nil {
		return Power{OnAC: true}, fmt.Errorf("pmset: %w", err)
	}
	return parsePmset(string(out)), nil
}

func (macSystem) CPUPercent() (float64, error) {
	return 0, errors.ErrUnsupported
}
