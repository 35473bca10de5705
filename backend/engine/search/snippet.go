package search

import (
	"cmp"
	"context"
	"html"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// Texts reads stored passages for snippets and feedback, a file's whole
// text for its preview, and which passages hold some words.
type Texts interface {
	Passages(ctx context.Context, keys []store.PassageKey) (map[store.PassageKey]store.Passage, error)
	BestPassages(ctx context.Context, files []int64, words []string, maxOrd int) (map[int64]store.Passage, error)
	FileText(ctx context.Context, id int64, maxBytes int) (store.WholeText, error)
	Languages() []string
}

// snippetLen is the target length of a snippet in characters.
const snippetLen = 220

// snip is a file's snippet and the page of the file it stands on.
type snip struct {
	text string
	page int // 0: not known (no pages)
}

// set gives a result its snippet.
func (sn snip) set(r *Result) { r.Snippet, r.Page = sn.text, sn.page }

// snippets fills each result's snippet from its best passage: the keyword
// match when there is one, else the closest passage by meaning, else the
// file's first passage.
func (e *Engine) snippets(ctx context.Context, results []Result, p plan, cands map[int64]*Candidate) {
	ids := make([]int64, len(results))
	for i, r := range results {
		ids[i] = r.File.ID
	}
	for i, sn := range e.snippetsOf(ctx, ids, p, cands) {
		sn.set(&results[i])
	}
}

// snippetsOf returns the snippet of each file (empty when it has none).
func (e *Engine) snippetsOf(ctx context.Context, ids []int64, p plan, cands map[int64]*Candidate) []snip {
	out := make([]snip, len(ids))
	keys, texts, err := e.bestPassages(ctx, p, ids, cands)
	if err != nil {
		if ctx.Err() == nil { // a search that was given up needs no word
			e.Log.Warn("snippets: reading passages", "err", err)
		}
		return out
	}
	m := markerFor(p, e.Store.Languages())
	// Highlighting is pure CPU, a few milliseconds for 50 results: spread
	// over the cores, as the query waits on it.
	workers := min(runtime.GOMAXPROCS(0), (len(ids)+7)/8)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			m := m.remembering()
			for i := w; i < len(ids); i += workers {
				passage, ok := texts[keys[i]]
				if !ok {
					continue
				}
				// A snippet is an extra: a bug in building one costs that
				// snippet, never the search or the process.
				if err := core.Safe(func() {
					text, at := m.snippet(passage.Text, snippetLen)
					out[i] = snip{text: text, page: passage.Pages.At(at)}
				}); err != nil {
					e.Log.Error("snippet failed", "file", ids[i], "err", err, "stack", string(err.(*core.PanicError).Stack))
				}
			}
		})
	}
	wg.Wait()
	return out
}

// snippetReach is how many passages of a file are searched for the query's
// words; beyond them, the passage closest in meaning is shown instead (it
// usually holds the words too), so a huge file costs no more than a small
// one.
const snippetReach = 24

// bestPassages chooses each file's passage to show or to learn from: the
// closest in meaning when it holds a query word (it usually does), else the
// one among the first snippetReach holding the most query words, else the
// closest in meaning, else the first. It returns the chosen passages'
// texts too.
func (e *Engine) bestPassages(ctx context.Context, p plan, ids []int64, cands map[int64]*Candidate) ([]store.PassageKey, map[store.PassageKey]store.Passage, error) {
	keys := make([]store.PassageKey, len(ids))
	for i, id := range ids {
		keys[i] = store.PassageKey{FileID: id}
		if c := cands[id]; c != nil && c.HasVector {
			keys[i].Ord = c.Passage
		}
	}
	texts, err := e.Store.Passages(ctx, keys)
	roots := slices.Concat(p.roots, foreignRoots(p.typed, e.Store.Languages()))
	if err != nil || len(roots) == 0 {
		return keys, texts, err
	}
	var search []int64
	for _, k := range keys {
		if !holdsAny(texts[k].Text, roots) {
			search = append(search, k.FileID)
		}
	}
	byWords, err := e.Store.BestPassages(ctx, search, roots, snippetReach)
	if err != nil {
		return nil, nil, err
	}
	for i := range keys {
		if best, ok := byWords[keys[i].FileID]; ok && best.Ord != keys[i].Ord {
			keys[i].Ord = best.Ord
			texts[keys[i]] = best
		}
	}
	return keys, texts, nil
}

