// Package model holds what the table generator and the builtin embedder
// must agree on: the binary table format, the subword hashing and the
// frequency weights.
package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"unsafe"
)

// Magic starts every table; the digits are the format version. A CRC-32
// (IEEE) of everything after it and itself follows, then the table's ID.
//
// Version 03 is 02 without the lists of each word's nearest words, which
// nothing read.
const Magic = "TRVEMB03"

// Table is a word-vector table. Vectors are quantised to 8 bits and stored
// as bytes biased by 128, in rows of Stride bytes (Dim rounded up to a
// multiple of 8; the padding holds 128, that is zero): component j of word
// i is WordScale[i] * (WordVec[i*Stride+j] - 128). The bias and the stride
// let eight components add up at once in a uint64.
type Table struct {
	// Sum is the table's checksum (set by Marshal and Parse).
	Sum uint32
	// ID is the checksum of an earlier table whose vectors this one gives
	// unchanged, or 0: see Identity.
	ID       uint32
	Dim      int
	NgramMin int // shortest character n-gram hashed for unknown words
	NgramMax int // longest

	// Words in frequency order of the source corpus (rank = index + 1).
	Words []string
	// Ranks holds, for each word, its 1-based frequency rank in the source
	// vocabulary (the table skips source entries that are not words, so
	// ranks are increasing but may have gaps).
	Ranks     []uint32
	WordScale []float32
	WordVec   []byte

	// Buckets are vectors of hashed character n-grams (Buckets of them, a
	// power of two); the vector of an unknown word is the mean of the
	// buckets of its n-grams, rescaled to OOVNorm. One scale serves all, so
	// that they add up as integers.
	Buckets     int
	BucketScale float32
	BucketVec   []byte
	OOVNorm     float32

	// Components are unit directions (Dim each) that sentence vectors lose:
	// the common component of SIF averages and following principal
	// directions, most important first.
	Components [][]float32
	// Mean is the frequency-weighted mean word vector.
	Mean []float32
}

// Identity names the table's vectors, and with them the builtin models:
// vectors of one identity may sit in one index together. It is the
// checksum of the first table that gave these vectors. A table rewritten
// without changing a vector (a section nothing reads dropped) keeps the
// identity of the one it replaces, so no index embeds its files again.
func (t *Table) Identity() uint32 {
	if t.ID != 0 {
		return t.ID
	}
	return t.Sum
}

// Marshal encodes t and sets t.Sum.
func (t *Table) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(Magic)
	b.Write([]byte{0, 0, 0, 0}) // checksum, below
	u32 := func(v int) { _ = binary.Write(&b, binary.LittleEndian, uint32(v)) }
	f32s := func(v []float32) { _ = binary.Write(&b, binary.LittleEndian, v) }
	u32(int(t.ID))
	u32(t.Dim)
	u32(len(t.Words))
	u32(t.Buckets)
	u32(t.NgramMin)
	u32(t.NgramMax)
	u32(len(t.Components))
	f32s([]float32{t.OOVNorm, t.BucketScale})
	var words bytes.Buffer
	for _, w := range t.Words {
		words.WriteString(w)
		words.WriteByte('\n')
	}
	u32(words.Len())
	b.Write(words.Bytes())
	_ = binary.Write(&b, binary.LittleEndian, t.Ranks)
	f32s(t.WordScale)
	b.Write(t.WordVec)
	b.Write(t.BucketVec)
	for _, c := range t.Components {
		f32s(c)
	}
	f32s(t.Mean)
	out := b.Bytes()
	t.Sum = crc32.ChecksumIEEE(out[len(Magic)+4:])
	binary.LittleEndian.PutUint32(out[len(Magic):], t.Sum)
	return out
}

// Verify reports whether the checksum in data matches its content. Parse
// does not check it, so that loading does not read every page.
func Verify(data string) bool {
	n := len(Magic) + 4
	return len(data) >= n && crc32.ChecksumIEEE([]byte(data[n:])) == binary.LittleEndian.Uint32([]byte(data[len(Magic):n]))
}

type reader struct {
	s   string
	err error
}

func (r *reader) str(n int) string {
	if r.err != nil {
		return ""
	}
	if n < 0 || n > len(r.s) {
		r.err = errors.New("table truncated")
		return ""
	}
	p := r.s[:n]
	r.s = r.s[n:]
	return p
}

// take returns the next n bytes, sharing the string's memory: they must
// never be written.
func (r *reader) take(n int) []byte {
	p := r.str(n)
	if r.err != nil {
		return nil
	}
	if p == "" {
		return []byte{}
	}
	return unsafe.Slice(unsafe.StringData(p), len(p))
}

func (r *reader) u32() int {
	p := r.take(4)
	if p == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint32(p))
}

