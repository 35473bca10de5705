package extract

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refWrite reads a page the plain way the layout is defined: every block
// of a cut is sorted afresh, its median size taken from a full sort, and
// each part listed in content-stream order. write must give the same text
// while sorting the page once and working in place.
func (l *pdfLayout) refWrite(out *sink) {
	var flat, rotated []int
	for i := range l.spans {
		if l.spans[i].rotated {
			rotated = append(rotated, i)
		} else {
			flat = append(flat, i)
		}
	}
	cuts := 0
	l.refCut(out, flat, &cuts)
	for _, i := range rotated {
		out.WriteString(string(l.text[l.spans[i].start:l.spans[i].end]))
		out.nl()
	}
	l.text, l.spans = l.text[:0], l.spans[:0]
}

func (l *pdfLayout) refCut(out *sink, idx []int, cuts *int) {
	if len(idx) == 0 {
		return
	}
	inOrder := func(part []int) []int { return slices.Sorted(slices.Values(part)) }
	if *cuts < pdfMaxCuts && len(idx) > 1 {
		*cuts++
		var sizes []float64
		for _, i := range idx {
			sizes = append(sizes, l.spans[i].size)
		}
		slices.Sort(sizes)
		em := sizes[len(sizes)/2]
		// Blocks without orders make gutter and bands sort for themselves.
		if left, right := l.gutter(pdfBlock{idx: idx}, em); left != nil {
			left, right = inOrder(left), inOrder(right)
			l.refCut(out, left, cuts)
			l.refCut(out, right, cuts)
			return
		}
		if parts := l.bands(pdfBlock{idx: idx}, em); parts != nil {
			var ordered [][]int
			for _, p := range parts {
				ordered = append(ordered, inOrder(p))
			}
			for _, p := range ordered {
				l.refCut(out, p, cuts)
			}
			return
		}
	}
	l.lines(out, slices.Clone(idx))
}

// randomPage fills l with a page of spans: columns of lines with headings,
// paragraph gaps, sizes that differ, words out of content order, and now
// and then a rotated span, a span at the same place as another or (with
// nan) a position that is not a number.
func randomPage(l *pdfLayout, r *rand.Rand, nan bool) {
	columns := 1 + r.IntN(3)
	lines := 1 + r.IntN(60)
	words := 1 + r.IntN(8)
	n := 0
	for c := range columns {
		y := 760.0
		for range lines {
			size := []float64{9, 10, 10, 10, 12, 18}[r.IntN(6)]
			x := 40 + float64(c)*190 + r.Float64()*3
			for range 1 + r.IntN(words) {
				start := len(l.text)
				l.text = fmt.Appendf(l.text, "w%d", n)
				n++
				width := float64(1+r.IntN(8)) * size / 2
				trm := pdfMatrix{size, 0, 0, size, x, y + r.Float64()*size*0.3}
				switch k := r.IntN(100); {
				case k < 3:
					trm = pdfMatrix{0, size, -size, 0, x, y}
				case k < 6 && len(l.spans) > 0:
					s := l.spans[r.IntN(len(l.spans))]
					trm[4], trm[5] = s.x0, s.y
				case k < 7 && nan:
					trm[4+r.IntN(2)] = math.NaN()
				}
				l.add(start, trm, trm[4]+width, trm[5])
				x += width + []float64{0, 1, 3, 8}[r.IntN(4)]
			}
			y -= size * (1.1 + []float64{0, 0, 0, 0.3, 1.5}[r.IntN(5)])
		}
	}
	// Content order need not be reading order: shuffle a few spans.
	for range r.IntN(len(l.spans) + 1) {
		i, j := r.IntN(len(l.spans)), r.IntN(len(l.spans))
		l.spans[i], l.spans[j] = l.spans[j], l.spans[i]
	}
}

