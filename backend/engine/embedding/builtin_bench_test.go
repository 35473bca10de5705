package embedding

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// zipfText makes a deterministic English-like text of about size bytes:
// table words drawn by Zipf's law, some capitalised, some made-up words
// outside the table, punctuation and line breaks.
func zipfText(tb testing.TB, size int) string {
	tb.Helper()
	t, err := loadTable()
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	z := rand.NewZipf(rng, 1.07, 2, uint64(len(t.Words)-1))
	var sb strings.Builder
	for sb.Len() < size {
		w := t.Words[z.Uint64()]
		switch r := rng.IntN(100); {
		case r < 3:
			w = w + "ography" // mostly unknown
		case r < 8:
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		sb.WriteString(w)
		switch r := rng.IntN(20); {
		case r == 0:
			sb.WriteString(". ")
		case r == 1:
			sb.WriteString(",\n")
		default:
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

func BenchmarkVector20KB(b *testing.B) {
	e, err := NewBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	text := zipfText(b, 20<<10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	cpuLoop(b, func() { e.Vector(text) })
}

// BenchmarkVector20KBCold clears the cache of unknown-word vectors before
// every text.
func BenchmarkVector20KBCold(b *testing.B) {
	e, err := NewBuiltinWith(BuiltinOptions{})
	if err != nil {
		b.Fatal(err)
	}
	text := zipfText(b, 20<<10)
	b.SetBytes(int64(len(text)))
	cpuLoop(b, func() {
		e.oovMu.Lock()
		clear(e.oovCache)
		e.oovMu.Unlock()
		e.Vector(text)
	})
}

func BenchmarkVectorSemantic20KB(b *testing.B) {
	e, err := NewBuiltinWith(BuiltinOptions{NoLexical: true})
	if err != nil {
		b.Fatal(err)
	}
	text := zipfText(b, 20<<10)
	b.SetBytes(int64(len(text)))
	cpuLoop(b, func() { e.Vector(text) })
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := NewBuiltinWith(BuiltinOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
