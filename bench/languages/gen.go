package main

import (
	"bufio"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"unicode"
)

// The kinds of query, as the issue of languages puts them.
const (
	kindExact   = "exact"   // two distinctive words as written
	kindInflect = "inflect" // one word in another form, held by no page
	kindCJK     = "cjk"     // 2-4 characters from inside a run of Chinese or Japanese
)

var kinds = []string{kindExact, kindInflect, kindCJK}

// item is one query aimed at one page; any page in Accept answers it too
// (it holds the same words or characters).
type item struct {
	Kind, Lang, Query, Target string
	Accept                    []string
	How                       string
}

// index is what the generator knows of the corpus.
type index struct {
	docs   []doc
	words  []map[string]bool   // per doc, its words in lower case
	df     map[string]int      // lower-case word -> documents
	byWord map[string][]string // lower-case word -> the documents' Rel
}

func newIndex(docs []doc) *index {
	ix := &index{docs: docs, df: map[string]int{}, byWord: map[string][]string{}}
	for _, d := range docs {
		set := map[string]bool{}
		for _, w := range words(d.Text) {
			set[strings.ToLower(w)] = true
		}
		for w := range set {
			ix.df[w]++
			ix.byWord[w] = append(ix.byWord[w], d.Rel)
		}
		ix.words = append(ix.words, set)
	}
	return ix
}

// words splits text into runs of letters (marks included).
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) })
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// cjkHeavy reports whether text is mostly Chinese or Japanese (whose
// pages have few space-separated words).
func cjkHeavy(text string) bool {
	n := 0
	for _, r := range text {
		if isCJK(r) {
			n++
		}
	}
	return n > 300
}

// generator makes queries from the corpus with its own random source.
type generator struct {
	r  *rand.Rand
	ix *index
}

// generate makes up to n queries of each kind for each language.
func (g *generator) generate(n int, inflections map[string]map[string][]string) []item {
	var out []item
	for _, l := range languages {
		docs := g.docsOf(l.Code)
		switch l.Code {
		case "ja", "zh":
			out = append(out, g.many(n, docs, g.cjk)...)
		default:
			out = append(out, g.many(n, docs, g.exact)...)
			if forms := inflections[l.Code]; forms != nil {
				out = append(out, g.many(n, docs, func(d int) (item, bool) { return g.inflect(d, forms) })...)
			}
		}
	}
	return out
}

func (g *generator) docsOf(lang string) []int {
	var out []int
	for i, d := range g.ix.docs {
		if d.Lang == lang {
			out = append(out, i)
		}
	}
	return out
}

// many draws documents until n queries are made (or tries run out).
func (g *generator) many(n int, docs []int, make func(d int) (item, bool)) []item {
	var out []item
	for try := 0; len(out) < n && try < n*20 && len(docs) > 0; try++ {
		if it, ok := make(docs[g.r.IntN(len(docs))]); ok && !slices.ContainsFunc(out, func(o item) bool { return o.Query == it.Query }) {
			out = append(out, it)
		}
	}
	return out
}

// distinctive lists the document's words of at least five letters that at
// most two documents hold, in the form the text has them.
func (g *generator) distinctive(d int) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(g.ix.docs[d].Text) {
		lw := strings.ToLower(w)
		if len([]rune(w)) >= 5 && g.ix.df[lw] <= 2 && !seen[lw] && !strings.ContainsFunc(w, isCJK) {
			seen[lw] = true
			out = append(out, w)
		}
	}
	return out
}

// exact is two distinctive words of the document as written.
func (g *generator) exact(d int) (item, bool) {
	ws := g.distinctive(d)
	if len(ws) < 2 {
		return item{}, false
	}
	i := g.r.IntN(len(ws))
	j := (i + 1 + g.r.IntN(len(ws)-1)) % len(ws)
	a, b := strings.ToLower(ws[i]), strings.ToLower(ws[j])
	var accept []string
	for _, rel := range g.ix.byWord[a] {
		if slices.Contains(g.ix.byWord[b], rel) {
			accept = append(accept, rel)
		}
	}
	doc := g.ix.docs[d]
	return item{Kind: kindExact, Lang: doc.Lang, Query: ws[i] + " " + ws[j], Target: doc.Rel, Accept: accept, How: "two distinctive words"}, true
}

