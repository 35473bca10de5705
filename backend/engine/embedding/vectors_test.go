package embedding

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"hash"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/backend/engine/embedding/internal/model"
)

var update = flag.Bool("update", false, "rewrite testdata/vectors.golden from the embedded table")

// goldenTexts cover every way a text becomes a vector: table words,
// inflections, n-grams of unknown words, identifiers, numbers, stopwords,
// other scripts, long and empty texts.
var goldenTexts = []string{
	"", "the", "roof", "leak", "nozzles", "pressure", "wing shock", "getUserName HTTPServer utf8 snake_case",
	"zorblax quuxification", "2024 42 x y", "Das Wetter ist schön; été, naïve café", "東京 タワー",
	"The roof leaks above the bedroom after every storm.",
	"Quarterly revenue grew by twelve percent; costs were flat.",
	"boundary layer transition on a flat plate at supersonic speeds with heat transfer",
	strings.Repeat("aerodynamic heating of slender bodies ", 40),
}

// The vectors the builtin models give are pinned bit for bit, and so is
// every vector of the table (words, n-gram buckets, the directions taken
// out): a change of the table that should keep them (a section nothing
// reads dropped) must, and one that does not must also change the table's
// identity, so that every index embeds its files again. -update rewrites
// the expected values; do that only with a new identity.
func TestVectorsStayBitIdentical(t *testing.T) {
	var b strings.Builder
	tb, err := loadTable()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "table\t%x\n", tableSum(tb.Table))
	for _, opts := range []BuiltinOptions{{}, {NoLexical: true}} {
		em, err := NewBuiltinWith(opts)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "model\t%s\n", em.Model())
		vs, err := em.Embed(t.Context(), goldenTexts)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vs {
			h := sha256.New()
			writeFloats(h, v)
			fmt.Fprintf(&b, "%s\t%x\t%q\n", opts.name(), h.Sum(nil)[:12], goldenTexts[i])
		}
	}
	path := filepath.Join("testdata", "vectors.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Fatalf("the vectors changed:\n%s\nwant:\n%s", got, want)
	}
}

// tableSum hashes every part of the table the embedder reads.
func tableSum(t *model.Table) []byte {
	h := sha256.New()
	u32 := func(v int) { _ = binary.Write(h, binary.LittleEndian, uint32(v)) }
	u32(t.Dim)
	u32(t.NgramMin)
	u32(t.NgramMax)
	u32(t.Buckets)
	for _, w := range t.Words {
		h.Write([]byte(w + "\n"))
	}
	_ = binary.Write(h, binary.LittleEndian, t.Ranks)
	writeFloats(h, t.WordScale)
	h.Write(t.WordVec)
	writeFloats(h, []float32{t.BucketScale, t.OOVNorm})
	h.Write(t.BucketVec)
	for _, c := range t.Components {
		writeFloats(h, c)
	}
	writeFloats(h, t.Mean)
	return h.Sum(nil)
}

func writeFloats(h hash.Hash, v []float32) {
	var buf [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(x))
		h.Write(buf[:])
	}
}
