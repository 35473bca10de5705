package embedding

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"strings"
	"sync"

	"trove/backend/engine/embedding/internal/model"
)

// The table is generated from GloVe 6B 100-d vectors (see NOTICE) by
// internal/gen; `go generate ./backend/embedding` rebuilds it (it needs npm
// and about 2 GB of memory), keeping the identity its vectors are known by
// (see model.Table.Identity): drop -id when they change.
//
//go:generate go run ./internal/gen -out data/glove6b100d.bin -id 52a29009
//go:embed data/glove6b100d.bin
var tableData string

// algorithmVersion names the text-to-vector algorithm. Change it whenever
// the vectors Embed returns change for reasons other than the table (whose
// identity is part of Model anyway); TestGoldenVector fails as a reminder.
const algorithmVersion = "v1"

// Builtin model names accepted in EmbeddingSettings.Model.
const (
	// BuiltinHybrid is the default: 100 semantic dimensions (SIF-weighted
	// GloVe) followed by 156 dimensions that hash word identities, so that
	// exact word matches count more than mere relatedness.
	BuiltinHybrid = "glove6b-sif-lex"
	// BuiltinSemantic is the 100 semantic dimensions alone.
	BuiltinSemantic = "glove6b-sif"
)

// defaultLexicalDims is the number of word-identity dimensions of the
// default model, making 256 in all.
const defaultLexicalDims = 156

// Weighting chooses how much each word counts in a text's vector.
type Weighting int

const (
	// WeightSIF is the smooth inverse frequency a/(a+p(w)), with p(w)
	// estimated from the word's frequency rank by Zipf's law.
	WeightSIF Weighting = iota
	// WeightIDF is log(1/p(w)), an IDF-like weight.
	WeightIDF
	// WeightNone counts every word the same.
	WeightNone
)

// BuiltinOptions vary the builtin model, for measuring what each part
// brings. The zero value is the default model.
type BuiltinOptions struct {
	Weighting Weighting
	// SIFA replaces the SIF parameter a (default 1e-3).
	SIFA float64
	// KeepCommon keeps the common component of SIF averages.
	KeepCommon bool
	// RemoveExtra removes this many further principal directions (at most
	// 3).
	RemoveExtra int
	// NoSubwords drops unknown words instead of building their vectors
	// from character n-grams.
	NoSubwords bool
	// NoInflections treats unknown inflected forms ("nozzles") as unknown
	// words instead of taking the table word they inflect ("nozzle").
	NoInflections bool
	// UnitWords normalises word vectors before weighting them.
	UnitWords bool
	// NoLexical leaves out the word-identity dimensions: the vector is the
	// semantic part alone.
	NoLexical bool
	// LexicalDims replaces the number of word-identity dimensions (default
	// 156).
	LexicalDims int
	// LexicalShare is the share of the squared length that goes to the
	// word-identity dimensions when the text has words (default 0.5).
	LexicalShare float64
}

func (o BuiltinOptions) name() string {
	base := BuiltinHybrid
	if o.NoLexical {
		base = BuiltinSemantic
	}
	var parts []string
	switch o.Weighting {
	case WeightIDF:
		parts = append(parts, "idf")
	case WeightNone:
		parts = append(parts, "flat")
	}
	if o.SIFA != 0 {
		parts = append(parts, fmt.Sprintf("a=%g", o.SIFA))
	}
	if o.KeepCommon {
		parts = append(parts, "keepcommon")
	}
	if o.RemoveExtra != 0 {
		parts = append(parts, fmt.Sprintf("remove+%d", o.RemoveExtra))
	}
	if o.NoSubwords {
		parts = append(parts, "nosubwords")
	}
	if o.NoInflections {
		parts = append(parts, "noinflections")
	}
	if o.UnitWords {
		parts = append(parts, "unitwords")
	}
	if !o.NoLexical && o.LexicalDims != 0 {
		parts = append(parts, fmt.Sprintf("lex%d", o.LexicalDims))
	}
	if !o.NoLexical && o.LexicalShare != 0 {
		parts = append(parts, fmt.Sprintf("share=%g", o.LexicalShare))
	}
	if len(parts) == 0 {
		return base
	}
	return base + "+" + strings.Join(parts, "+")
}

// table is the parsed embedded table with its word index, shared by every
// Builtin.
type table struct {
	*model.Table
	index *wordIndex
}

var loadTable = sync.OnceValues(parseTable)

// parseTable parses the embedded table and indexes its words.
func parseTable() (*table, error) {
	t, err := model.Parse(tableData)
	if err != nil {
		return nil, fmt.Errorf("builtin embedding table: %w", err)
	}
	if len(t.Words) == 0 || len(t.Components) == 0 {
		return nil, fmt.Errorf("builtin embedding table: no words or no common component")
	}
	return &table{Table: t, index: newWordIndex(t.Words)}, nil
}

