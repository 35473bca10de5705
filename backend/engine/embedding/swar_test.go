package embedding

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The grouped integer sums must agree with plain float arithmetic.
func TestLevelSumsMatchFloat(t *testing.T) {
	const dim, stride = 100, 104
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([][]byte, 700)
	for i := range rows {
		rows[i] = make([]byte, stride)
		for j := range rows[i] {
			rows[i][j] = 128
			if j < dim {
				rows[i][j] = byte(1 + rng.IntN(255))
			}
		}
	}
	ls := newLevelSums(stride)
	got := make([]float32, dim)
	want := make([]float64, dim)
	for i, row := range rows {
		c := float32(math.Exp(rng.Float64()*12 - 8)) // 3e-4 .. 55
		if i%3 == 0 {
			c = 0.5 // many rows at one level: overflow flushes
		}
		if i == 5 {
			c = 1e30 // no level: added directly
		}
		ls.add(got, row, c)
		for j := range dim {
			want[j] += float64(c) * float64(int(row[j])-128)
		}
	}
	ls.flush(got)
	var num, den float64
	for j := range dim {
		d := float64(got[j]) - want[j]
		num += d * d
		den += want[j] * want[j]
	}
	if rel := math.Sqrt(num / den); rel > 0.02 {
		t.Fatalf("relative error %.4f", rel)
	}
}

func TestLevel(t *testing.T) {
	for _, c := range []float32{1e-7, 0.013, 0.5, 1, 3.7, 200} {
		l := level(c)
		if l < 0 {
			t.Fatalf("level(%g) < 0", c)
		}
		if v := levelValue(l); math.Abs(float64(v-c))/float64(c) > 1.0/64 {
			t.Errorf("level value %g for %g", v, c)
		}
	}
	for _, c := range []float32{0, 1e-9, 1e3, float32(math.Inf(1))} {
		if l := level(c); l >= 0 {
			t.Errorf("level(%g) = %d, want none", c, l)
		}
	}
}
