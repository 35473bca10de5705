package enrich

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"trove/backend/store/tokens"
)

// wordInfo is one distinct lower-case surface word.
type wordInfo struct {
	w     string
	stem  int32 // index into stems; -1 when the word can never be a keyword
	tf    int32
	prior float64 // IDF estimated from general English
}

// stemInfo gathers the surface words that share a Porter stem.
type stemInfo struct {
	tf      int32
	rep     int32 // the word shown for the stem: its most frequent surface form
	first   int32 // position of the first occurrence, in content tokens
	heading bool  // occurs in the title or a heading
	idf     float64
}

// bigram is a pair of adjacent content words (no stop word or punctuation
// between them), counted by stems.
type bigram struct {
	a, b  int32 // word ids of the first occurrence
	count int32
}

// sentence is a summary candidate.
type sentence struct {
	unit     int32 // index into the segmenter's units
	from, to int32 // its distinct stems: analyzer.sentStems[from:to]
	rank     int32 // order among candidates
}

// analyzer holds the per-document working state; it is pooled so that
// its maps and slices are reused from file to file.
type analyzer struct {
	seg       segmenter
	words     map[string]int32
	winfo     []wordInfo
	stemIDs   map[string]int32
	stems     []stemInfo
	bigramIDs map[uint64]int32
	bigrams   []bigram
	sentStems []int32
	sents     []sentence
	scratch   []int32
	lower     []byte
	tokens    int32 // content tokens seen
	code      bool  // source code: split camelCase, skip language keywords
	matrix    []float32
	scores    []float64
	next      []float64
	rowSum    []float64
	cands     []kwCand
}

func newAnalyzer() *analyzer {
	return &analyzer{
		words:     make(map[string]int32, 1024),
		stemIDs:   make(map[string]int32, 1024),
		bigramIDs: make(map[uint64]int32, 256),
	}
}

func (a *analyzer) reset(code bool) {
	a.seg.reset()
	clear(a.words)
	clear(a.stemIDs)
	clear(a.bigramIDs)
	a.winfo = a.winfo[:0]
	a.stems = a.stems[:0]
	a.bigrams = a.bigrams[:0]
	a.sentStems = a.sentStems[:0]
	a.sents = a.sents[:0]
	a.tokens = 0
	a.code = code
	a.cands = a.cands[:0]
}

// scan counts the words of one piece of text. With collect set, the
// distinct stems are left in a.scratch (sorted) for sentence similarity.
func (a *analyzer) scan(text string, heading, collect bool) {
	a.scratch = a.scratch[:0]
	prev, prevWord := int32(-1), int32(-1)
	for i := 0; i < len(text); {
		c := text[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' && text[j] != '\r' {
			j++
		}
		chunk := text[i:j]
		i = j
		if urlish(chunk) {
			prev = -1
			continue
		}
		prev, prevWord = a.scanChunk(chunk, prev, prevWord, heading, collect)
	}
	if collect && len(a.scratch) > 1 {
		slices.Sort(a.scratch)
		a.scratch = slices.Compact(a.scratch)
	}
}

