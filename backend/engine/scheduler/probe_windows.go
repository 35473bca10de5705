package scheduler

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// NewSystem reads the real machine through kernel32: GetSystemPowerStatus
// and GetSystemTimes.
func NewSystem() Probe { return &winSystem{} }

type winSystem struct{ cpu cpuMeter }

var (
	kernel32           = windows.NewLazySystemDLL("kernel32.dll")
	procGetPowerStatus = kernel32.NewProc("GetSystemPowerStatus")
	procGetSystemTimes = kernel32.NewProc("GetSystemTimes")
)

// systemPowerStatus is SYSTEM_POWER_STATUS.
type systemPowerStatus struct {
	ACLineStatus        byte // 0 offline, 1 online, 255 unknown
	BatteryFlag         byte // 128: no system battery; 255: unknown
	BatteryLifePercent  byte // 0-100, 255 unknown
	SystemStatusFlag    byte
	BatteryLifeTime     uint32
	BatteryFullLifeTime uint32
}

func (s *winSystem) Power() (Power, error) {
	var st systemPowerStatus
	if r, _, err := procGetPowerStatus.Call(uintptr(unsafe.Pointer(&st))); r == 0 {
		return Power{OnAC: true}, fmt.Errorf("GetSystemPowerStatus: %w", err)
	}
	p := Power{OnAC: st.ACLineStatus != 0}
	if st.BatteryFlag&128 == 0 && st.BatteryFlag != 255 && st.BatteryLifePercent <= 100 {
		p.HasBattery = true
		p.Battery = float64(st.BatteryLifePercent)
	} else {
		p.OnAC = true // a desktop: no battery to run on
	}
	return p, nil
}

// CPUPercent is the whole-system CPU use since the previous call. Kernel
// time includes idle time, so busy = kernel + user - idle.
func (s *winSystem) CPUPercent() (float64, error) {
	var idle, kernel, user windows.Filetime
	if r, _, err := procGetSystemTimes.Call(uintptr(unsafe.Pointer(&idle)), uintptr(unsafe.Pointer(&kernel)), uintptr(unsafe.Pointer(&user))); r == 0 {
		return 0, fmt.Errorf("GetSystemTimes: %w", err)
	}
	ticks := func(f windows.Filetime) uint64 { return uint64(f.HighDateTime)<<32 | uint64(f.LowDateTime) }
	total := ticks(kernel) + ticks(user)
	return s.cpu.since(cpuTimes{busy: total - ticks(idle), total: total}), nil
}
