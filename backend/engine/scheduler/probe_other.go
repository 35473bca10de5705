//go:build !linux && !darwin && !windows

package scheduler

import "errors"

// NewSystem on other systems reads nothing: the power and CPU rules cannot
// be evaluated there (and hold, as with any unreadable probe).
func NewSystem() Probe { return unsupported{} }

type unsupported struct{}

func (unsupported) Power() (Power, error)        { return Power{OnAC: true}, errors.ErrUnsupported }
func (unsupported) CPUPercent() (float64, error) { return 0, errors.ErrUnsupported }