// TestPDFLayoutMatchesPlainReading checks write against refWrite on
// random pages, one layout reused from page to page as a document does.
func TestPDFLayoutMatchesPlainReading(t *testing.T) {
	var fast, plain pdfLayout
	for seed := range uint64(200) {
		nan := seed%10 == 9
		randomPage(&fast, rand.New(rand.NewPCG(seed, 1)), nan)
		randomPage(&plain, rand.New(rand.NewPCG(seed, 1)), nan)
		got, want := newSink(1<<20), newSink(1<<20)
		fast.write(got)
		plain.refWrite(want)
		if got.String() != want.String() {
			t.Fatalf("seed %d: the page reads\n%s\nbut read plainly it is\n%s", seed, got.String(), want.String())
		}
		if want.String() == "" {
			t.Fatalf("seed %d: empty page", seed)
		}
	}
}

// TestPDFLayoutManyCuts reads a page of more blocks than pdfMaxCuts allows
// to cut: past the limit, blocks are read line by line, in both readings.
func TestPDFLayoutManyCuts(t *testing.T) {
	var fast, plain pdfLayout
	for _, l := range []*pdfLayout{&fast, &plain} {
		for k := range 3 * pdfMaxCuts {
			start := len(l.text)
			l.text = fmt.Appendf(l.text, "line%d", k)
			y := 10000 - float64(k)*(20+float64(k%3))
			l.add(start, pdfMatrix{10, 0, 0, 10, 50, y}, 90, y)
		}
	}
	got, want := newSink(1<<20), newSink(1<<20)
	fast.write(got)
	plain.refWrite(want)
	if got.String() != want.String() {
		t.Fatalf("the page reads\n%.500s\nbut read plainly it is\n%.500s", got.String(), want.String())
	}
}

func TestNthSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 500 {
		v := make([]float64, r.IntN(200)+1)
		for i := range v {
			v[i] = float64(r.IntN(1 + r.IntN(40)))
		}
		sorted := slices.Sorted(slices.Values(v))
		n := r.IntN(len(v))
		if got := nthSmallest(slices.Clone(v), n); got != sorted[n] {
			t.Fatalf("nthSmallest(%v, %d) = %v, want %v", v, n, got, sorted[n])
		}
	}
}

// TestPDFSortByKeyThenContentOrder checks sortBy, radix sort included,
// against a stable comparison sort: ties (0 and -0 among them) keep
// content-stream order, infinities sort at the ends.
func TestPDFSortByKeyThenContentOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 72, 72.5, 1e-300, -1e300, math.Inf(1), math.Inf(-1), 540.25}
	var l pdfLayout
	for range 300 {
		n := r.IntN(3 * pdfRadixMin)
		l.spans = l.spans[:0]
		for range n {
			x := values[r.IntN(len(values))]
			if r.IntN(2) == 0 {
				x = r.Float64()*1000 - 100
			}
			l.spans = append(l.spans, pdfSpan{x0: x})
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		want := slices.Clone(idx)
		slices.SortStableFunc(want, func(a, b int) int { return cmpFloat(l.spans[a].x0, l.spans[b].x0) })
		if got := l.sortBy(nil, idx, spanX); !slices.Equal(got, want) {
			t.Fatalf("sortBy of %d spans gives %v, want %v", n, got, want)
		}
	}
}

// TestPDFMatrixShortcuts checks translated and mulEF against mul bit for
// bit, signed zeros, infinities and NaN among the entries.
func TestPDFMatrixShortcuts(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 3e300, math.Inf(1), math.Inf(-1), math.NaN()}
	r := rand.New(rand.NewPCG(9, 9))
	pick := func() float64 {
		if r.IntN(2) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64() * 100
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for range 20000 {
		var m, n pdfMatrix
		for i := range m {
			m[i], n[i] = pick(), pick()
		}
		tx := pick()
		want, got := pdfMatrix{1, 0, 0, 1, tx, 0}.mul(m), m.translated(tx)
		for i := range want {
			if !same(got[i], want[i]) {
				t.Fatalf("%v.translated(%v) = %v, mul gives %v", m, tx, got, want)
			}
		}
		full := m.mul(n)
		if e, f := m.mulEF(n); !same(e, full.e()) || !same(f, full.f()) {
			t.Fatalf("%v.mulEF(%v) = %v %v, mul gives %v", m, n, e, f, full)
		}
	}
}