func (r *reader) f32s(n int) []float32 {
	p := r.take(4 * n)
	if p == nil {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
	return out
}

// Parse decodes a table made by Marshal. The table's words and vectors
// share data's memory (a string, so that nobody writes it).
func Parse(data string) (*Table, error) {
	if !strings.HasPrefix(data, Magic) {
		return nil, errors.New("not a word-vector table")
	}
	r := &reader{s: data[len(Magic):]}
	t := &Table{}
	if p := r.take(4); p != nil {
		t.Sum = binary.LittleEndian.Uint32(p)
	}
	t.ID = uint32(r.u32())
	t.Dim = r.u32()
	nWords := r.u32()
	nBuckets := r.u32()
	t.NgramMin = r.u32()
	t.NgramMax = r.u32()
	nComp := r.u32()
	if r.err == nil && (t.Dim <= 0 || t.Dim > 4096 || nWords > 1<<16 || nBuckets > 1<<24 || nComp > 64) {
		return nil, fmt.Errorf("implausible table header (dim %d, words %d, buckets %d)", t.Dim, nWords, nBuckets)
	}
	if nBuckets == 0 || nBuckets&(nBuckets-1) != 0 {
		return nil, fmt.Errorf("bucket count %d is not a power of two", nBuckets)
	}
	if o := r.f32s(2); o != nil {
		t.OOVNorm, t.BucketScale = o[0], o[1]
	}
	t.Buckets = nBuckets
	all := r.str(r.u32())
	if r.err != nil {
		return nil, r.err
	}
	t.Words = make([]string, 0, nWords)
	for len(all) > 0 {
		i := 0
		for i < len(all) && all[i] != '\n' {
			i++
		}
		if i == len(all) {
			return nil, errors.New("word list not terminated")
		}
		t.Words = append(t.Words, all[:i])
		all = all[i+1:]
	}
	if len(t.Words) != nWords {
		return nil, fmt.Errorf("word list has %d words, header says %d", len(t.Words), nWords)
	}
	rk := r.take(4 * nWords)
	if rk != nil {
		t.Ranks = make([]uint32, nWords)
		for i := range t.Ranks {
			t.Ranks[i] = binary.LittleEndian.Uint32(rk[4*i:])
		}
	}
	t.WordScale = r.f32s(nWords)
	t.WordVec = r.take(nWords * t.Stride())
	t.BucketVec = r.take(nBuckets * t.Stride())
	for range nComp {
		t.Components = append(t.Components, r.f32s(t.Dim))
	}
	t.Mean = r.f32s(t.Dim)
	if r.err != nil {
		return nil, r.err
	}
	if len(r.s) != 0 {
		return nil, fmt.Errorf("%d trailing bytes after table", len(r.s))
	}
	return t, nil
}

// Bias is the byte that stands for zero in quantised vectors.
const Bias = 128

// Stride is the length of a vector row in bytes.
func (t *Table) Stride() int { return (t.Dim + 7) &^ 7 }

// WordRow returns the bytes of word i's vector.
func (t *Table) WordRow(i int) []byte {
	s := t.Stride()
	return t.WordVec[i*s : i*s+s : i*s+s]
}

// BucketRow returns the bytes of bucket k's vector.
func (t *Table) BucketRow(k int) []byte {
	s := t.Stride()
	return t.BucketVec[k*s : k*s+s : k*s+s]
}

// Row quantises v to a biased row of Stride bytes, given its scale:
// clamped to ±127 steps.
func (t *Table) Row(v []float32, scale float32) []byte {
	row := make([]byte, t.Stride())
	for j := range row {
		row[j] = Bias
	}
	if scale == 0 {
		return row
	}
	for j, x := range v {
		q := math.Round(float64(x / scale))
		row[j] = byte(int(max(-127, min(127, q))) + Bias)
	}
	return row
}

// Subwords calls fn with the bucket of every character n-gram of word
// (n from min to max, over bytes, with '<' and '>' marking the word's
// boundaries). buckets must be a power of two.
func Subwords(word string, min, max, buckets int, fn func(bucket int)) {
	mask := uint32(buckets - 1)
	n := len(word) + 2
	at := func(i int) byte {
		switch {
		case i == 0:
			return '<'
		case i == n-1:
			return '>'
		}
		return word[i-1]
	}
	for size := min; size <= max; size++ {
		for start := 0; start+size <= n; start++ {
			h := uint32(2166136261)
			for i := start; i < start+size; i++ {
				h ^= uint32(at(i))
				h *= 16777619
			}
			// Mix the length in so that n-grams of different sizes
			// spread over different buckets.
			h ^= uint32(size) * 0x9e3779b9
			h ^= h >> 15
			h *= 0x2c1b3c6d
			h ^= h >> 12
			fn(int(h & mask))
		}
	}
}

// ZipfHarmonic is the normaliser of the Zipf law used to estimate word
// probabilities from frequency ranks: p(rank) = 1 / (rank * ZipfHarmonic),
// the harmonic number of the source vocabulary (400,000 words).
const ZipfHarmonic = 13.4795

// Prob estimates the probability of the word with the given 1-based
// frequency rank.
func Prob(rank uint32) float64 { return 1 / (float64(rank) * ZipfHarmonic) }

// SIFA is the parameter a of the smooth inverse frequency weight
// a / (a + p(w)).
const SIFA = 1e-3
