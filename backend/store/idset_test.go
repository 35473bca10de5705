package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// An idSet holds exactly its ids, as a bitmap or, for ids far apart, a
// map.
func TestIDSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, span := range []int64{1, 100, 5000, 4 * maxSetBits} {
		in := map[int64]bool{}
		var ids []int64
		for range 200 {
			id := r.Int64N(span) - span/3
			in[id] = true
			ids = append(ids, id)
		}
		s := newIDSet(ids)
		if wide := span > maxSetBits; (s.m != nil) != wide {
			t.Errorf("span %d: map %v", span, s.m != nil)
		}
		if s.lo != slices.Min(ids) || s.hi != slices.Max(ids) {
			t.Errorf("span %d: bounds %d, %d", span, s.lo, s.hi)
		}
		for range 2000 {
			id := r.Int64N(span+200) - span/3 - 100
			if s.has(id) != in[id] {
				t.Fatalf("span %d: has(%d) = %v", span, id, s.has(id))
			}
		}
	}
	if newIDSet(nil).has(0) {
		t.Error("the empty set has 0")
	}
}

// trove_in refuses a first argument that is not a set of ids, with an
// error rather than a crash or a match.
func TestInFunctionNeedsASet(t *testing.T) {
	s, _ := openTemp(t)
	var ok bool
	err := s.rdb().QueryRow(`SELECT ` + inFunc + `(1, 2)`).Scan(&ok)
	if err == nil {
		t.Fatalf("trove_in(1, 2) = %v, want an error", ok)
	}
}
