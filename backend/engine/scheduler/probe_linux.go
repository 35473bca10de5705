package scheduler

// NewSystem reads the real machine: /sys/class/power_supply and /proc/stat.
func NewSystem() Probe {
	return &System{PowerSupplyDir: "/sys/class/power_supply", ProcStat: "/proc/stat"}
}