// scanChunk reads the words of one white-space separated chunk. prev is
// the stem of the content word just before (or -1 if the run was broken);
// it returns the same for the chunk's end.
func (a *analyzer) scanChunk(chunk string, prev, prevWord int32, heading, collect bool) (int32, int32) {
	start := -1
	upper := true
	emit := func(end int) {
		if start < 0 {
			return
		}
		s, w := a.word(chunk[start:end], upper, heading, collect)
		if s >= 0 && prev >= 0 && s != prev {
			key := uint64(prev)<<32 | uint64(uint32(s))
			if id, ok := a.bigramIDs[key]; ok {
				a.bigrams[id].count++
			} else {
				a.bigramIDs[key] = int32(len(a.bigrams))
				a.bigrams = append(a.bigrams, bigram{a: prevWord, b: w, count: 1})
			}
		}
		prev, prevWord = s, w
		start, upper = -1, true
	}
	var last rune
	for i := 0; i < len(chunk); {
		r, n := rune(chunk[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(chunk[i:])
		}
		letter := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') || r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsLetter(r)
		digit := r >= '0' && r <= '9'
		switch {
		case letter || digit:
			if a.code && start >= 0 && r < utf8.RuneSelf && last < utf8.RuneSelf {
				// camelCase: fooBar, HTTPServer.
				isUp := r >= 'A' && r <= 'Z'
				lastLow := last >= 'a' && last <= 'z' || last >= '0' && last <= '9'
				lastUp := last >= 'A' && last <= 'Z'
				if isUp && lastLow || isUp && lastUp && i+1 < len(chunk) && chunk[i+1] >= 'a' && chunk[i+1] <= 'z' && i-start > 1 {
					emit(i)
				}
			}
			if start < 0 {
				start = i
			}
			if letter && !unicode.IsUpper(r) {
				upper = false
			}
		case (r == '\'' || r == '’') && start >= 0 && i+n < len(chunk) && isLetterByte(chunk[i+n]):
			// an apostrophe inside a word: keep going
		case r == '-' && !a.code:
			emit(i) // a hyphen splits the word but keeps the phrase
		default:
			emit(i)
			prev = -1
		}
		last = r
		i += n
	}
	emit(len(chunk))
	return prev, prevWord
}

// word records one token and returns its stem and word ids (-1, id for
// words that cannot be keywords).
func (a *analyzer) word(tok string, upper, heading, collect bool) (int32, int32) {
	// Lower-case into a reusable buffer; non-ASCII words go through the
	// Unicode tables.
	a.lower = a.lower[:0]
	ascii := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		a.lower = append(a.lower, c)
	}
	if !ascii {
		a.lower = append(a.lower[:0], strings.ToLower(tok)...)
	}
	lw := a.lower
	if n := len(lw); n > 2 && lw[n-2] == '\'' && lw[n-1] == 's' {
		lw = lw[:n-2]
	} else if n > 4 && string(lw[n-4:]) == "’s" {
		lw = lw[:n-4]
	}
	id, ok := a.words[string(lw)]
	if !ok {
		// Listed words reuse the list's strings and precomputed stems.
		var w, sw string
		prior := unknownIDF
		if e, listed := lookupWord(lw); listed {
			w, sw, prior = e.word, e.stem, e.idf
		} else {
			w = string(lw)
		}
		id = int32(len(a.winfo))
		a.words[w] = id
		st := int32(-1)
		if a.candidate(w, upper) {
			if sw == "" {
				sw = tokens.Stem(w)
			}
			var found bool
			if st, found = a.stemIDs[sw]; !found {
				st = int32(len(a.stems))
				a.stemIDs[sw] = st
				a.stems = append(a.stems, stemInfo{rep: id, first: a.tokens})
			}
		}
		a.winfo = append(a.winfo, wordInfo{w: w, stem: st, prior: prior})
	}
	wi := &a.winfo[id]
	wi.tf++
	if wi.stem < 0 {
		return -1, id
	}
	s := &a.stems[wi.stem]
	s.tf++
	a.tokens++
	if heading {
		s.heading = true
	}
	if collect {
		a.scratch = append(a.scratch, wi.stem)
	}
	return wi.stem, id
}

// candidate reports whether a lower-case word may be a keyword.
func (a *analyzer) candidate(w string, upper bool) bool {
	n, letters, digits := 0, 0, 0
	for _, r := range w {
		n++
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '\'' || r == '’':
			return false
		default:
			letters++
		}
	}
	if letters == 0 || n > 30 || w[0] >= '0' && w[0] <= '9' {
		return false
	}
	if n < 3 && !(n == 2 && upper && digits == 0) {
		return false
	}
	if digits > 0 && (n > 6 || digits > 2*letters) {
		return false // hashes, ids, version strings
	}
	if stopwords[w] || foreignStopwords[w] || a.code && codeStopwords[w] {
		return false
	}
	return true
}

var urlTLDs = set("com org net io dev edu gov co uk de fr html htm php asp aspx jsp info biz me app")

