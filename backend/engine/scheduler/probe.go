package scheduler

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// System reads the machine's power and CPU state from Linux's /sys and
// /proc (NewSystem in probe_linux.go). The roots are fields so tests can
// point them at fixtures; the files are plain text, so it builds anywhere.
type System struct {
	PowerSupplyDir string // /sys/class/power_supply
	ProcStat       string // /proc/stat

	cpu cpuMeter
}

// Power describes the power supply.
type Power struct {
	OnAC       bool
	HasBattery bool
	Battery    float64 // percent, when HasBattery
}

// Power reads /sys/class/power_supply. A machine with no battery is on AC;
// with a battery and no online mains supply it is on battery.
func (s *System) Power() (Power, error) {
	entries, err := os.ReadDir(s.PowerSupplyDir)
	if os.IsNotExist(err) {
		return Power{OnAC: true}, nil
	}
	if err != nil {
		return Power{OnAC: true}, err
	}
	var p Power
	mainsOnline, sawMains := false, false
	for _, e := range entries {
		dir := filepath.Join(s.PowerSupplyDir, e.Name())
		switch read(dir, "type") {
		case "Mains", "USB", "USB_C", "USB_PD":
			sawMains = true
			if read(dir, "online") == "1" {
				mainsOnline = true
			}
		case "Battery":
			if read(dir, "scope") == "Device" {
				continue // a mouse or keyboard battery, not the machine's
			}
			if c, err := strconv.ParseFloat(read(dir, "capacity"), 64); err == nil {
				p.HasBattery = true
				p.Battery = c
			}
			if st := read(dir, "status"); st == "Charging" || st == "Full" {
				mainsOnline = true
			}
		}
	}
	p.OnAC = mainsOnline || !p.HasBattery || !sawMains && !p.HasBattery
	return p, nil
}

func read(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

type cpuTimes struct{ busy, total uint64 }

// CPUPercent is the whole-system CPU use since the previous call (the first
// call measures since boot).
func (s *System) CPUPercent() (float64, error) {
	cur, err := readCPU(s.ProcStat)
	if err != nil {
		return 0, err
	}
	return s.cpu.since(cur), nil
}

// cpuMeter turns the system's cumulative CPU times into the busy share
// since the previous reading; every system's probe keeps one.
type cpuMeter struct {
	mu   sync.Mutex
	prev cpuTimes
}

// since records cur and returns the busy percentage since the last one.
func (m *cpuMeter) since(cur cpuTimes) float64 {
	m.mu.Lock()
	prev := m.prev
	m.prev = cur
	m.mu.Unlock()
	if cur.total <= prev.total || cur.busy < prev.busy {
		return 0
	}
	return 100 * float64(cur.busy-prev.busy) / float64(cur.total-prev.total)
}

// readCPU parses the aggregate "cpu" line of /proc/stat: user nice system
// idle iowait irq softirq steal ...; idle and iowait count as not busy.
func readCPU(path string) (cpuTimes, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return cpuTimes{}, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[0] != "cpu" {
			continue
		}
		var t cpuTimes
		for i, f := range fields[1:min(len(fields), 9)] {
			v, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				return cpuTimes{}, fmt.Errorf("%s: %w", path, err)
			}
			t.total += v
			if i != 3 && i != 4 {
				t.busy += v
			}
		}
		return t, nil
	}
	return cpuTimes{}, fmt.Errorf("%s: no cpu line", path)
}