// Builtin is the offline embedder. A text's vector has two parts:
//
//   - semantic: the SIF-weighted sum of its words' GloVe vectors (words
//     outside the table get a vector from their character n-grams), minus
//     its projection on the common component of such sums;
//   - lexical: a signed feature hash of its words (plural "s" stripped),
//     weighted the same way with sublinear term frequency, so that texts
//     sharing rare words are closer than texts on merely related topics.
//
// Each part is normalised and they share the unit length (half each by
// default). It is safe for concurrent use.
type Builtin struct {
	t       *table
	opts    BuiltinOptions
	model   string
	lexDims int
	share   float32 // squared length given to the lexical part

	coef      []float32 // per word: weight times quantisation scale
	weight    []float32 // per word: weight
	oovCoef   float32   // weight of an unknown word times the OOV norm
	oovWeight float32
	lexSlot   []uint16 // per word: its lexical component and sign
	remove    [][]float32
	scratch   sync.Pool

	oovMu    sync.RWMutex
	oovCache map[string][]float32
}

var defaultBuiltin = sync.OnceValues(func() (*Builtin, error) { return NewBuiltinWith(BuiltinOptions{}) })

// NewBuiltin returns the default builtin embedder, loaded once.
func NewBuiltin() (*Builtin, error) { return defaultBuiltin() }

var semanticBuiltin = sync.OnceValues(func() (*Builtin, error) { return NewBuiltinWith(BuiltinOptions{NoLexical: true}) })

// NewBuiltinWith returns a variant of the builtin model (see
// BuiltinOptions); its Model names the variant.
func NewBuiltinWith(opts BuiltinOptions) (*Builtin, error) {
	t, err := loadTable()
	if err != nil {
		return nil, err
	}
	b := &Builtin{t: t, opts: opts, oovCache: map[string][]float32{}}
	b.model = fmt.Sprintf("builtin:%s-%dd-%dk-%s-%08x", opts.name(), t.Dim, len(t.Words)/1000, algorithmVersion, t.Identity())
	if !opts.NoLexical {
		b.lexDims = defaultLexicalDims
		if opts.LexicalDims > 0 {
			b.lexDims = min(opts.LexicalDims, 1<<15)
		}
		b.share = 0.5
		if opts.LexicalShare > 0 && opts.LexicalShare < 1 {
			b.share = float32(opts.LexicalShare)
		}
	}
	a := model.SIFA
	if opts.SIFA > 0 {
		a = opts.SIFA
	}
	weight := func(rank uint32) float64 {
		p := model.Prob(rank)
		switch opts.Weighting {
		case WeightIDF:
			return math.Log(1 / p)
		case WeightNone:
			return 1
		}
		return a / (a + p)
	}
	n := len(t.Words)
	b.coef = make([]float32, n)
	b.weight = make([]float32, n)
	for i := range n {
		w := weight(t.Ranks[i])
		c := w * float64(t.WordScale[i])
		if opts.UnitWords {
			c /= rowNorm(t.WordRow(i)[:t.Dim], t.WordScale[i])
		}
		b.coef[i] = float32(c)
		b.weight[i] = float32(w)
	}
	// Unknown words are rarer than every table word.
	oovRank := t.Ranks[n-1] + 1
	b.oovWeight = float32(weight(oovRank))
	b.oovCoef = b.oovWeight * t.OOVNorm
	if opts.UnitWords {
		b.oovCoef = b.oovWeight
	}
	if b.lexDims > 0 {
		b.lexSlot = make([]uint16, n)
		for i, w := range t.Words {
			b.lexSlot[i] = b.slotOf(w)
		}
	}
	if !opts.KeepCommon {
		b.remove = append(b.remove, t.Components[0])
	}
	b.remove = append(b.remove, t.Components[1:1+min(max(opts.RemoveExtra, 0), len(t.Components)-1)]...)
	b.scratch.New = func() any { return newScratch(n, t.Dim, t.Stride()) }
	return b, nil
}

func rowNorm(row []byte, scale float32) float64 {
	var s float64
	for _, c := range row {
		x := float64(int(c) - model.Bias)
		s += x * x
	}
	if s == 0 {
		return 1
	}
	return math.Sqrt(s) * float64(scale)
}

// Model implements Embedder.
func (b *Builtin) Model() string { return b.model }

// Dim implements Embedder.
func (b *Builtin) Dim() int { return b.t.Dim + b.lexDims }

// Embed implements Embedder. A text without words gets the zero vector.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = b.Vector(text)
	}
	return out, nil
}

