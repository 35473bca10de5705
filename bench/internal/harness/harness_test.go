package harness

import (
	"testing"
	"time"
)

func TestPercentileIsNearestRank(t *testing.T) {
	xs := []time.Duration{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}
	for p, want := range map[float64]time.Duration{50: 5, 90: 9, 95: 10, 99: 10, 100: 10, 0: 1, 10: 1, 11: 2} {
		if got := Percentile(xs, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty")
	}
	if xs[0] != 5 {
		t.Error("Percentile sorted its argument")
	}
}
