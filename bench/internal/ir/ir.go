// Package ir holds what the ranking benchmarks share: BEIR-format test
// collections, the measures (nDCG, recall, MRR), and the split-half check
// with its bootstrap confidence interval.
package ir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"trove/bench/internal/harness"
)

// Doc is one document of a collection.
type Doc struct{ ID, Title, Text string }

// Query is one query of a collection.
type Query struct{ ID, Text string }

// Collection is a BEIR-format test collection: corpus.jsonl, queries.jsonl
// and qrels.tsv in one folder.
type Collection struct {
	Name    string
	Docs    []Doc
	Queries []Query // only the judged ones, in file order
	Qrels   map[string]map[string]float64
}

// Load reads a collection folder.
func Load(dir string) (*Collection, error) {
	c := &Collection{Name: filepath.Base(dir), Qrels: map[string]map[string]float64{}}
	err := eachLine(filepath.Join(dir, "corpus.jsonl"), func(line []byte) error {
		var d struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		c.Docs = append(c.Docs, Doc{d.ID, d.Title, d.Text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	header := true
	err = eachLine(filepath.Join(dir, "qrels.tsv"), func(line []byte) error {
		if header {
			header = false
			return nil
		}
		f := strings.Split(string(line), "\t")
		if len(f) < 3 {
			return fmt.Errorf("qrels line %q", line)
		}
		score, err := strconv.ParseFloat(f[2], 64)
		if err != nil || score <= 0 {
			return err
		}
		if c.Qrels[f[0]] == nil {
			c.Qrels[f[0]] = map[string]float64{}
		}
		c.Qrels[f[0]][f[1]] = score
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachLine(filepath.Join(dir, "queries.jsonl"), func(line []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		if len(c.Qrels[q.ID]) > 0 {
			c.Queries = append(c.Queries, Query{q.ID, q.Text})
		}
		return nil
	})
	return c, err
}

// Collections lists the collection folders under root (those with a
// corpus.jsonl), sorted by name.
func Collections(root string) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(root, "*", "corpus.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		out = append(out, filepath.Dir(m))
	}
	sort.Strings(out)
	return out, nil
}

func eachLine(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			if err := fn(sc.Bytes()); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	return sc.Err()
}

// Measures of one ranked list (document ids, best first) against graded
// judgments; binary measures count any positive grade as relevant.

// NDCG is nDCG@k with linear gain.
func NDCG(ranked []string, rel map[string]float64, k int) float64 {
	dcg := 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		dcg += rel[id] / math.Log2(float64(i)+2)
	}
	ideal := make([]float64, 0, len(rel))
	for _, g := range rel {
		ideal = append(ideal, g)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
	idcg := 0.0
	for i, g := range ideal[:min(k, len(ideal))] {
		idcg += g / math.Log2(float64(i)+2)
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall is Recall@k.
func Recall(ranked []string, rel map[string]float64, k int) float64 {
	if len(rel) == 0 {
		return 0
	}
	hit := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(rel))
}

// RR is the reciprocal rank of the first relevant document within k.
func RR(ranked []string, rel map[string]float64, k int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Scores are one system's measures per query, in the collection's query
// order.
type Scores struct {
	NDCG, Recall, RR []float64
}

// Add measures one ranked list.
func (s *Scores) Add(ranked []string, rel map[string]float64) {
	s.NDCG = append(s.NDCG, NDCG(ranked, rel, 10))
	s.Recall = append(s.Recall, Recall(ranked, rel, 100))
	s.RR = append(s.RR, RR(ranked, rel, 10))
}

// Mean of xs.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Half returns the values at odd (1st, 3rd, ...) or even (2nd, 4th, ...)
// positions: the split-half check chooses on the odd queries and reports
// on the even ones.
func Half(xs []float64, odd bool) []float64 {
	var out []float64
	for i, x := range xs {
		if (i%2 == 0) == odd {
			out = append(out, x)
		}
	}
	return out
}

// RatioCI is a paired bootstrap 95% interval of mean(a)/mean(b) over the
// same queries (resampled together), seeded so a run repeats.
func RatioCI(a, b []float64, rounds int, seed uint64) (lo, hi float64) {
	if len(a) == 0 || len(a) != len(b) {
		return math.NaN(), math.NaN()
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	ratios := make([]float64, rounds)
	for i := range ratios {
		sa, sb := 0.0, 0.0
		for range a {
			j := r.IntN(len(a))
			sa += a[j]
			sb += b[j]
		}
		if sb == 0 {
			ratios[i] = math.Inf(1)
		} else {
			ratios[i] = sa / sb
		}
	}
	sort.Float64s(ratios)
	return ratios[int(0.025*float64(rounds))], ratios[int(0.975*float64(rounds))-1]
}

// DiffCI is a paired bootstrap 95% interval of mean(a - b).
func DiffCI(a, b []float64, rounds int, seed uint64) (lo, hi float64) {
	if len(a) == 0 || len(a) != len(b) {
		return math.NaN(), math.NaN()
	}
	r := rand.New(rand.NewPCG(seed, 0xd1ff))
	diffs := make([]float64, rounds)
	for i := range diffs {
		s := 0.0
		for range a {
			j := r.IntN(len(a))
			s += a[j] - b[j]
		}
		diffs[i] = s / float64(len(a))
	}
	sort.Float64s(diffs)
	return diffs[int(0.025*float64(rounds))], diffs[int(0.975*float64(rounds))-1]
}

// SharedDir finds the project's shared folder (datasets, benchmark corpus
// scripts): the first "shared" folder beside the checkout or one of its
// parents.
func SharedDir() string {
	dir, _ := os.Getwd()
	for {
		if st, err := os.Stat(filepath.Join(dir, "..", "shared", "datasets")); err == nil && st.IsDir() {
			return filepath.Clean(filepath.Join(dir, "..", "shared"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "../shared"
		}
		dir = parent
	}
}

// CorpusFlags are the flags of the benchmarks that run on the benchmark
// corpus and its queries: -files, -corpus and -shared.
type CorpusFlags struct {
	files       *int
	dir, shared *string
}

// NewCorpusFlags defines the corpus flags on the command line.
func NewCorpusFlags() CorpusFlags {
	return CorpusFlags{
		files:  flag.Int("files", 20000, "approximate corpus size"),
		dir:    flag.String("corpus", "", "the corpus folder (default /var/tmp/trove-corpus-FILES; built with make-corpus.sh)"),
		shared: flag.String("shared", SharedDir(), "the shared folder with bench/make-corpus.sh and bench/queries.txt"),
	}
}

// Files is the corpus size asked for.
func (c CorpusFlags) Files() int { return *c.files }

// Build makes the corpus the flags name with make-corpus.sh (which does
// nothing when it is there already) and returns its folder, the queries of
// bench/queries.txt and the shared folder, absolute.
func (c CorpusFlags) Build() (corpus string, queries []string, shared string) {
	shared, _ = filepath.Abs(*c.shared)
	corpus = *c.dir
	if corpus == "" {
		corpus = fmt.Sprintf("/var/tmp/trove-corpus-%d", *c.files)
	}
	harness.Run("bash", filepath.Join(shared, "bench", "make-corpus.sh"), corpus, strconv.Itoa(*c.files))
	return corpus, harness.ReadLines(filepath.Join(shared, "bench", "queries.txt")), shared
}
