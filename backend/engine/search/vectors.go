package search

import (
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"trove/backend/engine/vecquant"
	"trove/backend/store"
)

// Vectors is the in-memory index of passage vectors for semantic search. It
// holds int8 components (exact re-ranking) and their sign bits (a Hamming
// first pass that is ~100x cheaper), row by row, and follows the store's
// commits so it never drifts from the index.
//
// Search on more than exactRows rows is two-pass: Hamming distance on sign
// bits over every row picks the closest candidates, then int8 dot products
// rank those exactly. Smaller indexes are ranked exactly outright.
type Vectors struct {
	mu    sync.RWMutex
	model string
	dim   int
	words int // uint64 words of sign bits per row

	comps []int8   // row-major, dim per row
	signs []uint64 // row-major, words per row
	scale []float32
	file  []int64
	ord   []int32
	rows  map[int64][]int32 // file id -> its rows
	// gen counts the changes: a search kept for reuse names the vectors
	// it saw by it.
	gen atomic.Uint64
}

// Generation changes whenever the vectors do.
func (v *Vectors) Generation() uint64 {
	if v == nil {
		return 0
	}
	return v.gen.Load()
}

// exactRows is where the index switches to the two-pass search.
const exactRows = 50_000

// NewVectors returns an empty index for vectors of model.
func NewVectors(model string) *Vectors {
	return &Vectors{model: model, rows: map[int64][]int32{}}
}

// Model is the embedding model whose vectors the index holds.
func (v *Vectors) Model() string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.model
}

// Reset empties the index for another model.
func (v *Vectors) Reset(model string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.gen.Add(1)
	v.model, v.dim, v.words = model, 0, 0
	v.comps, v.signs, v.scale, v.file, v.ord = nil, nil, nil, nil, nil
	v.rows = map[int64][]int32{}
}

// Len is the number of passage vectors held.
func (v *Vectors) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.file)
}

// Indexed implements store.Observer: a file's passages were (re)written.
func (v *Vectors) Indexed(files []store.Indexed) {
	v.mu.Lock()
	defer v.mu.Unlock()
	defer v.gen.Add(1)
	for _, f := range files {
		v.removeLocked(f.ID)
		if f.EmbedModel != v.model {
			continue
		}
		for ord, raw := range f.Vecs {
			v.addLocked(f.ID, int32(ord), raw)
		}
	}
}

// Removed implements store.Observer: files left the index.
func (v *Vectors) Removed(ids []int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	defer v.gen.Add(1)
	for _, id := range ids {
		v.removeLocked(id)
	}
}

// Add loads one stored passage vector (used when starting up).
func (v *Vectors) Add(fileID int64, ord int32, raw []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	defer v.gen.Add(1)
	v.addLocked(fileID, ord, raw)
}

func (v *Vectors) addLocked(fileID int64, ord int32, raw []byte) {
	scale, comps, ok := vecquant.Decode(raw)
	if !ok || len(comps) == 0 {
		return
	}
	if v.dim == 0 {
		v.dim, v.words = len(comps), (len(comps)+63)/64
	}
	if len(comps) != v.dim {
		return // a vector of another shape: ignore it rather than corrupt the rows
	}
	row := int32(len(v.file))
	v.comps = append(v.comps, comps...)
	v.signs = append(v.signs, signBits(comps, v.words)...)
	v.scale = append(v.scale, scale)
	v.file = append(v.file, fileID)
	v.ord = append(v.ord, ord)
	v.rows[fileID] = append(v.rows[fileID], row)
}

// removeLocked drops a file's rows, filling each hole with the last row so
// the arrays stay dense.
func (v *Vectors) removeLocked(fileID int64) {
	rows := slices.Clone(v.rows[fileID])
	delete(v.rows, fileID)
	slices.Sort(rows)
	for i := len(rows) - 1; i >= 0; i-- { // from the end, so moved rows are never ones still to delete
		v.moveLast(rows[i])
	}
}

// moveLast moves the last row into row r and shrinks the arrays by one.
func (v *Vectors) moveLast(r int32) {
	last := int32(len(v.file) - 1)
	if r != last {
		d, w := v.dim, v.words
		copy(v.comps[int(r)*d:int(r+1)*d], v.comps[int(last)*d:])
		copy(v.signs[int(r)*w:int(r+1)*w], v.signs[int(last)*w:])
		v.scale[r], v.file[r], v.ord[r] = v.scale[last], v.file[last], v.ord[last]
		moved := v.rows[v.file[r]]
		for i, x := range moved {
			if x == last {
				moved[i] = r
			}
		}
	}
	v.comps = v.comps[:int(last)*v.dim]
	v.signs = v.signs[:int(last)*v.words]
	v.scale, v.file, v.ord = v.scale[:last], v.file[:last], v.ord[:last]
}

