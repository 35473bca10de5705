// Package scheduler pauses the indexing queue outside the conditions the
// person chose: time windows, mains power, battery level, CPU load.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"trove/backend/core"
)

// Probe is what the rules look at.
type Probe interface {
	Power() (Power, error)
	CPUPercent() (float64, error)
}

// Pauser is the queue's scheduler pause.
type Pauser interface {
	SetSchedulerPause(paused bool, reason string)
}

// Scheduler checks the rules every check_interval_seconds, and at once
// whenever the settings change.
type Scheduler struct {
	settings func() core.SchedulerSettings
	probe    Probe
	queue    Pauser
	now      func() time.Time
	log      *slog.Logger
	changed  chan struct{}
}

// New builds a scheduler.
func New(settings func() core.SchedulerSettings, probe Probe, queue Pauser, log *slog.Logger) *Scheduler {
	return &Scheduler{settings: settings, probe: probe, queue: queue, now: time.Now, log: log, changed: make(chan struct{}, 1)}
}

// SettingsChanged asks for an immediate re-check.
func (s *Scheduler) SettingsChanged() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Run checks until ctx ends.
func (s *Scheduler) Run(ctx context.Context) error {
	s.probe.CPUPercent() // start the CPU measurement window
	for {
		cfg := s.settings()
		// A panic in one check (a probe that misreads the system) is
		// logged and the pause stays as it was: it must not end Trove.
		if err := core.Safe(func() { s.Check(cfg) }); err != nil {
			s.log.Error("recovered from a panic", "in", "scheduler check", "panic", err, "stack", string(err.(*core.PanicError).Stack))
		}
		wait := time.Duration(cfg.CheckIntervalSeconds * float64(time.Second))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(max(wait, time.Second)):
		case <-s.changed:
		}
	}
}

// Check evaluates the rules once and sets the queue's scheduler pause.
func (s *Scheduler) Check(cfg core.SchedulerSettings) {
	if !cfg.Enabled || len(cfg.Rules) == 0 {
		s.queue.SetSchedulerPause(false, "")
		return
	}
	allowed, reason := Evaluate(cfg, s.now(), s.probe, s.log)
	s.queue.SetSchedulerPause(!allowed, reason)
}

// Evaluate reports whether the rules let indexing run now, and if not, why.
func Evaluate(cfg core.SchedulerSettings, now time.Time, probe Probe, log *slog.Logger) (bool, string) {
	var failed []string
	held := 0
	for _, r := range cfg.Rules {
		ok, why := holds(r, now, probe, log)
		if ok {
			held++
		} else {
			failed = append(failed, why)
		}
	}
	if cfg.CombineMode == core.CombineAny {
		if held > 0 {
			return true, ""
		}
		return false, "no rule holds: " + strings.Join(failed, "; ")
	}
	if len(failed) == 0 {
		return true, ""
	}
	return false, strings.Join(failed, "; ")
}

// holds evaluates one rule. A probe that cannot be read counts as the rule
// holding: a broken sensor should not stop indexing forever.
func holds(r core.SchedulerRule, now time.Time, probe Probe, log *slog.Logger) (bool, string) {
	switch r.Type {
	case core.RuleTimeWindow:
		if inWindow(r, now) {
			return true, ""
		}
		days := ""
		if len(r.Days) > 0 {
			days = " on " + strings.Join(r.Days, ", ")
		}
		return false, fmt.Sprintf("outside %s-%s%s", r.Start, r.End, days)
	case core.RuleOnACPower:
		p, err := probe.Power()
		if err != nil {
			log.Warn("cannot read power state", "err", err)
			return true, ""
		}
		return p.OnAC, "on battery power"
	case core.RuleBatteryAbove:
		p, err := probe.Power()
		if err != nil || p.OnAC || !p.HasBattery {
			return true, ""
		}
		return p.Battery >= *r.Percent, fmt.Sprintf("battery at %.0f%% (needs %.0f%%)", p.Battery, *r.Percent)
	case core.RuleCPUBelow:
		cpu, err := probe.CPUPercent()
		if err != nil {
			log.Warn("cannot read CPU load", "err", err)
			return true, ""
		}
		return cpu < *r.Percent, fmt.Sprintf("CPU at %.0f%% (limit %.0f%%)", cpu, *r.Percent)
	}
	return true, ""
}

var dayNames = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// inWindow: [start, end) in local time; end before start crosses midnight,
// and days name the day the window starts on.
func inWindow(r core.SchedulerRule, now time.Time) bool {
	start, end := minutes(r.Start), minutes(r.End)
	cur := now.Hour()*60 + now.Minute()
	day := now.Weekday()
	switch {
	case start == end:
		return dayAllowed(r.Days, day) // a whole day
	case start < end:
		return cur >= start && cur < end && dayAllowed(r.Days, day)
	case cur >= start:
		return dayAllowed(r.Days, day)
	case cur < end:
		return dayAllowed(r.Days, (day+6)%7) // started yesterday
	}
	return false
}

func dayAllowed(days []string, d time.Weekday) bool {
	if len(days) == 0 {
		return true
	}
	for _, x := range days {
		if x == dayNames[d] {
			return true
		}
	}
	return false
}

func minutes(hhmm string) int {
	var h, m int
	fmt.Sscanf(hhmm, "%d:%d", &h, &m)
	return h*60 + m
}
