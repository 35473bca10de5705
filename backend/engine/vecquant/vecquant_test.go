package vecquant

import (
	"math"
	"math/rand"
	"testing"
)

func unit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func TestRoundTripKeepsDotProducts(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 200 {
		a, b := unit(r, 100), unit(r, 100)
		var exact float64
		for i := range a {
			exact += float64(a[i] * b[i])
		}
		sa, ca, ok1 := Decode(Encode(a))
		sb, cb, ok2 := Decode(Encode(b))
		if !ok1 || !ok2 {
			t.Fatal("decode failed")
		}
		approx := float64(sa*sb) * float64(Dot(ca, cb))
		if math.Abs(approx-exact) > 0.01 {
			t.Fatalf("dot %v, quantised %v", exact, approx)
		}
	}
}

func TestZeroAndMalformed(t *testing.T) {
	s, c, ok := Decode(Encode(make([]float32, 8)))
	if !ok || s != 0 || len(c) != 8 {
		t.Fatalf("zero vector: %v %v %v", s, c, ok)
	}
	if _, _, ok := Decode([]byte{1, 2}); ok {
		t.Fatal("short value decoded")
	}
}
