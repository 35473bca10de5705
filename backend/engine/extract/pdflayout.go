package extract

import (
	"math"
	"slices"
)

// pdfMatrix is a PDF transformation matrix [a b c d e f].
type pdfMatrix [6]float64

var pdfIdentity = pdfMatrix{1, 0, 0, 1, 0, 0}

// mul returns m × n: m applied first, then n.
func (m pdfMatrix) mul(n pdfMatrix) pdfMatrix {
	return pdfMatrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m pdfMatrix) e() float64 { return m[4] }
func (m pdfMatrix) f() float64 { return m[5] }

// translated is pdfMatrix{1, 0, 0, 1, tx, 0}.mul(m) with mul's sums
// written out, for the text position moves along every shown string. The
// products by 0 stay: they decide the sign of a zero and carry a NaN or
// an infinity exactly as mul's do.
func (m pdfMatrix) translated(tx float64) pdfMatrix {
	return pdfMatrix{
		m[0] + 0*m[2], m[1] + 0*m[3],
		0*m[0] + m[2], 0*m[1] + m[3],
		tx*m[0] + 0*m[2] + m[4], tx*m[1] + 0*m[3] + m[5],
	}
}

// mulEF is the e and f of m.mul(n), computed alone.
func (m pdfMatrix) mulEF(n pdfMatrix) (e, f float64) {
	return m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5]
}

// A page's text is gathered as spans (one per shown string, with where it
// starts and ends on the page) and then read in order: the page is cut
// recursively at blank vertical gutters (columns, left first) and at the
// widest blank horizontal bands (top first), and the pieces left are read
// line by line, a space put where the gap between two spans is wider than
// a narrow space. Text in content-stream order reads two columns
// interleaved, and drops the spaces of producers that place every word
// (or every kerned piece) on its own.

const (
	pdfMaxSpans     = 200000
	pdfMaxSpanBytes = 8 << 20
	pdfMaxCuts      = 400
)

type pdfSpan struct {
	start, end int // the text, in pdfLayout.text
	x0, x1, y  float64
	size       float64
	rotated    bool
}

type pdfLayout struct {
	text  []byte
	spans []pdfSpan
	cuts  int
	// Scratch, kept from page to page so that reading a page allocates
	// little: the page's spans in its orders, and work space for cuts.
	flat, rotated []int
	byX, byTop    []int
	owner         []int32   // the part each span goes to, for split
	grouped, next []int     // split's work space
	parts         [][]int   // bands' answer
	sizes         []float64 // medianSize's work space
	tall          []bool    // gutter's work space
	gaps          []float64 // bands' work space
	byY           []int     // lines' order
	keyed         []spanKey // sortBy's work space
	radix         []radixKey
}

func (l *pdfLayout) full() bool {
	return len(l.spans) >= pdfMaxSpans || len(l.text) >= pdfMaxSpanBytes
}

// add records the text from start on, shown with the text rendering
// matrix trm and ending at (ex, ey).
func (l *pdfLayout) add(start int, trm pdfMatrix, ex, ey float64) {
	if len(l.text) == start {
		return
	}
	size := math.Hypot(trm[2], trm[3])
	if size < 0.01 || math.IsNaN(size) || math.IsInf(size, 0) {
		size = 1
	}
	sp := pdfSpan{start: start, end: len(l.text), x0: trm.e(), x1: ex, y: trm.f(), size: size}
	sp.rotated = math.Abs(trm[1]) > math.Abs(trm[0]) || trm[0] < 0 || math.Abs(ey-sp.y) > size/2
	if sp.x1 < sp.x0 {
		sp.x0, sp.x1 = sp.x1, sp.x0
	}
	l.spans = append(l.spans, sp)
}

func (s *pdfSpan) top() float64    { return s.y + 0.75*s.size }
func (s *pdfSpan) bottom() float64 { return s.y - 0.2*s.size }