// urlish reports chunks that are links, e-mail addresses, domains or
// paths: their pieces are not words of the text.
func urlish(c string) bool {
	if len(c) < 4 {
		return false
	}
	special := false
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case ':', '/', '\\', '@', '.':
			special = true
		}
	}
	if !special {
		return false
	}
	if strings.Contains(c, "://") || strings.HasPrefix(c, "www.") || strings.HasPrefix(c, "(www.") ||
		strings.Contains(c, "\\") || strings.Count(c, "/") >= 2 {
		return true
	}
	if at := strings.IndexByte(c, '@'); at > 0 && at < len(c)-1 && isLetterByte(c[at-1]) && isLetterByte(c[at+1]) {
		return true
	}
	t := strings.TrimRight(c, ".,;:!?)]}\"'>")
	if d := strings.LastIndexByte(t, '.'); d > 0 && d < len(t)-1 && isLetterByte(t[d-1]) {
		return urlTLDs[strings.ToLower(t[d+1:])]
	}
	return false
}

// finishWords picks each stem's shown word.
func (a *analyzer) finishWords() {
	for id := range a.winfo {
		w := &a.winfo[id]
		if w.stem < 0 {
			continue
		}
		s := &a.stems[w.stem]
		r := &a.winfo[s.rep]
		if w.tf > r.tf || w.tf == r.tf && (len(w.w) < len(r.w) || len(w.w) == len(r.w) && w.w < r.w) {
			s.rep = int32(id)
		}
	}
}

// kwCand is a keyword candidate: a stem or a pair of stems.
type kwCand struct {
	s1, s2 int32 // s2 < 0 for a single word
	b      int32 // bigram index for a pair
	score  float64
}

const (
	maxKeywords   = 10
	minKeywords   = 5
	maxStatsWords = 60
)

// tfWeights[n] is 1+ln(n), the sublinear weight of a term seen n times.
var tfWeights = func() (t [64]float64) {
	for i := 1; i < len(t); i++ {
		t[i] = 1 + math.Log(float64(i))
	}
	return t
}()

func (a *analyzer) tfWeight(tf int32) float64 {
	if tf < int32(len(tfWeights)) {
		return tfWeights[max(tf, 1)]
	}
	return 1 + math.Log(float64(tf))
}

// unigramScore is a word's TF-IDF with small boosts for words in the
// title or headings and for words that appear early.
func (a *analyzer) unigramScore(st int32) float64 {
	s := &a.stems[st]
	sc := a.tfWeight(s.tf) * s.idf
	if s.heading {
		sc *= 1.4
	}
	if a.tokens > 50 && s.first < a.tokens/10 {
		sc *= 1.1
	}
	if len(a.winfo[s.rep].w) <= 3 {
		sc *= 0.85
	}
	return sc
}

func (a *analyzer) bigramScore(bi int32) float64 {
	b := &a.bigrams[bi]
	s1, s2 := &a.stems[a.winfo[b.a].stem], &a.stems[a.winfo[b.b].stem]
	sc := a.tfWeight(b.count) * (s1.idf + s2.idf) * 0.7
	if s1.heading && s2.heading {
		sc *= 1.4
	}
	return sc
}

// statsWords chooses the words whose document frequencies are asked for:
// the best candidates by the static prior.
func (a *analyzer) statsWords() []string {
	for i := range a.stems {
		a.stems[i].idf = a.winfo[a.stems[i].rep].prior
	}
	// The best stems by score, kept sorted in a short list.
	type scored struct {
		i     int32
		score float64
	}
	k := maxStatsWords - 12
	top := make([]scored, 0, k+1)
	for i := range a.stems {
		sc := a.unigramScore(int32(i))
		if len(top) == k && sc <= top[k-1].score {
			continue
		}
		at := len(top)
		for at > 0 && top[at-1].score < sc {
			at--
		}
		top = slices.Insert(top, at, scored{int32(i), sc})
		if len(top) > k {
			top = top[:k]
		}
	}
	order := make([]int32, len(top))
	for i, t := range top {
		order[i] = t.i
	}
	seen := make(map[int32]bool, maxStatsWords)
	var words []string
	add := func(st int32) {
		if len(words) < maxStatsWords && !seen[st] {
			seen[st] = true
			words = append(words, a.winfo[a.stems[st].rep].w)
		}
	}
	for _, st := range order {
		add(st)
	}
	// Words of the most promising pairs.
	for _, bi := range a.topBigrams(6) {
		add(a.winfo[a.bigrams[bi].a].stem)
		add(a.winfo[a.bigrams[bi].b].stem)
	}
	return words
}

