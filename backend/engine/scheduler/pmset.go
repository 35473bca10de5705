package scheduler

import (
	"regexp"
	"strconv"
	"strings"
)

var pmsetPercent = regexp.MustCompile(`(\d{1,3})%`)

// parsePmset reads the output of macOS's `pmset -g batt`:
//
//	Now drawing from 'Battery Power'
//	 -InternalBattery-0 (id=1234)	82%; discharging; 4:10 remaining present: true
//
// Plain text, so it is parsed (and tested) on every system.
func parsePmset(out string) Power {
	p := Power{OnAC: !strings.Contains(out, "'Battery Power'")}
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "InternalBattery") {
			continue
		}
		if m := pmsetPercent.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				p.HasBattery, p.Battery = true, v
			}
		}
	}
	return p
}
