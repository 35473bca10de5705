// Package vecquant stores unit vectors compactly: int8 components with one
// float32 scale (4 + dim bytes, where float32 takes 4 * dim), with dot
// products whose error is far below the differences ranking cares about.
package vecquant

import (
	"encoding/binary"
	"math"
)

// Encode quantises v to the stored form.
func Encode(v []float32) []byte {
	var maxAbs float32
	for _, x := range v {
		maxAbs = max(maxAbs, float32(math.Abs(float64(x))))
	}
	out := make([]byte, 4+len(v))
	scale := maxAbs / 127
	binary.LittleEndian.PutUint32(out, math.Float32bits(scale))
	if scale == 0 {
		return out
	}
	for i, x := range v {
		out[4+i] = byte(int8(math.Round(float64(x / scale))))
	}
	return out
}

// Decode splits a stored vector into its scale and a copy of its
// components (b may be reused by the caller). ok is false for a malformed
// value.
func Decode(b []byte) (scale float32, comps []int8, ok bool) {
	if len(b) < 5 {
		return 0, nil, false
	}
	scale = math.Float32frombits(binary.LittleEndian.Uint32(b))
	comps = make([]int8, len(b)-4)
	for i, c := range b[4:] {
		comps[i] = int8(c)
	}
	return scale, comps, !math.IsNaN(float64(scale)) && !math.IsInf(float64(scale), 0)
}

// Dot is the integer dot product of two component slices of equal length.
func Dot(a, b []int8) int32 {
	var s0, s1, s2, s3 int32
	b = b[:len(a)]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
