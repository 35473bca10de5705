package search

import (
	"context"
	"html"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"trove/backend/store"
	"trove/backend/tokens"
)

// snippetLen is the target length of a snippet in characters.
const snippetLen = 220

// snippets fills each result's snippet from its best passage: the keyword
// match when there is one, else the closest passage by meaning, else the
// file's first passage.
func (e *Engine) snippets(ctx context.Context, results []Result, p plan, cands map[int64]*candidate) {
	ids := make([]int64, len(results))
	for i, r := range results {
		ids[i] = r.File.ID
	}
	keys, err := e.bestPassages(ctx, p, ids, cands)
	if err != nil {
		return
	}
	texts, err := e.Store.Passages(ctx, keys)
	if err != nil {
		return
	}
	stems := map[string]bool{}
	for _, s := range p.stems {
		stems[s] = true
	}
	// Highlighting is pure CPU, a few milliseconds for 50 results: spread
	// over the cores, as the query waits on it.
	workers := min(runtime.GOMAXPROCS(0), (len(results)+7)/8)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(results); i += workers {
				if text, ok := texts[keys[i]]; ok {
					results[i].Snippet = Snippet(text, stems, p.prefixes)
				}
			}
		})
	}
	wg.Wait()
}

// snippetReach is how many passages of a file are searched for the query's
// words; beyond them, the passage closest in meaning is shown instead (it
// usually holds the words too), so a huge file costs no more than a small
// one.
const snippetReach = 24

// bestPassages chooses each file's passage to show or to learn from: the
// closest in meaning when it holds a query word (it usually does), else the
// one among the first snippetReach holding the most query words, else the
// closest in meaning, else the first.
func (e *Engine) bestPassages(ctx context.Context, p plan, ids []int64, cands map[int64]*candidate) ([]store.PassageKey, error) {
	keys := make([]store.PassageKey, len(ids))
	for i, id := range ids {
		keys[i] = store.PassageKey{FileID: id}
		if c := cands[id]; c != nil && c.hasVector {
			keys[i].Ord = c.semOrd
		}
	}
	if len(p.roots) == 0 {
		return keys, nil
	}
	texts, err := e.Store.Passages(ctx, keys)
	if err != nil {
		return nil, err
	}
	var search []int64
	for _, k := range keys {
		if !holdsAny(texts[k], p.roots) {
			search = append(search, k.FileID)
		}
	}
	byWords, err := e.Store.BestPassages(ctx, search, p.roots, snippetReach)
	if err != nil {
		return nil, err
	}
	for i := range keys {
		if ord, ok := byWords[keys[i].FileID]; ok {
			keys[i].Ord = ord
		}
	}
	return keys, nil
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
	var words, hits []span
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		start := i
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				break
			}
			i += size
		}
		w := span{start, i}
		words = append(words, w)
		if matches(text[start:i], stems, prefixes) {
			hits = append(hits, w)
		}
	}
	from, to := window(text, words, hits)
	return render(text, from, to, hits)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// startsAny reports whether word shares its first three letters with one of
// the stems: a word with a given Porter stem always does, so other words
// need not be stemmed.
func startsAny(word string, stems map[string]bool) bool {
	for s := range stems {
		if len(s) < 3 || strings.HasPrefix(word, s[:3]) {
			return true
		}
	}
	return false
}

func matches(word string, stems map[string]bool, prefixes []string) bool {
	folded := tokens.Fold(word)
	if len(folded) >= 3 && !startsAny(folded, stems) && len(prefixes) == 0 {
		return false // no stem starts like it: skip the stemmer
	}
	if stems[tokens.Stem(word)] {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(folded, p) {
			return true
		}
	}
	return false
}

// window chooses the byte range to show: the stretch of about snippetLen
// characters holding the most hits, widened to word boundaries.
func window(text string, words, hits []span) (int, int) {
	if len(text) <= snippetLen {
		return 0, len(text)
	}
	bestStart, bestCount := 0, 0
	j := 0
	for i, h := range hits {
		for j < len(hits) && hits[j].end-h.start <= snippetLen {
			j++
		}
		if j-i > bestCount {
			bestCount, bestStart = j-i, h.start
		}
	}
	if bestCount == 0 {
		return 0, cutAtWord(text, words, snippetLen)
	}
	// Lead in with a little context before the first hit.
	start := max(0, bestStart-snippetLen/4)
	for _, w := range words {
		if w.end > start {
			start = w.start
			break
		}
	}
	return start, cutAtWord(text, words, start+snippetLen)
}

// cutAtWord returns the end of the last word ending by limit.
func cutAtWord(text string, words []span, limit int) int {
	end := min(limit, len(text))
	for i := len(words) - 1; i >= 0; i-- {
		if words[i].end <= end {
			return words[i].end
		}
	}
	return end
}

func render(text string, from, to int, hits []span) string {
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := from
	for _, h := range hits {
		if h.start < from || h.end > to {
			continue
		}
		b.WriteString(html.EscapeString(collapse(text[pos:h.start])))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(text[h.start:h.end]))
		b.WriteString("</mark>")
		pos = h.end
	}
	b.WriteString(html.EscapeString(collapse(text[pos:to])))
	if to < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// collapse turns runs of white space into one space, so a snippet is a line.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\t\r  ") {
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