func (a *analyzer) topBigrams(n int) []int32 {
	type scored struct {
		i     int32
		score float64
	}
	var all []scored
	for i := range a.bigrams {
		if a.bigrams[i].count >= 2 {
			all = append(all, scored{int32(i), a.bigramScore(int32(i))})
		}
	}
	slices.SortFunc(all, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})
	out := make([]int32, 0, min(len(all), n))
	for _, s := range all[:min(len(all), n)] {
		out = append(out, s.i)
	}
	return out
}

// applyStats blends the index's inverse document frequencies into the
// static prior: the more documents the index has, the more it counts.
func (a *analyzer) applyStats(docs int, df map[string]int) {
	if docs <= 0 {
		return
	}
	wN := float64(docs) / float64(docs+25)
	for i := range a.stems {
		s := &a.stems[i]
		w := a.winfo[s.rep].w
		d, ok := df[w]
		if !ok {
			continue
		}
		d = max(0, min(d, docs))
		idf := math.Log(1 + float64(docs)/float64(d+1))
		s.idf = wN*idf + (1-wN)*s.idf
	}
}

// keywords picks 5-10 keywords: the best words and repeated phrases by
// TF-IDF, at most one keyword per stem.
func (a *analyzer) keywords() []string {
	long := a.tokens > 400
	a.cands = a.cands[:0]
	for i := range a.stems {
		s := &a.stems[i]
		if long && s.tf < 2 && !s.heading {
			continue
		}
		a.cands = append(a.cands, kwCand{s1: int32(i), s2: -1, score: a.unigramScore(int32(i))})
	}
	// A word that mostly occurs in one repeated phrase is shown as that
	// phrase ("insurance" -> "insurance claim").
	phraseOf := make(map[int32]int32, 24)
	for _, bi := range a.topBigrams(12) {
		b := &a.bigrams[bi]
		s1, s2 := a.winfo[b.a].stem, a.winfo[b.b].stem
		a.cands = append(a.cands, kwCand{s1: s1, s2: s2, b: bi, score: a.bigramScore(bi)})
		for _, st := range []int32{s1, s2} {
			if _, ok := phraseOf[st]; !ok && 2*b.count >= a.stems[st].tf {
				phraseOf[st] = bi
			}
		}
	}
	slices.SortFunc(a.cands, func(x, y kwCand) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		if c := cmp.Compare(x.s1, y.s1); c != 0 {
			return c
		}
		return cmp.Compare(x.s2, y.s2)
	})
	var out []string
	used := make(map[int32]bool, 2*maxKeywords)
	best := 0.0
	for _, c := range a.cands {
		if len(out) == maxKeywords {
			break
		}
		if used[c.s1] || c.s2 >= 0 && used[c.s2] {
			continue
		}
		if c.s2 < 0 {
			if bi, ok := phraseOf[c.s1]; ok {
				b := &a.bigrams[bi]
				if s1, s2 := a.winfo[b.a].stem, a.winfo[b.b].stem; !used[s1] && !used[s2] {
					c.s1, c.s2, c.b = s1, s2, bi
				}
			}
		}
		if len(out) == 0 {
			best = c.score
		} else if len(out) >= minKeywords {
			if c.score < 0.25*best {
				break
			}
			// Past the minimum, only words the text repeats.
			if c.s2 < 0 && a.stems[c.s1].tf < 2 && !a.stems[c.s1].heading {
				continue
			}
		}
		used[c.s1] = true
		if c.s2 >= 0 {
			used[c.s2] = true
			b := &a.bigrams[c.b]
			out = append(out, a.winfo[b.a].w+" "+a.winfo[b.b].w)
		} else {
			out = append(out, a.winfo[a.stems[c.s1].rep].w)
		}
	}
	return out
}
