package embedding

import (
	"unicode"
	"unicode/utf8"
)

// wordIndex maps lower-case words to their table index: open addressing
// over a power-of-two slot array, at most half full, keyed by a 64-bit hash
// that lowerHash computes while it lower-cases a token. A slot holds the
// word's index + 1 in its low 16 bits (0: empty), its length in the next 8
// and 40 further bits of its hash above, and a lookup trusts a slot whose
// bits all agree without reading the word: two words would have to agree
// on their length and 57 bits of hash (the 40 and the slot's 17) to be
// confused, about one chance in 10^17 per lookup, while reading words from
// memory made lookups the slowest step of embedding.
type wordIndex struct {
	slots []uint64
	mask  uint64
}

func slotKey(n int, h uint64) uint64 { return h&^0xffffff | uint64(n&0xff)<<16 }

// newWordIndex indexes up to 65535 words.
func newWordIndex(words []string) *wordIndex {
	size := 1
	for size < 2*len(words) {
		size <<= 1
	}
	x := &wordIndex{slots: make([]uint64, size), mask: uint64(size - 1)}
	for i, w := range words {
		_, h := lowerHash(nil, w)
		j := h & x.mask
		for x.slots[j] != 0 {
			j = (j + 1) & x.mask
		}
		x.slots[j] = slotKey(len(w), h) | uint64(i+1)
	}
	return x
}

// lookup finds the lower-case key whose lowerHash is h.
func (x *wordIndex) lookup(key []byte, h uint64) (int32, bool) {
	k := slotKey(len(key), h)
	for j := h & x.mask; ; j = (j + 1) & x.mask {
		s := x.slots[j]
		if s == 0 {
			return -1, false
		}
		if s&^0xffff == k {
			return int32(s&0xffff) - 1, true
		}
	}
}

// lowerHash appends the lower-case form of s to dst and returns it with
// its hash.
func lowerHash(dst []byte, s string) ([]byte, uint64) {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			h = (h ^ uint64(c)) * 1099511628211
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n := len(dst)
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		for _, c := range dst[n:] {
			h = (h ^ uint64(c)) * 1099511628211
		}
		i += size
	}
	return dst, mix(h)
}

// mix spreads the bits of an FNV-1a hash, whose low bits pick the slot and
// whose high bits are the tag.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// hashBytes is the hash lowerHash gives a lower-case word.
func hashBytes(w []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range w {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return mix(h)
}