// write puts the page's text into out in reading order and forgets it.
func (l *pdfLayout) write(out *sink) {
	flat, rotated := l.flat[:0], l.rotated[:0]
	for i := range l.spans {
		if l.spans[i].rotated {
			rotated = append(rotated, i)
		} else {
			flat = append(flat, i)
		}
	}
	l.flat, l.rotated = flat, rotated
	l.cuts = 0
	l.cut(out, l.block(flat))
	for _, i := range rotated {
		out.Write(l.text[l.spans[i].start:l.spans[i].end])
		out.nl()
	}
	l.text, l.spans = l.text[:0], l.spans[:0]
}

// pdfBlock is a block's spans in content-stream order, and when known the
// same spans by x0 and by top (highest first), each then by content-stream
// order. The page is sorted once: a cut regroups its block's orders in
// place, each part's spans together and in the order they had (split), so
// that the parts' orders are slices of their parent's.
type pdfBlock struct{ idx, byX, byTop []int }

// block sorts the page's spans. The orders are kept only when no key is
// NaN: a NaN compares equal to everything, and then regrouping a sorted
// block need not give what sorting its part would.
func (l *pdfLayout) block(idx []int) pdfBlock {
	for _, i := range idx {
		if s := &l.spans[i]; math.IsNaN(s.x0) || math.IsNaN(s.top()) {
			return pdfBlock{idx: idx}
		}
	}
	l.byX = l.sortBy(l.byX, idx, spanX)
	l.byTop = l.sortBy(l.byTop, idx, spanTop)
	return pdfBlock{idx: idx, byX: l.byX, byTop: l.byTop}
}

func spanX(s *pdfSpan) float64   { return s.x0 }
func spanTop(s *pdfSpan) float64 { return -s.top() }
func spanY(s *pdfSpan) float64   { return -s.y }

// split divides b into parts, which between them hold each of its spans
// once, and returns the parts as blocks. It reorders b's slices.
func (l *pdfLayout) split(b pdfBlock, parts ...[]int) []pdfBlock {
	if len(l.owner) < len(l.spans) {
		l.owner = make([]int32, len(l.spans))
	}
	starts := make([]int, len(parts)+1)
	for k, p := range parts {
		for _, i := range p {
			l.owner[i] = int32(k)
		}
		starts[k+1] = starts[k] + len(p)
	}
	// Regroup after every owner is set: parts may be slices of b's orders.
	l.regroup(b.idx, starts)
	if b.byX != nil {
		l.regroup(b.byX, starts)
		l.regroup(b.byTop, starts)
	}
	blocks := make([]pdfBlock, len(parts))
	for k := range parts {
		from, to := starts[k], starts[k+1]
		blocks[k].idx = b.idx[from:to:to]
		if b.byX != nil {
			blocks[k].byX, blocks[k].byTop = b.byX[from:to:to], b.byTop[from:to:to]
		}
	}
	return blocks
}

// regroup stably reorders order by owner: part k's spans go from starts[k].
func (l *pdfLayout) regroup(order, starts []int) {
	l.grouped = slices.Grow(l.grouped[:0], len(order))[:len(order)]
	next := append(l.next[:0], starts[:len(starts)-1]...)
	l.next = next
	for _, i := range order {
		k := l.owner[i]
		l.grouped[next[k]] = i
		next[k]++
	}
	copy(order, l.grouped)
}

// cut reads a block of spans: split at a gutter or a blank band when there
// is one, else line by line.
func (l *pdfLayout) cut(out *sink, b pdfBlock) {
	if len(b.idx) == 0 {
		return
	}
	if l.cuts < pdfMaxCuts && len(b.idx) > 1 {
		l.cuts++
		em := l.medianSize(b.idx)
		if left, right := l.gutter(b, em); left != nil {
			for _, p := range l.split(b, left, right) {
				l.cut(out, p)
			}
			return
		}
		if parts := l.bands(b, em); parts != nil {
			for _, p := range l.split(b, parts...) {
				l.cut(out, p)
			}
			return
		}
	}
	l.lines(out, b.idx)
}

// medianSize is the median of the spans' sizes (the upper one of an even
// count).
func (l *pdfLayout) medianSize(idx []int) float64 {
	sizes := slices.Grow(l.sizes[:0], len(idx))
	for _, i := range idx {
		sizes = append(sizes, l.spans[i].size)
	}
	l.sizes = sizes
	return nthSmallest(sizes, len(sizes)/2)
}

