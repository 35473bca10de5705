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
	text   []byte
	spans  []pdfSpan
	cuts   int
	member []bool    // scratch for subset, all false between calls
	keyed  []spanKey // scratch for sortBy
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
	var flat, rotated []int
	for i := range l.spans {
		if l.spans[i].rotated {
			rotated = append(rotated, i)
		} else {
			flat = append(flat, i)
		}
	}
	l.cuts = 0
	l.cut(out, l.block(flat))
	for _, i := range rotated {
		out.WriteString(string(l.text[l.spans[i].start:l.spans[i].end]))
		out.nl()
	}
	l.text, l.spans = l.text[:0], l.spans[:0]
}

// pdfBlock is a block's spans in content-stream order, and when known the
// same spans by x0 and by top (highest first), each then by content-stream
// order. A part of a block filters its parent's orders, so that a page is
// sorted once rather than at every cut.
type pdfBlock struct{ idx, byX, byTop []int }

// block sorts the page's spans. The orders are passed down only when no
// key is NaN: a NaN compares equal to everything, and then filtering a
// sorted block need not give what sorting its part would.
func (l *pdfLayout) block(idx []int) pdfBlock {
	for _, i := range idx {
		if s := &l.spans[i]; math.IsNaN(s.x0) || math.IsNaN(s.top()) {
			return pdfBlock{idx: idx}
		}
	}
	return pdfBlock{idx: idx, byX: l.sortBy(idx, spanX), byTop: l.sortBy(idx, spanTop)}
}

func spanX(s *pdfSpan) float64   { return s.x0 }
func spanTop(s *pdfSpan) float64 { return -s.top() }

// part is the block of the spans in members.
func (l *pdfLayout) part(b pdfBlock, members []int) pdfBlock {
	p := pdfBlock{idx: l.subset(b.idx, members)}
	if b.byX != nil {
		p.byX, p.byTop = l.subset(b.byX, members), l.subset(b.byTop, members)
	}
	return p
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
			l.cut(out, l.part(b, left))
			l.cut(out, l.part(b, right))
			return
		}
		if parts := l.bands(b, em); parts != nil {
			for _, p := range parts {
				l.cut(out, l.part(b, p))
			}
			return
		}
	}
	l.lines(out, b.idx)
}

func (l *pdfLayout) medianSize(idx []int) float64 {
	sizes := make([]float64, len(idx))
	for k, i := range idx {
		sizes[k] = l.spans[i].size
	}
	slices.Sort(sizes)
	return sizes[len(sizes)/2]
}

// gutter finds a blank vertical strip at least 1.5 em wide with text at
// least 4 em wide on each side, and splits the block there.
func (l *pdfLayout) gutter(b pdfBlock, em float64) (left, right []int) {
	byX := b.byX
	if byX == nil {
		byX = l.sortBy(b.idx, spanX)
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
	tallFrom := make([]bool, len(byX))
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
		byY = l.sortBy(b.idx, spanTop)
	}
	gaps := make([]float64, len(byY))
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
	var parts [][]int
	from := 0
	for k := 1; k < len(byY); k++ {
		if gaps[k] >= 0.9*widest {
			parts = append(parts, byY[from:k])
			from = k
		}
	}
	return append(parts, byY[from:])
}

// spanKey is a span's index with the key it is sorted by.
type spanKey struct {
	key float64
	i   int
}

// sortBy returns the spans of idx ordered by key, then by content-stream
// order. The keys sit beside the indexes, not behind them: sorting is most
// of the layout's work.
func (l *pdfLayout) sortBy(idx []int, key func(*pdfSpan) float64) []int {
	keyed := slices.Grow(l.keyed[:0], len(idx))[:len(idx)]
	l.keyed = keyed
	for k, i := range idx {
		keyed[k] = spanKey{key(&l.spans[i]), i}
	}
	slices.SortFunc(keyed, func(a, b spanKey) int { return cmpThen(a.key, b.key, a.i, b.i) })
	out := make([]int, len(idx))
	for k, s := range keyed {
		out[k] = s.i
	}
	return out
}

// subset returns the spans of part in the order they have in idx.
func (l *pdfLayout) subset(idx, part []int) []int {
	if len(l.member) < len(l.spans) {
		l.member = make([]bool, len(l.spans))
	}
	for _, i := range part {
		l.member[i] = true
	}
	out := make([]int, 0, len(part))
	for _, i := range idx {
		if l.member[i] {
			out = append(out, i)
			l.member[i] = false
		}
	}
	return out
}

// lines reads a block without gutters or bands: spans whose baselines are
// within half a line of each other form a line, read left to right.
func (l *pdfLayout) lines(out *sink, idx []int) {
	byY := l.sortBy(idx, func(s *pdfSpan) float64 { return -s.y })
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
