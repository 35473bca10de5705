package embedding

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/engine/embedding/internal/model"
)

func builtin(t testing.TB) *Builtin {
	t.Helper()
	b, err := NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func semantic(t testing.TB) *Builtin {
	t.Helper()
	b, err := semanticBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func cos(b *Builtin, x, y string) float32 { return dot(b.Vector(x), b.Vector(y)) }

// checkVector fails unless v has n finite components and is unit length or
// all zero; it reports whether v is zero.
func checkVector(t testing.TB, v []float32, n int) bool {
	t.Helper()
	if len(v) != n {
		t.Fatalf("vector has %d components, want %d", len(v), n)
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("component %d is %v", i, x)
		}
	}
	l := norm(v)
	if l == 0 {
		return true
	}
	if math.Abs(l-1) > 1e-4 {
		t.Fatalf("length %v, want 1 or 0", l)
	}
	return false
}

func TestBuiltinModelAndDim(t *testing.T) {
	b, s := builtin(t), semantic(t)
	if b.Dim() != 256 || s.Dim() != 100 {
		t.Fatalf("Dim: hybrid %d, semantic %d; want 256 and 100", b.Dim(), s.Dim())
	}
	re := regexp.MustCompile(`^builtin:glove6b-sif-lex-100d-50k-v1-[0-9a-f]{8}$`)
	if !re.MatchString(b.Model()) {
		t.Fatalf("Model %q does not name the table and algorithm", b.Model())
	}
	if s.Model() == b.Model() || !strings.HasPrefix(s.Model(), "builtin:glove6b-sif-100d") {
		t.Fatalf("semantic Model %q must differ from %q", s.Model(), b.Model())
	}
	v, err := NewBuiltinWith(BuiltinOptions{KeepCommon: true})
	if err != nil {
		t.Fatal(err)
	}
	if v.Model() == b.Model() || !strings.Contains(v.Model(), "keepcommon") {
		t.Fatalf("variant Model %q must name its option", v.Model())
	}
	again, _ := NewBuiltin()
	if again != b {
		t.Fatal("NewBuiltin loads a second copy")
	}
}

func TestBuiltinDeterministicAndConcurrent(t *testing.T) {
	b := builtin(t)
	texts := []string{
		"Experimental investigation of the aerodynamics of a wing in a slipstream.",
		"getUserName returned HTTPServer errors in utf8 mode; see snake_case_names.",
		"quokkas and aeroelasticity: unknown words twice, quokkas again",
		"",
		strings.Repeat("pressure distribution on a cone ", 200),
	}
	want, err := b.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got, err := b.Embed(context.Background(), texts)
				if err != nil {
					errs <- err.Error()
					return
				}
				for i := range got {
					if !slices.Equal(got[i], want[i]) {
						errs <- "text " + texts[i][:min(20, len(texts[i]))] + " changed between calls"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	// A fresh builtin with the same options gives the same vectors.
	fresh, err := NewBuiltinWith(BuiltinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if !slices.Equal(fresh.Vector(text), want[i]) {
			t.Fatalf("a second builtin embeds %q differently", text)
		}
	}
}

func TestBuiltinUnitLengthAndEmpty(t *testing.T) {
	for _, b := range []*Builtin{builtin(t), semantic(t)} {
		for _, text := range []string{"", "   \n\t", "!!! ... ---", "12 345 6789", "a x", "wing", "aeroelasticity", "The wing.", "日本語のテキスト", "Ünïcödé wörds ànd àccents"} {
			zero := checkVector(t, b.Vector(text), b.Dim())
			wantZero := strings.Trim(text, " \n\t!.-0123456789ax") == ""
			if zero != wantZero {
				t.Errorf("%s: %q: zero vector %v, want %v", b.Model(), text, zero, wantZero)
			}
		}
	}
}

func TestBuiltinEmbedHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := builtin(t).Embed(ctx, []string{"wing"}); err == nil {
		t.Fatal("Embed ignored a cancelled context")
	}
}

func TestBuiltinSimilarity(t *testing.T) {
	for _, b := range []*Builtin{builtin(t), semantic(t)} {
		for _, c := range []struct{ word, near, far string }{
			{"wing", "airfoil", "banana"},
			{"car", "automobile", "banana"},
			{"aircraft", "airplane", "poetry"},
			{"aeroelasticity", "flutter", "banana"}, // unknown word: n-grams
			{"flutter of aircraft wings at supersonic speed", "aeroelastic vibration of airplane wings", "a recipe for banana bread with walnuts"},
		} {
			near, far := cos(b, c.word, c.near), cos(b, c.word, c.far)
			if near <= far+0.1 {
				t.Errorf("%s: cos(%q, %q) = %.3f, not clearly above cos(%q, %q) = %.3f", b.Model(), c.word, c.near, near, c.word, c.far, far)
			}
		}
	}
	// Exact word matches count more in the default model than in the
	// semantic one.
	if h, s := cos(builtin(t), "wing", "wings"), cos(semantic(t), "wing", "wings"); h <= s {
		t.Errorf("word identity: hybrid %.3f <= semantic %.3f", h, s)
	}
}

func TestBuiltinUnknownWords(t *testing.T) {
	b := semantic(t)
	for _, w := range []string{"aeroelasticity", "quokkas", "hypersonically", "Kubernetes", "wingography"} {
		if b.Known(w) {
			t.Logf("%q is in the table; pick another unknown word", w)
		}
		if checkVector(t, b.Vector(w), b.Dim()) {
			t.Errorf("unknown word %q got the zero vector", w)
		}
	}
	// An inflection of a table word takes that word's vector.
	for _, p := range [][2]string{{"nozzles", "nozzle"}, {"buffeting", "buffet"}} {
		if b.Known(p[0]) {
			continue
		}
		if c := cos(b, p[0], p[1]); c < 0.999 {
			t.Errorf("cos(%q, %q) = %.3f, want the same vector", p[0], p[1], c)
		}
	}
	off, err := NewBuiltinWith(BuiltinOptions{NoLexical: true, NoSubwords: true})
	if err != nil {
		t.Fatal(err)
	}
	if !checkVector(t, off.Vector("aeroelasticity"), off.Dim()) {
		t.Error("with NoSubwords an unknown word should give the zero vector")
	}
}

func TestBuiltinIdentifiers(t *testing.T) {
	b := builtin(t)
	for _, p := range [][2]string{
		{"getUserName", "get user name"},
		{"user_account_balance", "user account balance"},
		{"HTTPServer", "http server"},
		{"WING", "wing"},
	} {
		if c := cos(b, p[0], p[1]); c < 0.999 {
			t.Errorf("cos(%q, %q) = %.4f, want the same vector", p[0], p[1], c)
		}
	}
}

func TestBuiltinStopwordsWeighLittle(t *testing.T) {
	b := semantic(t)
	// Function words barely move a text's vector.
	if c := cos(b, "supersonic wing flutter", "the supersonic wing and the flutter of it"); c < 0.95 {
		t.Errorf("stopwords moved the vector: cos %.3f", c)
	}
}

// TestGoldenVector pins the vector of one sentence. If it fails, the
// algorithm or the table changed: bump algorithmVersion (unless only the
// table changed, whose checksum is in Model) and update the numbers.
func TestGoldenVector(t *testing.T) {
	b := builtin(t)
	v := b.Vector("Pressure distribution on a supersonic wing: quokkas and getUserName.")
	for i, w := range goldenVector {
		if math.Abs(float64(v[i]-w)) > 1e-5 {
			t.Fatalf("vector starts %v, golden %v (model %s)", v[:len(goldenVector)], goldenVector, b.Model())
		}
	}
	for i, w := range goldenLex {
		if math.Abs(float64(v[100+i]-w)) > 1e-5 {
			t.Fatalf("lexical part starts %v, golden %v", v[100:100+len(goldenLex)], goldenLex)
		}
	}
	if m := b.Model(); m != goldenModel {
		t.Fatalf("Model %q, golden %q", m, goldenModel)
	}
}

// The checksum in the table, which Model names, must match its content:
// a table changed by hand or by a broken generator fails here.
func TestTableChecksum(t *testing.T) {
	if !model.Verify(tableData) {
		t.Fatal("the embedded table's checksum does not match its content; regenerate it")
	}
}

// Loading must stay cheap: parsing aliases the embedded bytes, and only
// the word index and per-word coefficients are built.
func TestLoadIsCheap(t *testing.T) {
	start := time.Now()
	tb, err := parseTable()
	if err != nil {
		t.Fatal(err)
	}
	parsed := time.Since(start)
	if _, err := NewBuiltinWith(BuiltinOptions{}); err != nil {
		t.Fatal(err)
	}
	total := time.Since(start)
	t.Logf("parse %v, parse and set up %v (%d words, %d buckets)", parsed, total, len(tb.Words), tb.Buckets)
	// Generous, for loaded machines and -race; expect about 5 ms.
	if total > 2*time.Second {
		t.Errorf("loading took %v", total)
	}
}

func TestRank(t *testing.T) {
	b := builtin(t)
	the, wing, airfoil := b.Rank("The"), b.Rank("wing"), b.Rank("airfoil")
	if the != 1 || wing <= the || airfoil != 0 {
		t.Fatalf("Rank: the %d, wing %d, airfoil %d; want 1, more, 0 (not in the table)", the, wing, airfoil)
	}
	if b.Rank(strings.Repeat("x", 100)) != 0 || b.Rank("") != 0 {
		t.Fatal("Rank of a non-word is not 0")
	}
}