// nthSmallest returns what sorting v would put at v[n], reordering v:
// quickselect, which sorts only the side that holds n. Sizes are never
// NaN, so the value is the same whichever way ties fall.
func nthSmallest(v []float64, n int) float64 {
	for rounds := 0; len(v) > 12; rounds++ {
		if rounds > 64 { // a pathological order: sort what is left
			break
		}
		// Median of three as the pivot, then a three-way partition.
		a, b, c := v[0], v[len(v)/2], v[len(v)-1]
		pivot := max(min(a, b), min(max(a, b), c))
		lt, i, gt := 0, 0, len(v)
		for i < gt {
			switch x := v[i]; {
			case x < pivot:
				v[lt], v[i] = v[i], v[lt]
				lt++
				i++
			case x > pivot:
				gt--
				v[gt], v[i] = v[i], v[gt]
			default:
				i++
			}
		}
		switch {
		case n < lt:
			v = v[:lt]
		case n >= gt:
			v, n = v[gt:], n-gt
		default:
			return pivot
		}
	}
	slices.Sort(v)
	return v[n]
}

// gutter finds a blank vertical strip at least 1.5 em wide with text at
// least 4 em wide on each side, and splits the block there.
func (l *pdfLayout) gutter(b pdfBlock, em float64) (left, right []int) {
	byX := b.byX
	if byX == nil {
		byX = l.sortBy(nil, b.idx, spanX)
	}
	minX := l.spans[byX[0]].x0
	reach := l.spans[byX[0]].x1
	maxX := reach
	for _, i := range byX {
		maxX = max(maxX, l.spans[i].x1)
	}
	// A column has lines; a lone line is read left to right anyway. So
	// each side of a gutter must be tall: its baselines spread more than
	// half an em. tallFrom[k] tells it for byX[k:]; lo and hi follow
	// byX[:k] along the loop.
	tallFrom := slices.Grow(l.tall[:0], len(byX))[:len(byX)]
	l.tall = tallFrom
	lo, hi := l.spans[byX[len(byX)-1]].y, l.spans[byX[len(byX)-1]].y
	for k := len(byX) - 1; k >= 0; k-- {
		lo, hi = min(lo, l.spans[byX[k]].y), max(hi, l.spans[byX[k]].y)
		tallFrom[k] = hi-lo > em/2
	}
	lo, hi = l.spans[byX[0]].y, l.spans[byX[0]].y
	for k := 1; k < len(byX); k++ {
		s := &l.spans[byX[k]]
		lo, hi = min(lo, l.spans[byX[k-1]].y), max(hi, l.spans[byX[k-1]].y)
		if s.x0-reach >= 1.5*em && reach-minX >= 4*em && maxX-s.x0 >= 4*em &&
			hi-lo > em/2 && tallFrom[k] {
			return byX[:k], byX[k:]
		}
		reach = max(reach, s.x1)
	}
	return nil, nil
}

// bands splits the block at its widest blank horizontal bands.
func (l *pdfLayout) bands(b pdfBlock, em float64) [][]int {
	byY := b.byTop
	if byY == nil {
		byY = l.sortBy(nil, b.idx, spanTop)
	}
	gaps := slices.Grow(l.gaps[:0], len(byY))[:len(byY)]
	clear(gaps)
	l.gaps = gaps
	low := l.spans[byY[0]].bottom()
	widest := 0.0
	for k := 1; k < len(byY); k++ {
		s := &l.spans[byY[k]]
		if g := low - s.top(); g > 0.05*em {
			gaps[k] = g
			widest = max(widest, g)
		}
		low = min(low, s.bottom())
	}
	if widest == 0 {
		return nil
	}
	parts := l.parts[:0] // split is done with them before the next cut
	from := 0
	for k := 1; k < len(byY); k++ {
		if gaps[k] >= 0.9*widest {
			parts = append(parts, byY[from:k])
			from = k
		}
	}
	parts = append(parts, byY[from:])
	l.parts = parts
	return parts
}

// spanKey is a span's index with the key it is sorted by.
type spanKey struct {
	key float64
	i   int
}

// pdfRadixMin is the fewest spans sorted by radix: below it the counting
// passes cost more than they save.
const pdfRadixMin = 64