// holdsAny reports whether text contains any of the lower-case roots.
func holdsAny(text string, roots []string) bool {
	if text == "" {
		return false
	}
	lower := strings.ToLower(text)
	for _, r := range roots {
		if strings.Contains(lower, r) {
			return true
		}
	}
	return false
}

// span is a word's place in the text, in bytes.
type span struct{ start, end int }

// Snippet picks the window of text with the most query words and returns it
// HTML-escaped, with each matching word wrapped in <mark></mark>. A word
// matches when its stem is among stems or it starts with one of prefixes.
func Snippet(text string, stems map[string]bool, prefixes []string) string {
	sn, _ := newMarker(stems, prefixes).snippet(text, snippetLen)
	return sn
}

// marker recognises the query's words in a text. It is built once per
// search and read by many goroutines; each may take a copy that
// remembers its answers (remembering).
type marker struct {
	stems    map[string]bool
	prefixes []string
	// heads lets most words skip the stemmer. Porter's algorithm only
	// rewrites a word's end: a stem s shares at least its first len(s)-2
	// letters with every word that has it (y becomes i, "biliti" becomes
	// "ble"), so a word that starts with no stem's head cannot match. A
	// head is at most three letters; any is set when a stem is too short
	// to have one.
	heads []string
	any   bool
	// other are the other languages whose stems are among stems: a word
	// matches when its stem in one of them does.
	other []langForms
	// cjk are the query's CJK words, marked wherever they stand inside a
	// run of CJK text (which has no spaces to tell words by).
	cjk []string
	// seen, when not nil, keeps matches' answers by word: a word is
	// stemmed in each language the index holds, and texts repeat their
	// words, so most words of fifty passages are answered from here.
	seen map[string]bool
}

// maxSeen bounds a marker's memory of answers.
const maxSeen = 1 << 14

// remembering returns a copy of m, for one goroutine, that remembers what
// it answered.
func (m *marker) remembering() *marker {
	c := *m
	c.seen = make(map[string]bool, 512)
	return &c
}

// langForms are the heads of the query's stems in one language: a word
// is stemmed in that language only when it starts with one of them (the
// heads rule of marker, language by language), so an index of twenty
// languages does not stem every word twenty times.
type langForms struct {
	lang  string
	heads []string
	any   bool // a stem too short to have a head
}

// markerFor is the marker of a plan's words in an index holding files of
// langs: each word is marked in its forms in every one of them.
func markerFor(p plan, langs []string) *marker {
	stems := map[string]bool{}
	for _, s := range p.stems {
		stems[s] = true
	}
	var cjk []string
	var other []langForms
	for _, l := range langs {
		if l != tokens.English && tokens.Stemmed(l) {
			other = append(other, langForms{lang: l})
		}
	}
	for _, w := range p.typed {
		if tokens.HasCJK(w) {
			cjk = append(cjk, strings.ToLower(w))
			continue
		}
		for i := range other {
			s := tokens.StemIn(other[i].lang, w)
			stems[s] = true
			other[i].addHead(s)
		}
	}
	m := newMarker(stems, p.prefixes)
	m.other, m.cjk = other, cjk
	return m
}

// head is the start every word with stem s shares with it: at most three
// letters, and two fewer than s has ("" when s is too short).
func head(s string) string { return s[:min(3, max(0, len(s)-2))] }

func (f *langForms) addHead(s string) {
	if h := head(s); h == "" {
		f.any = true
	} else if !slices.Contains(f.heads, h) {
		f.heads = append(f.heads, h)
	}
}

// may reports whether a word folded to folded may have a stem of the
// query's in this language.
func (f *langForms) may(folded string) bool {
	return f.any || slices.ContainsFunc(f.heads, func(h string) bool { return strings.HasPrefix(folded, h) })
}