// scratch is per-call working memory.
type scratch struct {
	count   []float32      // per word: occurrences in the text
	touched []int32        // words with a non-zero count
	oov     map[string]int // unknown word -> index in oovWords
	oovWord []string       // in order of first appearance
	oovN    []float32      // occurrences
	buf     []byte
	stem    []byte
	sub     []float32
	subSum  rowSum
	words   *levelSums
}

func newScratch(words, dim, stride int) *scratch {
	return &scratch{
		count:  make([]float32, words),
		oov:    map[string]int{},
		sub:    make([]float32, dim),
		subSum: newRowSum(stride),
		words:  newLevelSums(stride),
	}
}

func (s *scratch) add(id int32) {
	if s.count[id] == 0 {
		s.touched = append(s.touched, id)
	}
	s.count[id]++
}

// count tallies the words of text: table words by index, others by their
// lower-case form. A run of letters and digits is looked up whole first
// ("iphone", "mp3"), then split as an identifier ("getUserName"; "snake_case"
// is two runs already); numbers outside the table are dropped.
func (b *Builtin) count(s *scratch, text string) {
	scan(text, func(run string) {
		if len(run) > maxTokenBytes {
			return
		}
		var h uint64
		s.buf, h = lowerHash(s.buf[:0], run)
		if id, ok := b.t.index.lookup(s.buf, h); ok {
			s.add(id)
			return
		}
		whole := true
		splitRun(run, func(part string) {
			if len(part) == len(run) {
				return
			}
			whole = false
			var h uint64
			s.buf, h = lowerHash(s.buf[:0], part)
			b.unknown(s, part, h)
		})
		if whole {
			b.unknown(s, run, h)
		}
	})
}

// unknown counts the token in s.buf (lower-case, hash h): a table word, a
// table word under an inflection ("nozzles" as "nozzle", "ionized" as
// "ionize"), or an unknown word.
func (b *Builtin) unknown(s *scratch, orig string, h uint64) {
	idx := b.t.index
	if id, ok := idx.lookup(s.buf, h); ok {
		s.add(id)
		return
	}
	// The table lacks numbers and one- and two-letter tokens, which say
	// little ("a", "x", "km"): they are left out.
	if len(s.buf) < 3 || digitsOnly(orig) {
		return
	}
	if !b.opts.NoInflections {
		if id, ok := b.inflected(s, s.buf); ok {
			s.add(id)
			return
		}
	}
	if i, ok := s.oov[string(s.buf)]; ok {
		s.oovN[i]++
		return
	}
	w := string(s.buf)
	s.oov[w] = len(s.oovWord)
	s.oovWord = append(s.oovWord, w)
	s.oovN = append(s.oovN, 1)
}

// suffixes are English inflections and derivations tried, in order, on
// words outside the table: the word minus the suffix plus the replacement.
var suffixes = []struct{ suffix, repl string }{
	{"ies", "y"}, {"s", ""}, {"es", ""},
	{"ied", "y"}, {"ed", ""}, {"ed", "e"}, {"ing", ""}, {"ing", "e"},
	{"ally", "al"}, {"ically", "ic"}, {"ly", ""}, {"ness", ""},
}

func (b *Builtin) inflected(s *scratch, w []byte) (int32, bool) {
	for _, sf := range suffixes {
		n := len(w) - len(sf.suffix)
		if n < 3 || string(w[n:]) != sf.suffix {
			continue
		}
		s.stem = append(append(s.stem[:0], w[:n]...), sf.repl...)
		if id, ok := b.t.index.lookup(s.stem, hashBytes(s.stem)); ok {
			return id, true
		}
	}
	return -1, false
}

// Vector embeds one text: a unit vector of Dim components, or zeros when
// the text has no words.
func (b *Builtin) Vector(text string) []float32 {
	s := b.scratch.Get().(*scratch)
	defer b.scratch.Put(s)
	b.count(s, text)
	t := b.t
	dim := t.Dim
	out := make([]float32, b.Dim())
	sem, lex := out[:dim], out[dim:]

	for _, id := range s.touched {
		n := s.count[id]
		s.words.add(sem, t.WordRow(int(id)), n*b.coef[id])
		if len(lex) > 0 {
			lexAdd(lex, b.lexSlot[id], b.weight[id]*tf(n))
		}
		s.count[id] = 0
	}
	s.touched = s.touched[:0]
	s.words.flush(sem)
	// In order of appearance, so that sums are always made in one order.
	for i, w := range s.oovWord {
		n := s.oovN[i]
		if !b.opts.NoSubwords {
			axpy(sem, b.oovVector(w, s), n*b.oovCoef)
		}
		if len(lex) > 0 {
			lexAdd(lex, b.slotOf(w), b.oovWeight*tf(n))
		}
	}
	clear(s.oov)
	s.oovWord, s.oovN = s.oovWord[:0], s.oovN[:0]

	for _, u := range b.remove {
		axpy(sem, u, -dot(sem, u))
	}
	semOK := normalize(sem)
	lexOK := normalize(lex)
	if semOK && lexOK {
		scale(sem, float32(math.Sqrt(float64(1-b.share))))
		scale(lex, float32(math.Sqrt(float64(b.share))))
	}
	return out
}