// sortBy returns the spans of idx ordered by key, then by content-stream
// order, in dst's storage. Sorting is most of the layout's work: when idx
// is in content-stream order (it always is) and no key is NaN, a stable
// radix sort of the keys gives that order; otherwise a comparison sort
// does, with the keys beside the indexes rather than behind them.
func (l *pdfLayout) sortBy(dst, idx []int, key func(*pdfSpan) float64) []int {
	out := slices.Grow(dst[:0], len(idx))[:len(idx)]
	if len(idx) >= pdfRadixMin && l.radixSort(out, idx, key) {
		return out
	}
	keyed := slices.Grow(l.keyed[:0], len(idx))[:len(idx)]
	l.keyed = keyed
	for k, i := range idx {
		keyed[k] = spanKey{key(&l.spans[i]), i}
	}
	slices.SortFunc(keyed, func(a, b spanKey) int { return cmpThen(a.key, b.key, a.i, b.i) })
	for k, s := range keyed {
		out[k] = s.i
	}
	return out
}

// radixKey is a span's index with its key's bits, ordered as the key.
type radixKey struct {
	bits uint64
	i    int
}

// radixSort puts the spans of idx into out by key, a byte of the key's
// bits at a time from the lowest; it says false, having done nothing
// useful, when idx is not in content-stream order or a key is NaN.
func (l *pdfLayout) radixSort(out, idx []int, key func(*pdfSpan) float64) bool {
	keys := slices.Grow(l.radix[:0], 2*len(idx))[:2*len(idx)]
	l.radix = keys
	keys, spare := keys[:len(idx)], keys[len(idx):]
	var differ uint64 // the bits in which some keys differ
	for k, i := range idx {
		f := key(&l.spans[i])
		if math.IsNaN(f) || k > 0 && i <= idx[k-1] {
			return false
		}
		keys[k] = radixKey{orderedBits(f), i}
		differ |= keys[k].bits ^ keys[0].bits
	}
	var at [256]int
	for shift := 0; shift < 64; shift += 8 {
		if byte(differ>>shift) == 0 {
			continue // every key has the same byte here
		}
		clear(at[:])
		for _, k := range keys {
			at[byte(k.bits>>shift)]++
		}
		sum := 0
		for b, n := range at {
			at[b] = sum
			sum += n
		}
		for _, k := range keys {
			b := byte(k.bits >> shift)
			spare[at[b]] = k
			at[b]++
		}
		keys, spare = spare, keys
	}
	for k, s := range keys {
		out[k] = s.i
	}
	return true
}

// orderedBits maps a float that is not NaN to bits whose unsigned order is
// the float's order; -0 and 0 map alike, as they compare equal.
func orderedBits(f float64) uint64 {
	if f == 0 {
		return 1 << 63
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// lines reads a block without gutters or bands: spans whose baselines are
// within half a line of each other form a line, read left to right.
func (l *pdfLayout) lines(out *sink, idx []int) {
	byY := l.sortBy(l.byY, idx, spanY)
	l.byY = byY
	for from := 0; from < len(byY); {
		first := &l.spans[byY[from]]
		to := from + 1
		for to < len(byY) && first.y-l.spans[byY[to]].y < 0.5*min(first.size, l.spans[byY[to]].size) {
			to++
		}
		line := byY[from:to]
		slices.SortFunc(line, func(a, b int) int { return cmpThen(l.spans[a].x0, l.spans[b].x0, a, b) })
		var prev *pdfSpan
		for _, i := range line {
			s := &l.spans[i]
			text := l.text[s.start:s.end]
			if prev != nil && s.x0-prev.x1 > 0.15*min(s.size, prev.size) && out.last() != ' ' && (len(text) == 0 || text[0] != ' ') {
				out.WriteString(" ")
			}
			out.Write(text)
			prev = s
		}
		out.nl()
		from = to
	}
}

// cmpThen orders by a key, then by content-stream order: as stable as a
// stable sort, and faster.
func cmpThen(x, y float64, a, b int) int {
	if c := cmpFloat(x, y); c != 0 {
		return c
	}
	return a - b
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