// inflect is a distinctive word of the document in another form that no
// page holds: a form of the language's word list that Hunspell, from the
// language's own morphology, gives a stem in common with the word
// (Dateien and Datei, errechnet and errechnen). No system under test
// stems with Hunspell, so none chose the form.
func (g *generator) inflect(d int, forms map[string][]string) (item, bool) {
	ws := g.distinctive(d)
	if len(ws) == 0 {
		return item{}, false
	}
	w := ws[g.r.IntN(len(ws))]
	lw := strings.ToLower(w)
	var unheld []string
	for _, v := range forms[lw] {
		if g.ix.df[v] == 0 {
			unheld = append(unheld, v)
		}
	}
	if len(unheld) == 0 {
		return item{}, false
	}
	v := unheld[g.r.IntN(len(unheld))]
	if unicode.IsUpper([]rune(w)[0]) { // German nouns keep their capital
		v = string(unicode.ToUpper([]rune(v)[0])) + string([]rune(v)[1:])
	}
	doc := g.ix.docs[d]
	return item{Kind: kindInflect, Lang: doc.Lang, Query: v, Target: doc.Rel, Accept: g.ix.byWord[lw], How: "another form of " + w}, true
}

// inflections maps each distinctive word of the language's pages that the
// word list holds to its other forms: the list's words that share its
// first four letters and a Hunspell stem with it.
func (g *generator) inflections(lang string, list *wordList, dict string) (map[string][]string, error) {
	candidates := map[string][]string{}
	ask := map[string]bool{}
	for _, d := range g.docsOf(lang) {
		for _, w := range g.distinctive(d) {
			lw := strings.ToLower(w)
			r := []rune(lw)
			if !list.has[lw] || candidates[lw] != nil || len(r) < 4 {
				continue
			}
			for _, v := range list.byPrefix[string(r[:4])] {
				if v != lw && abs(len([]rune(v))-len(r)) <= 4 {
					candidates[lw] = append(candidates[lw], v)
					ask[v] = true
				}
			}
			ask[lw] = true
		}
	}
	stems, err := hunspellStems(dict, slices.Sorted(maps.Keys(ask)))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for w, vs := range candidates {
		for _, v := range vs {
			if sharesAny(stems[w], stems[v]) {
				out[w] = append(out[w], v)
			}
		}
		slices.Sort(out[w])
	}
	return out, nil
}

func abs(x int) int { return max(x, -x) }

func sharesAny(a, b []string) bool {
	return slices.ContainsFunc(a, func(x string) bool { return slices.Contains(b, x) })
}

// hunspellStems asks hunspell -s for the stems of words (lower case).
func hunspellStems(dict string, words []string) (map[string][]string, error) {
	cmd := exec.Command("hunspell", "-s", "-i", "UTF-8", "-d", dict)
	cmd.Stdin = strings.NewReader(strings.Join(words, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("hunspell -d %s: %w", dict, err)
	}
	stems := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 {
			w, s := strings.ToLower(f[0]), strings.ToLower(f[1])
			if !slices.Contains(stems[w], s) {
				stems[w] = append(stems[w], s)
			}
		}
	}
	return stems, nil
}

// cjk is 2 to 4 characters from inside a run of Chinese or Japanese
// characters (never a whole run: those unicode61 finds as a word) that at
// most three pages hold.
func (g *generator) cjk(d int) (item, bool) {
	text := []rune(g.ix.docs[d].Text)
	var runs [][2]int
	for i := 0; i < len(text); {
		if !isCJK(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isCJK(text[j]) {
			j++
		}
		if j-i >= 6 {
			runs = append(runs, [2]int{i, j})
		}
		i = j
	}
	if len(runs) == 0 {
		return item{}, false
	}
	r := runs[g.r.IntN(len(runs))]
	size := 2 + g.r.IntN(3)
	start := r[0] + 1 + g.r.IntN(r[1]-r[0]-size-1)
	q := string(text[start : start+size])
	var accept []string
	for _, o := range g.ix.docs {
		if strings.Contains(o.Text, q) {
			accept = append(accept, o.Rel)
		}
	}
	if len(accept) > 3 {
		return item{}, false
	}
	doc := g.ix.docs[d]
	return item{Kind: kindCJK, Lang: doc.Lang, Query: q, Target: doc.Rel, Accept: accept, How: "inside a run"}, true
}

// wordList is a language's word forms in lower case, by their first four
// letters too.
type wordList struct {
	has      map[string]bool
	byPrefix map[string][]string
}

// readWordList reads a Debian word list (one form per line).
func readWordList(path string) (*wordList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := &wordList{has: map[string]bool{}, byPrefix: map[string][]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.ToLower(strings.TrimSpace(sc.Text()))
		if w == "" || strings.ContainsAny(w, "' -") || l.has[w] {
			continue
		}
		l.has[w] = true
		if r := []rune(w); len(r) >= 4 {
			l.byPrefix[string(r[:4])] = append(l.byPrefix[string(r[:4])], w)
		}
	}
	return l, sc.Err()
}
