package embedding

import (
	"encoding/binary"
	"math"

	"trove/backend/engine/embedding/internal/model"
)

// Vectors are rows of bytes biased by 128 (see model.Table). sumRows adds
// rows eight bytes at a time in the 16-bit lanes of two uint64 per eight
// components (even and odd bytes), which is several times faster than
// converting and adding one component at a time.

const lanes = 0x00FF00FF00FF00FF

// maxRows is how many rows a sum can take before a 16-bit lane could
// overflow (255 * 257 = 65535).
const maxRows = 256

type rowSum struct {
	even, odd []uint64
	n         int // rows since the last flush
}

func newRowSum(stride int) rowSum {
	return rowSum{even: make([]uint64, stride/8), odd: make([]uint64, stride/8)}
}

func (a *rowSum) add(row []byte) {
	even, odd := a.even, a.odd[:len(a.even)]
	row = row[:8*len(even)]
	for k := range even {
		w := binary.LittleEndian.Uint64(row[8*k:])
		even[k] += w & lanes
		odd[k] += (w >> 8) & lanes
	}
	a.n++
}

// flush adds c times the sum of the rows to out (whose length is at most
// the stride) and empties a.
func (a *rowSum) flush(out []float32, c float32) {
	if a.n == 0 {
		return
	}
	bias := float32(model.Bias * a.n)
	even, odd := a.even, a.odd[:len(a.even)]
	for k := range even {
		e, o := even[k], odd[k]
		even[k], odd[k] = 0, 0
		for l := 0; l < 4; l++ {
			j := 8*k + 2*l
			if j >= len(out) {
				break
			}
			out[j] += c * (float32(e>>(16*l)&0xffff) - bias)
			if j+1 < len(out) {
				out[j+1] += c * (float32(o>>(16*l)&0xffff) - bias)
			}
		}
	}
	a.n = 0
}

// Word vectors enter a text's vector with a coefficient each (count times
// weight times quantisation scale). Rounding coefficients to 5 significant
// bits (a relative error of at most 1/64) puts words into few levels; the
// rows of each level add up as integers and are scaled once.
const (
	levelShift = 23 - 5
	levelMin   = (127 - 24) << 5 // 2^-24
	levelMax   = (127 + 8) << 5  // 2^8
	levels     = levelMax - levelMin
)

// level returns the level of coefficient c > 0, or -1 when c is outside
// [2^-24, 2^8).
func level(c float32) int {
	l := int((math.Float32bits(c)+1<<(levelShift-1))>>levelShift) - levelMin
	if l < 0 || l >= levels {
		return -1
	}
	return l
}

// levelValue is the coefficient of a level.
func levelValue(l int) float32 {
	return math.Float32frombits(uint32(l+levelMin) << levelShift)
}

// levelSums groups rows by level.
type levelSums struct {
	sums    []rowSum
	touched []int
}

func newLevelSums(stride int) *levelSums {
	ls := &levelSums{sums: make([]rowSum, levels)}
	even := make([]uint64, levels*stride/8)
	odd := make([]uint64, levels*stride/8)
	w := stride / 8
	for l := range ls.sums {
		ls.sums[l] = rowSum{even: even[l*w : (l+1)*w : (l+1)*w], odd: odd[l*w : (l+1)*w : (l+1)*w]}
	}
	return ls
}

// add adds c times row to the sums, or directly to out when c has no
// level.
func (ls *levelSums) add(out []float32, row []byte, c float32) {
	l := level(c)
	if l < 0 {
		if c != 0 && !math.IsNaN(float64(c)) {
			for j := range out {
				out[j] += c * (float32(row[j]) - model.Bias)
			}
		}
		return
	}
	s := &ls.sums[l]
	if s.n == 0 {
		ls.touched = append(ls.touched, l)
	}
	if s.n == maxRows {
		s.flush(out, levelValue(l))
	}
	s.add(row)
}

// flush adds every level's sum to out and empties ls.
func (ls *levelSums) flush(out []float32) {
	for _, l := range ls.touched {
		ls.sums[l].flush(out, levelValue(l))
	}
	ls.touched = ls.touched[:0]
}
