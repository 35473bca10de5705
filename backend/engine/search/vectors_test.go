package search

import (
	"math"
	"math/rand"
	"testing"

	"trove/backend/engine/vecquant"
	"trove/backend/store"
)

func randUnit(r *rand.Rand, dim int) []float32 {
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

func fill(r *rand.Rand, v *Vectors, files, perFile, dim int) map[int64][][]float32 {
	raw := map[int64][][]float32{}
	var batch []store.Indexed
	for f := int64(1); f <= int64(files); f++ {
		ix := store.Indexed{ID: f, EmbedModel: "m"}
		for range perFile {
			x := randUnit(r, dim)
			raw[f] = append(raw[f], x)
			ix.Vecs = append(ix.Vecs, vecquant.Encode(x))
		}
		batch = append(batch, ix)
	}
	v.Indexed(batch)
	return raw
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i] * b[i])
	}
	return s
}

// bestExact ranks files by their best passage with float32 maths.
func bestExact(raw map[int64][][]float32, q []float32) (int64, float64) {
	var bestF int64
	best := -2.0
	for f, vs := range raw {
		for _, x := range vs {
			if c := cosine(q, x); c > best || c == best && f < bestF {
				best, bestF = c, f
			}
		}
	}
	return bestF, best
}

func TestSearchFindsTheBestPassage(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	v := NewVectors("m")
	raw := fill(r, v, 300, 3, 64)
	for range 20 {
		q := randUnit(r, 64)
		got := v.Search(q, 5)
		wantF, wantSim := bestExact(raw, q)
		found := false
		for _, m := range got[:3] { // int8 rounding may swap near ties
			found = found || m.FileID == wantF
		}
		if len(got) != 5 || !found || math.Abs(got[0].Similarity-wantSim) > 0.02 {
			t.Fatalf("got %+v, want file %d sim %.3f", got, wantF, wantSim)
		}
	}
}

func TestRemoveAndReplaceKeepRowsConsistent(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	v := NewVectors("m")
	raw := fill(r, v, 50, 4, 32)
	v.Removed([]int64{1, 17, 50})
	delete(raw, 1)
	delete(raw, 17)
	delete(raw, 50)
	x := randUnit(r, 32)
	v.Indexed([]store.Indexed{{ID: 2, EmbedModel: "m", Vecs: [][]byte{vecquant.Encode(x)}}})
	raw[2] = [][]float32{x}
	v.Indexed([]store.Indexed{{ID: 3, EmbedModel: "other", Vecs: [][]byte{vecquant.Encode(x)}}})
	delete(raw, 3) // re-indexed with another model: its vectors leave the index
	if n := v.Len(); n != 4*45+1 {
		t.Fatalf("len %d", n)
	}
	for f, rows := range v.rows {
		for _, row := range rows {
			if v.file[row] != f {
				t.Fatalf("row %d says file %d, map says %d", row, v.file[row], f)
			}
		}
	}
	got := v.Best(x, []int64{2, 3, 1})
	if m, ok := got[2]; !ok || m.Similarity < 0.99 {
		t.Fatalf("file 2: %+v", got)
	}
	if _, ok := got[1]; ok {
		t.Fatal("a removed file still has vectors")
	}
	if _, ok := got[3]; ok {
		t.Fatal("a file re-indexed with another model kept its old vectors")
	}
}

func TestTwoPassSearchRecall(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	v := NewVectors("m")
	// Clustered data, as real embeddings are: many near-duplicates.
	const dim = 100
	centres := make([][]float32, 200)
	for i := range centres {
		centres[i] = randUnit(r, dim)
	}
	var batch []store.Indexed
	raw := map[int64][][]float32{}
	for f := int64(1); f <= exactRows+10_000; f++ {
		c := centres[r.Intn(len(centres))]
		x := make([]float32, dim)
		var n float64
		for i := range x {
			x[i] = c[i] + 0.5*float32(r.NormFloat64())/10
			n += float64(x[i] * x[i])
		}
		for i := range x {
			x[i] /= float32(math.Sqrt(n))
		}
		raw[f] = [][]float32{x}
		batch = append(batch, store.Indexed{ID: f, EmbedModel: "m", Vecs: [][]byte{vecquant.Encode(x)}})
	}
	v.Indexed(batch)
	hits := 0
	for range 20 {
		// A query near some passage, as a real query is near its answer.
		target := raw[int64(1+r.Intn(len(raw)))][0]
		q := make([]float32, dim)
		for i := range q {
			q[i] = target[i] + 0.3*float32(r.NormFloat64())/10
		}
		wantF, _ := bestExact(raw, q)
		for _, m := range v.Search(q, 10) {
			if m.FileID == wantF {
				hits++
				break
			}
		}
	}
	if hits < 19 {
		t.Fatalf("two-pass search found the true nearest file in the top 10 for %d of 20 queries", hits)
	}
}

func BenchmarkSearch1MPassages(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	v := NewVectors("m")
	var batch []store.Indexed
	one := vecquant.Encode(randUnit(r, 256)) // the default model's dimensions
	for f := int64(1); f <= 200_000; f++ {
		ix := store.Indexed{ID: f, EmbedModel: "m"}
		for range 5 {
			enc := append([]byte(nil), one...)
			for i := 4; i < len(enc); i++ {
				enc[i] = byte(r.Intn(255) - 127)
			}
			ix.Vecs = append(ix.Vecs, enc)
		}
		batch = append(batch, ix)
	}
	v.Indexed(batch)
	q := randUnit(r, 256)
	b.ResetTimer()
	for range b.N {
		v.Search(q, 50)
	}
}

func TestResetEmptiesForAnotherModel(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	v := NewVectors("m")
	fill(r, v, 10, 2, 16)
	v.Reset("m2")
	if v.Len() != 0 || v.Model() != "m2" {
		t.Fatalf("after reset: len %d model %q", v.Len(), v.Model())
	}
	x := randUnit(r, 32) // another dimension is fine after a reset
	v.Indexed([]store.Indexed{{ID: 1, EmbedModel: "m2", Vecs: [][]byte{vecquant.Encode(x)}}})
	if got := v.Search(x, 1); len(got) != 1 || got[0].FileID != 1 {
		t.Fatalf("search after reset: %+v", got)
	}
}