func signBits(comps []int8, words int) []uint64 {
	out := make([]uint64, words)
	for i, c := range comps {
		if c > 0 {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out
}

// Match is a file's best passage for a query vector.
type Match struct {
	FileID     int64
	Ord        int32   // the passage
	Similarity float64 // cosine, -1 to 1
}

// queryVec is a query prepared for one search.
type queryVec struct {
	comps []int8
	signs []uint64
	scale float32
}

func (v *Vectors) prepare(q []float32) (queryVec, bool) {
	if len(q) != v.dim || v.dim == 0 {
		return queryVec{}, false
	}
	scale, comps, ok := vecquant.Decode(vecquant.Encode(q))
	if !ok || scale == 0 {
		return queryVec{}, false
	}
	return queryVec{comps: comps, signs: signBits(comps, v.words), scale: scale}, true
}

func (v *Vectors) similarity(q queryVec, row int32) float64 {
	d := v.dim
	return float64(q.scale*v.scale[row]) * float64(vecquant.Dot(q.comps, v.comps[int(row)*d:int(row+1)*d]))
}

// Search returns up to k files whose passages are closest to q, each with
// its best passage, most similar first.
func (v *Vectors) Search(q []float32, k int) []Match {
	v.mu.RLock()
	defer v.mu.RUnlock()
	qv, ok := v.prepare(q)
	if !ok || k <= 0 {
		return nil
	}
	best := map[int64]Match{}
	consider := func(row int32) {
		sim := v.similarity(qv, row)
		if m, ok := best[v.file[row]]; !ok || sim > m.Similarity {
			best[v.file[row]] = Match{FileID: v.file[row], Ord: v.ord[row], Similarity: sim}
		}
	}
	if len(v.file) <= exactRows {
		for r := range v.file {
			consider(int32(r))
		}
	} else {
		for _, r := range v.nearestBySigns(qv, max(4*k, 2000)) {
			consider(r)
		}
	}
	out := make([]Match, 0, len(best))
	for _, m := range best {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b Match) int {
		if a.Similarity != b.Similarity {
			if a.Similarity > b.Similarity {
				return -1
			}
			return 1
		}
		return int(a.FileID - b.FileID)
	})
	return out[:min(k, len(out))]
}

// nearestBySigns returns at least n rows with the smallest Hamming distance
// to the query's sign bits (all rows at the cut-off distance included).
func (v *Vectors) nearestBySigns(q queryVec, n int) []int32 {
	dist := v.distances(q)
	var hist [257]int
	for _, d := range dist {
		hist[d]++
	}
	cut, seen := 0, 0
	for ; cut < len(hist); cut++ {
		if seen += hist[cut]; seen >= n {
			break
		}
	}
	out := make([]int32, 0, seen)
	for r, d := range dist {
		if int(d) <= cut {
			out = append(out, int32(r))
		}
	}
	return out
}

// bestCompared is how many of a file's passages Best compares exactly: those
// nearest by sign bits.
const bestCompared = 4

// Best returns each given file's closest passage to q (files without
// vectors are absent). All of a file's passages count, however the file
// was found, so its semantic score does not depend on that: the bestCompared
// nearest by sign bits (a popcount each) are compared exactly. Every
// ranked file's similarity comes from here.
func (v *Vectors) Best(q []float32, files []int64) map[int64]Match {
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := make(map[int64]Match, len(files))
	qv, ok := v.prepare(q)
	if !ok {
		return out
	}
	var near [bestCompared]int32
	var dist [bestCompared]int
	for _, f := range files {
		rows := v.rows[f]
		if len(rows) > bestCompared {
			n := 0
			for _, r := range rows {
				d := v.hamming(qv, r)
				if n < bestCompared {
					near[n], dist[n] = r, d
					n++
					continue
				}
				worst := 0
				for i := 1; i < n; i++ {
					if dist[i] > dist[worst] || dist[i] == dist[worst] && near[i] > near[worst] {
						worst = i
					}
				}
				if d < dist[worst] {
					near[worst], dist[worst] = r, d
				}
			}
			rows = near[:n]
		}
		for _, r := range rows {
			sim := v.similarity(qv, r)
			if m, ok := out[f]; !ok || sim > m.Similarity || sim == m.Similarity && v.ord[r] < m.Ord {
				out[f] = Match{FileID: f, Ord: v.ord[r], Similarity: sim}
			}
		}
	}
	return out
}

// distances returns every row's Hamming distance to the query's sign bits
// (at most 255). This walk over all rows is most of a search's time in
// memory, so the default model's four words a row have a loop of their
// own, without a call or bounds check per row.
func (v *Vectors) distances(q queryVec) []uint8 {
	dist := make([]uint8, len(v.file))
	if v.words == 4 {
		q0, q1, q2, q3 := q.signs[0], q.signs[1], q.signs[2], q.signs[3]
		signs := v.signs[:len(dist)*4]
		for r := range dist {
			s := signs[r*4 : r*4+4 : r*4+4]
			dist[r] = uint8(min(bits.OnesCount64(s[0]^q0)+bits.OnesCount64(s[1]^q1)+
				bits.OnesCount64(s[2]^q2)+bits.OnesCount64(s[3]^q3), 255))
		}
		return dist
	}
	for r := range dist {
		dist[r] = uint8(min(v.hamming(q, int32(r)), 255))
	}
	return dist
}

// hamming is the number of sign bits in which row r differs from q.
func (v *Vectors) hamming(q queryVec, r int32) int {
	d := 0
	for i, x := range v.signs[int(r)*v.words : int(r+1)*v.words] {
		d += bits.OnesCount64(x ^ q.signs[i])
	}
	return d
}

// Distance turns a cosine similarity into the distance of the spec's
// semantic_score = exp(-distance): the Euclidean distance between unit
// vectors, sqrt(2 - 2 cos), from 0 (same direction) to 2 (opposite).
func Distance(similarity float64) float64 {
	return math.Sqrt(max(0, 2-2*similarity))
}

// Centroid returns the mean of the given passages' vectors (as unit-scaled
// float32), for moving a query toward its best matches; nil when none of
// them has a vector.
func (v *Vectors) Centroid(passages []Match) []float32 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.dim == 0 {
		return nil
	}
	sum := make([]float32, v.dim)
	n := 0
	for _, m := range passages {
		for _, r := range v.rows[m.FileID] {
			if v.ord[r] != m.Ord {
				continue
			}
			comps := v.comps[int(r)*v.dim : int(r+1)*v.dim]
			for i, c := range comps {
				sum[i] += v.scale[r] * float32(c)
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	for i := range sum {
		sum[i] /= float32(n)
	}
	return sum
}