// foreignRoots are the roots of words' forms in langs, to find the
// passages that hold them.
func foreignRoots(words, langs []string) []string {
	var out []string
	for _, w := range words {
		if tokens.HasCJK(w) {
			continue
		}
		for _, l := range langs {
			if l != tokens.English && tokens.Stemmed(l) {
				out = append(out, root(tokens.Fold(w), tokens.StemIn(l, w)))
			}
		}
	}
	return out
}

// hits calls fn with the parts of the word text[start:end] to mark: the
// word, or the query's CJK words inside it.
func (m *marker) hits(text string, start, end int, fn func(span)) {
	word := text[start:end]
	if len(m.cjk) > 0 && tokens.HasCJK(word) {
		var found []span
		for _, q := range m.cjk {
			for i := 0; ; {
				j := strings.Index(word[i:], q)
				if j < 0 {
					break
				}
				found = append(found, span{start + i + j, start + i + j + len(q)})
				i += j + len(q)
			}
		}
		slices.SortFunc(found, func(a, b span) int { return cmp.Compare(a.start, b.start) })
		last := start
		for _, f := range found {
			if f.start >= last { // overlapping finds are marked once
				fn(f)
				last = f.end
			}
		}
		if len(found) > 0 {
			return
		}
	}
	if m.matches(word) {
		fn(span{start, end})
	}
}

func newMarker(stems map[string]bool, prefixes []string) *marker {
	m := &marker{stems: stems, prefixes: prefixes}
	for s := range stems {
		h := head(s)
		if h == "" {
			m.any = true
		} else if !slices.Contains(m.heads, h) {
			m.heads = append(m.heads, h)
		}
	}
	return m
}

// matches reports whether word is one of the query's.
func (m *marker) matches(word string) bool {
	if !m.may(word) {
		return false
	}
	if m.seen == nil {
		return m.stemMatches(word)
	}
	ok, known := m.seen[word]
	if !known {
		ok = m.stemMatches(word)
		if len(m.seen) < maxSeen {
			m.seen[word] = ok
		}
	}
	return ok
}

// stemMatches is matches past the cheap test, by the word's forms.
func (m *marker) stemMatches(word string) bool {
	folded := tokens.Fold(word)
	for _, p := range m.prefixes {
		if strings.HasPrefix(folded, p) {
			return true
		}
	}
	if !m.any && !slices.ContainsFunc(m.heads, func(h string) bool { return strings.HasPrefix(folded, h) }) {
		return false
	}
	if m.stems[tokens.StemFolded(folded)] {
		return true
	}
	return slices.ContainsFunc(m.other, func(f langForms) bool { return f.may(folded) && m.stems[tokens.StemInRemembered(f.lang, word)] })
}

// may rules out most words before they are folded: an ASCII word folds to
// its lower case, so it can match only if it starts, in any case, with a
// head or a prefix.
func (m *marker) may(word string) bool {
	if m.any {
		return true
	}
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf {
			return true // folding may strip diacritics: ask Fold
		}
	}
	return slices.ContainsFunc(m.heads, func(h string) bool { return lowerPrefix(word, h) }) ||
		slices.ContainsFunc(m.prefixes, func(p string) bool { return lowerPrefix(word, p) })
}

