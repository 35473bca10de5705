package scheduler

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"trove/internal/poll"

	"trove/backend/core"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func pct(v float64) *float64 { return &v }

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, time.Local)
	if err != nil {
		panic(err)
	}
	return t
}

// fixture writes a fake /sys/class/power_supply and /proc/stat.
func fixture(t *testing.T, supplies map[string]map[string]string, stat string) *System {
	t.Helper()
	root := t.TempDir()
	for name, files := range supplies {
		for f, v := range files {
			p := filepath.Join(root, "power_supply", name, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	return &System{PowerSupplyDir: filepath.Join(root, "power_supply"), ProcStat: filepath.Join(root, "stat")}
}

func TestTimeWindows(t *testing.T) {
	night := core.SchedulerRule{Type: core.RuleTimeWindow, Start: "22:00", End: "07:00"}
	day := core.SchedulerRule{Type: core.RuleTimeWindow, Start: "09:00", End: "17:30", Days: []string{"mon", "tue"}}
	friNight := core.SchedulerRule{Type: core.RuleTimeWindow, Start: "23:00", End: "02:00", Days: []string{"fri"}}
	cases := []struct {
		r    core.SchedulerRule
		when string
		want bool
	}{
		{night, "2026-11-23 23:30", true}, {night, "2026-11-23 06:59", true}, {night, "2026-11-23 07:00", false},
		{night, "2026-11-23 12:00", false}, {day, "2026-11-23 09:00", true}, // Monday
		{day, "2026-11-23 17:30", false}, {day, "2026-11-25 10:00", false}, // Wednesday
		{friNight, "2026-11-27 23:30", true}, {friNight, "2026-11-28 01:00", true}, // Saturday 01:00, started Friday
		{friNight, "2026-11-29 01:00", false},
	}
	for _, c := range cases {
		if got := inWindow(c.r, at(c.when)); got != c.want {
			t.Errorf("%s-%s %v at %s: %v, want %v", c.r.Start, c.r.End, c.r.Days, c.when, got, c.want)
		}
	}
}

func TestPowerProbe(t *testing.T) {
	laptopOnBattery := fixture(t, map[string]map[string]string{
		"AC":   {"type": "Mains", "online": "0"},
		"BAT0": {"type": "Battery", "capacity": "42", "status": "Discharging"},
		"hid":  {"type": "Battery", "scope": "Device", "capacity": "5"},
	}, "")
	p, err := laptopOnBattery.Power()
	if err != nil || p.OnAC || !p.HasBattery || p.Battery != 42 {
		t.Fatalf("laptop on battery: %+v %v", p, err)
	}
	pluggedIn := fixture(t, map[string]map[string]string{
		"AC": {"type": "Mains", "online": "1"}, "BAT0": {"type": "Battery", "capacity": "80", "status": "Charging"},
	}, "")
	if p, _ := pluggedIn.Power(); !p.OnAC {
		t.Fatal("plugged-in laptop not on AC")
	}
	desktop := fixture(t, nil, "")
	if p, _ := desktop.Power(); !p.OnAC {
		t.Fatal("a machine without battery must count as on AC")
	}
}

func TestCPUPercentFromProcStat(t *testing.T) {
	s := fixture(t, nil, "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n")
	if _, err := s.CPUPercent(); err != nil {
		t.Fatal(err)
	}
	// +300 busy (user+system), +100 idle over the window: 75 %.
	if err := os.WriteFile(s.ProcStat, []byte("cpu  300 0 200 800 100 0 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.CPUPercent()
	if err != nil || got != 75 {
		t.Fatalf("cpu = %v, %v; want 75", got, err)
	}
}

type fakePauser struct {
	paused bool
	reason string
}

func (f *fakePauser) SetSchedulerPause(p bool, r string) { f.paused, f.reason = p, r }

func TestCheckCombinesRules(t *testing.T) {
	battery := fixture(t, map[string]map[string]string{
		"AC": {"type": "Mains", "online": "0"}, "BAT0": {"type": "Battery", "capacity": "30", "status": "Discharging"},
	}, "cpu  1 0 1 8 0 0 0 0\n")
	rules := []core.SchedulerRule{
		{Type: core.RuleTimeWindow, Start: "22:00", End: "07:00"},
		{Type: core.RuleOnACPower},
		{Type: core.RuleBatteryAbove, Percent: pct(50)},
	}
	q := &fakePauser{}
	s := New(nil, battery, q, quiet)
	s.now = func() time.Time { return at("2026-11-23 23:00") }
	s.Check(core.SchedulerSettings{Enabled: true, CombineMode: core.CombineAll, Rules: rules})
	if !q.paused || q.reason != "on battery power; battery at 30% (needs 50%)" {
		t.Fatalf("ALL: paused=%v reason=%q", q.paused, q.reason)
	}
	s.Check(core.SchedulerSettings{Enabled: true, CombineMode: core.CombineAny, Rules: rules})
	if q.paused {
		t.Fatalf("ANY with the time window holding: paused, %q", q.reason)
	}
	s.now = func() time.Time { return at("2026-11-23 12:00") }
	s.Check(core.SchedulerSettings{Enabled: true, CombineMode: core.CombineAny, Rules: rules})
	if !q.paused || q.reason == "" {
		t.Fatal("ANY with no rule holding must pause with a reason")
	}
	s.Check(core.SchedulerSettings{Enabled: false, CombineMode: core.CombineAll, Rules: rules})
	if q.paused {
		t.Fatal("a disabled scheduler must release its pause")
	}
}

func TestPmsetOutput(t *testing.T) {
	cases := []struct {
		out  string
		want Power
	}{
		{"Now drawing from 'Battery Power'\n -InternalBattery-0 (id=4653155)\t82%; discharging; 4:10 remaining present: true\n",
			Power{OnAC: false, HasBattery: true, Battery: 82}},
		{"Now drawing from 'AC Power'\n -InternalBattery-0 (id=4653155)\t100%; charged; 0:00 remaining present: true\n",
			Power{OnAC: true, HasBattery: true, Battery: 100}},
		{"Now drawing from 'AC Power'\n", Power{OnAC: true}}, // a Mac mini
	}
	for _, c := range cases {
		if got := parsePmset(c.out); got != c.want {
			t.Errorf("parsePmset(%q) = %+v, want %+v", c.out, got, c.want)
		}
	}
}

// panicky is a probe that panics on every power reading.
type panicky struct {
	mu    sync.Mutex
	calls int
}

func (p *panicky) Power() (Power, error) {
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
	panic("misread the battery")
}

func (p *panicky) CPUPercent() (float64, error) { return 0, nil }

func (p *panicky) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// A probe that panics costs one check, not the process: Run logs it and
// checks again.
func TestRunOutlivesAPanickingProbe(t *testing.T) {
	probe := &panicky{}
	cfg := core.SchedulerSettings{Enabled: true, CombineMode: core.CombineAll, CheckIntervalSeconds: 1,
		Rules: []core.SchedulerRule{{Type: core.RuleOnACPower}}}
	s := New(func() core.SchedulerSettings { return cfg }, probe, &fakePauser{}, quiet)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	if !poll.Until(10*time.Second, func() bool { s.SettingsChanged(); return probe.count() >= 2 }) {
		t.Fatalf("Run stopped checking after a panic: %d checks", probe.count())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
