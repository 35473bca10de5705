package model

import (
	"bytes"
	"testing"
)

func small() *Table {
	t := &Table{Dim: 3, NgramMin: 3, NgramMax: 4, Buckets: 2, BucketScale: 0.5, OOVNorm: 2}
	t.Words = []string{"wing", "wings"}
	t.Ranks = []uint32{10, 20}
	t.WordScale = []float32{0.1, 0.2}
	t.WordVec = append(t.Row([]float32{1, -1, 0.5}, 0.1), t.Row([]float32{2, 0, -2}, 0.2)...)
	t.BucketVec = append(t.Row([]float32{1, 1, 1}, 0.5), t.Row([]float32{0, 0, 0}, 0.5)...)
	t.Components = [][]float32{{1, 0, 0}}
	t.Mean = []float32{0.1, 0.2, 0.3}
	return t
}

func TestRoundTrip(t *testing.T) {
	in := small()
	data := string(in.Marshal())
	if !Verify(data) {
		t.Fatal("checksum does not verify")
	}
	if Verify(data[:20] + "x" + data[21:]) {
		t.Fatal("a changed table verifies")
	}
	out, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Marshal()) != data || out.Sum != in.Sum {
		t.Fatal("Parse(Marshal(t)) differs from t")
	}
	if out.Stride() != 8 || len(out.WordRow(1)) != 8 {
		t.Fatalf("stride %d", out.Stride())
	}
	if got := int(out.WordRow(0)[1]) - Bias; got != -10 {
		t.Fatalf("component quantised to %d, want -10", got)
	}
	if got := out.WordRow(0)[5]; got != Bias {
		t.Fatalf("padding %d, want the bias", got)
	}
	for n := 0; n < len(data); n += 7 {
		if _, err := Parse(data[:n]); err == nil {
			t.Fatalf("a table cut to %d bytes parsed", n)
		}
	}
	if _, err := Parse(data + "\x00"); err == nil {
		t.Fatal("trailing bytes accepted")
	}
}

// A new table is known by its own checksum; one that keeps an earlier
// table's vectors is known by that table's, whatever its own.
func TestIdentity(t *testing.T) {
	fresh := small()
	fresh.Marshal()
	if fresh.ID != 0 || fresh.Identity() != fresh.Sum {
		t.Fatalf("a new table: ID %08x, identity %08x, sum %08x", fresh.ID, fresh.Identity(), fresh.Sum)
	}
	kept := small()
	kept.ID = 0x52a29009
	out, err := Parse(string(kept.Marshal()))
	if err != nil {
		t.Fatal(err)
	}
	if out.Identity() != 0x52a29009 || out.Sum == 0x52a29009 || out.Sum == fresh.Sum {
		t.Fatalf("a table keeping an identity: identity %08x, sum %08x", out.Identity(), out.Sum)
	}
}

func TestSubwords(t *testing.T) {
	var got []int
	Subwords("wing", 3, 4, 1024, func(b int) { got = append(got, b) })
	// "<wing>" has 4 trigrams and 3 four-grams.
	if len(got) != 7 {
		t.Fatalf("%d n-grams, want 7", len(got))
	}
	for _, b := range got {
		if b < 0 || b >= 1024 {
			t.Fatalf("bucket %d out of range", b)
		}
	}
	var again []int
	Subwords("wing", 3, 4, 1024, func(b int) { again = append(again, b) })
	if !equal(got, again) {
		t.Fatal("Subwords is not deterministic")
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzParse: no input makes Parse panic, and what it accepts re-encodes to
// the same bytes.
func FuzzParse(f *testing.F) {
	f.Add(small().Marshal())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse(string(data))
		if err != nil {
			return
		}
		out := tb.Marshal()
		// The checksum is recomputed; the rest must be the same.
		if !bytes.Equal(out[len(Magic)+4:], data[len(Magic)+4:]) {
			t.Fatal("accepted table re-encodes differently")
		}
	})
}