// lowerPrefix reports whether the ASCII word, lower-cased, starts with p.
func lowerPrefix(word, p string) bool {
	if len(word) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := word[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}

// snippet is Snippet with a window of about n bytes. Whatever the text
// (one 400-character token, no spaces at all, invalid UTF-8), the window
// lies inside it, on character boundaries. at is where in text the first
// match shown stands, or the window when none is: the place whose page
// the snippet names.
func (m *marker) snippet(text string, n int) (sn string, at int) {
	var words, hits []span
	for start, end := nextWord(text, 0); start < len(text); start, end = nextWord(text, end) {
		words = append(words, span{start, end})
		m.hits(text, start, end, func(h span) { hits = append(hits, h) })
	}
	from, to := window(text, words, hits, max(n, 1))
	at = from
	if i := slices.IndexFunc(hits, func(h span) bool { return h.end > from && h.start < to }); i >= 0 {
		at = max(hits[i].start, from)
	}
	return render(text, from, to, hits), at
}

// nextWord returns the bounds of the first word (a run of letters and
// digits) of text at or after byte i; start is len(text) when there is
// none.
func nextWord(text string, i int) (start, end int) {
	for i < len(text) && !wordAt(text, i) {
		i += runeLen(text, i)
	}
	start = i
	for i < len(text) && wordAt(text, i) {
		i += runeLen(text, i)
	}
	return start, i
}

// asciiWord marks the ASCII letters and digits: most text is ASCII, and a
// table look-up is much cheaper than decoding a rune.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// wordAt reports whether the character at byte i is a letter or digit.
func wordAt(text string, i int) bool {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiWord[c]
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return isWordRune(r)
}

func runeLen(text string, i int) int {
	if text[i] < utf8.RuneSelf {
		return 1
	}
	_, size := utf8.DecodeRuneInString(text[i:])
	return size
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// window chooses the byte range to show: the stretch of about n bytes
// holding the most hits, led in by a little context, with its ends moved to
// word boundaries where a word boundary is near (a long token is cut inside
// instead). It always returns 0 <= from <= to <= len(text), both on
// character boundaries.
func window(text string, words, hits []span, n int) (int, int) {
	if len(text) <= n {
		return 0, len(text)
	}
	bestStart, bestCount := 0, 0
	j := 0
	for i, h := range hits {
		for j < len(hits) && hits[j].end-h.start <= n {
			j++
		}
		if j-i > bestCount {
			bestCount, bestStart = j-i, h.start
		}
	}
	if bestCount == 0 {
		return 0, cutEnd(text, words, 0, n)
	}
	// Lead in with a little context before the first hit, starting at a word
	// unless that word is long enough to push the hit out of view.
	start := max(0, bestStart-n/4)
	for _, w := range words {
		if w.end > start {
			if w.start >= start-n/4 {
				start = min(w.start, bestStart)
			}
			break
		}
	}
	start = runeStart(text, start)
	return start, cutEnd(text, words, start, n)
}

// cutEnd returns where a window of about n bytes from start ends: at the end
// of the last word that ends in it, unless that leaves most of the window
// empty (a long token follows), then at a character boundary inside it.
func cutEnd(text string, words []span, start, n int) int {
	limit := min(start+n, len(text))
	i, _ := slices.BinarySearchFunc(words, limit, func(w span, limit int) int { return cmp.Compare(w.end, limit+1) })
	if i > 0 && words[i-1].end > start+n/2 {
		return words[i-1].end
	}
	return max(start, runeStart(text, limit))
}

// runeStart moves i back to the start of the character it falls in.
func runeStart(text string, i int) int {
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	return i
}

// render escapes text[from:to] and marks the hits inside it; a hit that
// the window cuts is marked as far as it shows.
func render(text string, from, to int, hits []span) string {
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := from
	for _, h := range hits {
		s, e := max(h.start, pos), min(h.end, to)
		if s >= e {
			continue
		}
		b.WriteString(html.EscapeString(collapse(text[pos:s])))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(text[s:e]))
		b.WriteString("</mark>")
		pos = e
	}
	b.WriteString(html.EscapeString(collapse(text[pos:to])))
	if to < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// collapse turns runs of white space into one space, so a snippet is a line.
func collapse(s string) string {
	if collapsed(s) {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// collapsed reports whether collapse would leave s as it is: its only
// white space is single ASCII spaces. Most pieces of a snippet are, and
// then collapse copies nothing. Every rune unicode.IsSpace knows counts,
// \v and U+2028 as much as \n.
func collapsed(s string) bool {
	prev := byte(0)
	for i, r := range s {
		if r == ' ' {
			if prev == ' ' {
				return false
			}
		} else if unicode.IsSpace(r) {
			return false
		}
		prev = s[i]
	}
	return true
}