// tf damps repeated words in the lexical part: 1 + ln(n).
func tf(n float32) float32 {
	if i := int(n); i < len(tfTable) {
		return tfTable[i]
	}
	return 1 + float32(math.Log(float64(n)))
}

var tfTable = func() (t [64]float32) {
	for i := 1; i < len(t); i++ {
		t[i] = 1 + float32(math.Log(float64(i)))
	}
	return t
}()

// lexHash hashes the lexical key of a lower-case word: the word without a
// plural "s".
func lexHash(w string) uint64 {
	if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' && w[len(w)-2] != 'u' {
		w = w[:len(w)-1]
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h ^= uint64(w[i])
		h *= 1099511628211
	}
	return splitmix(h)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// slotOf picks the lexical component of a lower-case word (bits 1 and up)
// and its sign (bit 0): a signed feature hash, whose dot products estimate
// those of the bags of words.
func (b *Builtin) slotOf(w string) uint16 {
	h := lexHash(w)
	return uint16((h>>1)%uint64(b.lexDims))<<1 | uint16(h&1)
}

// lexAdd adds ±c to the component of slot.
func lexAdd(lex []float32, slot uint16, c float32) {
	if slot&1 != 0 {
		lex[slot>>1] += c
	} else {
		lex[slot>>1] -= c
	}
}

// oovCacheSize bounds the unknown words whose vectors are kept: names and
// jargon recur across the chunks and files of a collection.
const oovCacheSize = 2048

// oovVector returns the unit vector that character n-grams give the
// unknown word w (or zeros), from the cache or computed into s.sub.
func (b *Builtin) oovVector(w string, s *scratch) []float32 {
	b.oovMu.RLock()
	v, ok := b.oovCache[w]
	b.oovMu.RUnlock()
	if ok {
		return v
	}
	b.subword(w, &s.subSum, s.sub)
	v = append([]float32(nil), s.sub...)
	b.oovMu.Lock()
	if len(b.oovCache) >= oovCacheSize {
		clear(b.oovCache)
	}
	b.oovCache[w] = v
	b.oovMu.Unlock()
	return v
}

// subword writes to dst the unit vector that character n-grams give word,
// or zeros; sum is scratch space.
func (b *Builtin) subword(word string, sum *rowSum, dst []float32) {
	t := b.t
	clear(dst)
	model.Subwords(word, t.NgramMin, t.NgramMax, t.Buckets, func(k int) {
		if sum.n == maxRows {
			sum.flush(dst, 1)
		}
		sum.add(t.BucketRow(k))
	})
	sum.flush(dst, 1)
	normalize(dst)
}

// normalize scales v to unit length and reports true, or zeroes it and
// reports false when it is (nearly) zero or not finite.
func normalize(v []float32) bool {
	n := math.Sqrt(float64(dot(v, v)))
	if n < 1e-9 || math.IsNaN(n) || math.IsInf(n, 0) {
		clear(v)
		return false
	}
	scale(v, float32(1/n))
	return true
}

func scale(v []float32, c float32) {
	for j := range v {
		v[j] *= c
	}
}

func axpy(acc, v []float32, c float32) {
	v = v[:len(acc)]
	for j := range acc {
		acc[j] += c * v[j]
	}
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

// Rank returns the frequency rank of word (case-insensitive) in the corpus
// the vectors were trained on (1 = most frequent), or 0 when the word is
// not in the table. Frequent words make poor expansions: they have many
// close neighbours.
func (b *Builtin) Rank(word string) int {
	if len(word) > maxTokenBytes {
		return 0
	}
	var buf [2 * maxTokenBytes]byte
	id, ok := b.t.index.lookup(lowerHash(buf[:0], word))
	if !ok {
		return 0
	}
	return int(b.t.Ranks[id])
}

// Known reports whether word (case-insensitive) is in the table.
func (b *Builtin) Known(word string) bool {
	if len(word) > maxTokenBytes {
		return false
	}
	var buf [2 * maxTokenBytes]byte
	_, ok := b.t.index.lookup(lowerHash(buf[:0], word))
	return ok
}
