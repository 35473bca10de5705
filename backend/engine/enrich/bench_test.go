package enrich

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchText makes a deterministic document of about n bytes: paragraphs of
// sentences whose words follow a Zipf distribution over the English word
// list, so that vocabulary grows with length as in real text, with a
// heading every few paragraphs.
func benchText(n int) string {
	priorOnce.Do(loadPrior)
	words := make([]string, 0, len(lexicon))
	for line := range strings.Lines(wordsEN) {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
			words = append(words, line)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	var b strings.Builder
	for para := 0; b.Len() < n; para++ {
		if para%4 == 0 {
			b.WriteString("## ")
			b.WriteString(strings.ToUpper(words[z.Uint64()][:1]) + words[z.Uint64()][1:])
			b.WriteString("\n\n")
		}
		for s := 0; s < 3+r.IntN(4); s++ {
			l := 8 + r.IntN(18)
			for i := 0; i < l; i++ {
				w := words[z.Uint64()]
				if i == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				} else {
					b.WriteByte(' ')
				}
				b.WriteString(w)
				if i > 2 && i < l-2 && r.IntN(12) == 0 {
					b.WriteByte(',')
				}
			}
			b.WriteString(". ")
		}
		b.WriteString("\n\n")
	}
	return b.String()[:n]
}

type benchStats struct{}

func (benchStats) DocFreqs(_ context.Context, words []string) (int, map[string]int, error) {
	df := make(map[string]int, len(words))
	for i, w := range words {
		df[w] = 1 + i*7%300
	}
	return 1000, df, nil
}

func benchmarkBuiltin(b *testing.B, size int) {
	in := Input{Path: "/docs/bench.md", Filename: "bench.md", Text: benchText(size)}
	e := NewBuiltin(benchStats{})
	ctx := context.Background()
	if _, err := e.Enrich(ctx, in); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for b.Loop() {
		if _, err := e.Enrich(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time per file, which unlike wall time does not grow when other
	// processes share the machine.
	if cpu1, ok1 := processCPU(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkBuiltin2KB(b *testing.B)   { benchmarkBuiltin(b, 2<<10) }
func BenchmarkBuiltin20KB(b *testing.B)  { benchmarkBuiltin(b, 20<<10) }
func BenchmarkBuiltin200KB(b *testing.B) { benchmarkBuiltin(b, 200<<10) }

// BenchmarkBuiltinTestdata enriches each realistic test document (1-2 KB).
func BenchmarkBuiltinTestdata(b *testing.B) {
	for _, name := range []string{"meeting_notes_2024-03-01.md", "README.md", "the_lighthouse_keeper.txt", "ratelimit.go", "sales_q3.csv"} {
		b.Run(name, func(b *testing.B) {
			in := Input{Path: "/docs/" + name, Filename: name, Text: readTestdata(b, name)}
			e := NewBuiltin(benchStats{})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Enrich(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
