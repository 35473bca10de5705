package main

import (
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"trove/backend/store/tokens"
)

// The query generator simulates a person looking for a file they have
// seen, after the known-item simulations of Azzopardi, de Rijke and Balog
// (2007): words are drawn from the file's text with a probability that
// grows with their frequency in the file and their rarity in the
// collection (distinctive, but not simply the rarest), names are recalled
// whole, without their extension or in part, and typing errors are one
// edit away. Everything is drawn from one seeded source, so a seed names a
// query set.

// Kinds of known-item query.
const (
	kindWords    = "words"     // 1-4 words recalled from the text
	kindName     = "name"      // the name, without its extension, or a distinctive part of it
	kindNameWord = "name+word" // part of the name and a word of the text
	kindTypo     = "typo"      // words or a name part with one word misspelt by one edit
	kindPassage  = "passage"   // 40-120 words pasted from the text, as they stand
	kindPhrase   = "phrase"    // 2-4 words that stand together in the text
)

// kinds in the order they are drawn: a kind added at the end leaves the
// queries a seed gives the others as they were.
var kinds = []string{kindWords, kindName, kindNameWord, kindTypo, kindPassage, kindPhrase}

// item is one generated query and the files that answer it.
type item struct {
	Kind   string   `json:"kind"`
	Query  string   `json:"query"`
	Target string   `json:"target"` // path below the corpus root
	Equals []string `json:"equals"` // further files with the same text (also correct)
	How    string   `json:"how"`    // what the generator did, for reading failures
}

// stats are the collection statistics the generator draws with.
type stats struct {
	n        int
	df       map[string]int // word -> files whose text holds it
	nameDF   map[string]int // folded name part -> files whose name holds it
	baseName map[string]int // folded name without extension -> files with that name
	byHash   map[string][]string
}

func collect(files []file) stats {
	s := stats{df: map[string]int{}, nameDF: map[string]int{}, baseName: map[string]int{}, byHash: map[string][]string{}}
	for _, f := range files {
		s.n++
		seen := map[string]bool{}
		for _, w := range words(clip(f.Text)) {
			if !seen[w] {
				seen[w] = true
				s.df[w]++
			}
		}
		base, _ := splitExt(path.Base(f.Rel))
		s.baseName[strings.ToLower(base)]++
		for _, p := range uniq(nameParts(base)) {
			s.nameDF[p]++
		}
		if f.Hash != "" {
			s.byHash[f.Hash] = append(s.byHash[f.Hash], f.Rel)
		}
	}
	return s
}

// clip bounds the text read per file: a person recalls what they read,
// which is rarely past the first pages.
func clip(text string) string {
	if len(text) > 64<<10 {
		return text[:64<<10]
	}
	return text
}

// words are the lower-case words of letters a person could recall and
// type: three letters or more, not a stopword.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) < 3 || len(w) > 24 || tokens.IsStopword(w) {
			continue
		}
		out = append(out, strings.ToLower(w))
	}
	return out
}

func uniq(xs []string) []string {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// splitExt splits a name as the engine does (tokens.SplitExt), so that
// what a query calls the extension is what Trove reads as one; the
// extension keeps its dot and its case, as a person would type it.
func splitExt(name string) (base, ext string) {
	base, _ = tokens.SplitExt(name)
	return base, name[len(base):]
}

// nameParts are the folded words of a name, split as a person reads it
// (separators, case changes, letters and digits).
func nameParts(name string) []string {
	var out []string
	for _, w := range tokens.Words(name) {
		for _, p := range tokens.SplitIdentifier(w) {
			out = append(out, tokens.Fold(p))
		}
	}
	return out
}

type generator struct {
	r     *rand.Rand
	s     stats
	files []file
}

// generate draws n queries of each kind, each for a different file.
func (g *generator) generate(n int) []item {
	var out []item
	var eligible []int
	for i, f := range g.files {
		if len(uniq(words(clip(f.Text)))) >= 20 {
			eligible = append(eligible, i)
		}
	}
	used := map[int]bool{}
	for _, kind := range kinds {
		for made := 0; made < n; {
			i := eligible[g.r.IntN(len(eligible))]
			if used[i] {
				continue
			}
			it, ok := g.query(kind, g.files[i])
			if !ok {
				continue
			}
			used[i] = true
			for _, rel := range g.s.byHash[g.files[i].Hash] {
				if rel != it.Target {
					it.Equals = append(it.Equals, rel)
				}
			}
			out = append(out, it)
			made++
		}
	}
	return out
}

func (g *generator) query(kind string, f file) (item, bool) {
	it := item{Kind: kind, Target: f.Rel}
	switch kind {
	case kindWords:
		ws := g.recall(f, g.length())
		if len(ws) == 0 {
			return it, false
		}
		it.Query, it.How = strings.Join(ws, " "), "recalled words"
	case kindName:
		q, how, ok := g.name(f)
		if !ok {
			return it, false
		}
		it.Query, it.How = q, how
	case kindNameWord:
		q, how, ok := g.namePart(f)
		ws := g.recall(f, 1)
		if !ok || len(ws) == 0 {
			return it, false
		}
		if g.r.IntN(2) == 0 {
			it.Query = q + " " + ws[0]
		} else {
			it.Query = ws[0] + " " + q
		}
		it.How = how + " + recalled word"
	case kindTypo:
		var ws []string
		if g.r.IntN(3) == 0 {
			q, how, ok := g.namePart(f)
			if !ok {
				return it, false
			}
			ws, it.How = strings.Fields(q), how+", misspelt"
		} else {
			ws, it.How = g.recall(f, 1+g.r.IntN(3)), "recalled words, one misspelt"
		}
		var long []int
		for i, w := range ws {
			if len([]rune(w)) >= 5 {
				long = append(long, i)
			}
		}
		if len(long) == 0 {
			return it, false
		}
		i := long[g.r.IntN(len(long))]
		typo, ok := g.misspell(ws[i])
		if !ok {
			return it, false
		}
		ws[i] = typo
		it.Query = strings.Join(ws, " ")
	case kindPassage:
		q, ok := g.passage(f)
		if !ok {
			return it, false
		}
		it.Query, it.How = q, "pasted passage"
	case kindPhrase:
		q, ok := g.phrase(f)
		if !ok {
			return it, false
		}
		it.Query, it.How = q, "remembered phrase"
	}
	return it, true
}

// phrase copies 2 to 4 words that stand together in the file's text, as
// a person remembers a turn of phrase ("remote procedure call") and types
// it in lower case, stopwords and all: words of letters, in one sentence
// (no punctuation between them). Of up to 30 such runs, one is drawn with
// a probability that grows with the IDF of its words, as recall draws
// words: a phrase is remembered for what sets it apart.
func (g *generator) phrase(f file) (string, bool) {
	fields := strings.Fields(clip(f.Text))
	n := 2 + g.r.IntN(3)
	if len(fields) < n {
		return "", false
	}
	var runs []string
	var weights []float64
	for range 30 {
		start := g.r.IntN(len(fields) - n + 1)
		if q, w := g.phraseOf(fields[start : start+n]); w > 0 {
			runs = append(runs, q)
			weights = append(weights, w)
		}
	}
	if len(runs) == 0 {
		return "", false
	}
	return runs[g.pick(weights)], true
}

// phraseOf joins the lower-cased words of a phrase and weighs it by the IDF of
// its distinctive words; its weight is 0 when it crosses punctuation or
// holds something other than letters.
func (g *generator) phraseOf(fields []string) (string, float64) {
	ws := make([]string, len(fields))
	weight := 0.0
	for i, w := range fields {
		if i == len(fields)-1 {
			w = strings.TrimRight(w, ".,;:!?)\"'")
		}
		if i == 0 {
			w = strings.TrimLeft(w, "(\"'")
		}
		if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return "", 0
		}
		ws[i] = strings.ToLower(w)
		if df := g.s.df[ws[i]]; df > 0 && float64(df) <= 0.2*float64(g.s.n) {
			weight += math.Log(float64(g.s.n) / float64(df))
		}
	}
	return strings.Join(ws, " "), weight
}

// passage copies 40 to 120 consecutive words of the file's text, with
// their punctuation, as a person pastes a paragraph or a piece of code to
// find where it came from; none longer than 2,000 characters, a paste of
// text rather than of data.
func (g *generator) passage(f file) (string, bool) {
	fields := strings.Fields(clip(f.Text))
	n := 40 + g.r.IntN(81)
	if len(fields) < n {
		return "", false
	}
	start := g.r.IntN(len(fields) - n + 1)
	q := strings.Join(fields[start:start+n], " ")
	return q, len(q) <= 2000
}

// length is how many words a person recalls: mostly two or three.
func (g *generator) length() int {
	x := g.r.Float64()
	switch {
	case x < 0.15:
		return 1
	case x < 0.5:
		return 2
	case x < 0.8:
		return 3
	}
	return 4
}

// recall draws k distinct words of the file's text, each with probability
// proportional to tf * idf: frequent in the file and rare elsewhere.
func (g *generator) recall(f file, k int) []string {
	tf := map[string]int{}
	for _, w := range words(clip(f.Text)) {
		tf[w]++
	}
	type cand struct {
		w      string
		weight float64
	}
	var cs []cand
	for w, n := range tf {
		df := g.s.df[w]
		if df == 0 || float64(df) > 0.2*float64(g.s.n) {
			continue // too common to be recalled as distinctive
		}
		cs = append(cs, cand{w, float64(n) * math.Log(float64(g.s.n)/float64(df))})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].w < cs[j].w })
	var out []string
	for len(out) < k && len(cs) > 0 {
		weights := make([]float64, len(cs))
		for i, c := range cs {
			weights[i] = c.weight
		}
		i := g.pick(weights)
		out = append(out, cs[i].w)
		cs = slices.Delete(cs, i, i+1)
	}
	return out
}

// pick draws an index with probability proportional to its weight.
func (g *generator) pick(weights []float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := g.r.Float64() * total
	i := 0
	for ; i < len(weights)-1 && x >= weights[i]; i++ {
		x -= weights[i]
	}
	return i
}

// name recalls the name: whole, without the extension, or a distinctive
// part; with the folder's name when many files share it.
func (g *generator) name(f file) (string, string, bool) {
	full := path.Base(f.Rel)
	base, ext := splitExt(full)
	switch x := g.r.IntN(3); {
	case x == 0 && ext != "":
		return g.withFolder(f, full, base), "whole name", true
	case x == 1 || ext == "" && x == 0:
		return g.withFolder(f, base, base), "name without extension", true
	}
	return g.namePart(f)
}

// namePart picks one or two adjacent parts of the name, preferring parts
// few other names have, as typed (with the name's separators or spaces),
// sometimes with the extension.
func (g *generator) namePart(f file) (string, string, bool) {
	base, ext := splitExt(path.Base(f.Rel))
	parts := nameParts(base)
	if len(parts) <= 1 {
		return g.withFolder(f, base, base), "name without extension", true
	}
	type run struct {
		text   string
		weight float64
	}
	var runs []run
	for i := range parts {
		for j := i + 1; j <= min(i+2, len(parts)); j++ {
			text := strings.Join(parts[i:j], " ")
			if len(text) < 3 || j-i == len(parts) {
				continue
			}
			w := 0.0
			for _, p := range parts[i:j] {
				w += math.Log(float64(g.s.n) / float64(1+g.s.nameDF[p]))
			}
			runs = append(runs, run{text, w * w})
		}
	}
	if len(runs) == 0 {
		return "", "", false
	}
	weights := make([]float64, len(runs))
	for i, r := range runs {
		weights[i] = r.weight
	}
	q := runs[g.pick(weights)].text
	if ext != "" && g.r.IntN(4) == 0 {
		q += ext
	}
	return g.withFolder(f, q, base), "part of the name", true
}

// withFolder adds the parent folder's name when at least three files share
// the name: that is how people tell the copyright file of bash from the
// others.
func (g *generator) withFolder(f file, q, base string) string {
	if g.s.baseName[strings.ToLower(base)] < 3 {
		return q
	}
	folder := path.Base(path.Dir(f.Rel))
	if folder == "." || folder == "/" {
		return q
	}
	if g.r.IntN(2) == 0 {
		return folder + " " + q
	}
	return q + " " + folder
}

// keyboard neighbours on a QWERTY layout, for substitutions and insertions.
var neighbours = map[rune]string{
	'q': "wa", 'w': "qes", 'e': "wrd", 'r': "etf", 't': "ryg", 'y': "tuh", 'u': "yij", 'i': "uok", 'o': "ipl", 'p': "ol",
	'a': "qsz", 's': "awdz", 'd': "sefx", 'f': "drgc", 'g': "fthv", 'h': "gyjb", 'j': "hukn", 'k': "jilm", 'l': "kop",
	'z': "asx", 'x': "zsdc", 'c': "xdfv", 'v': "cfgb", 'b': "vghn", 'n': "bhjm", 'm': "njk",
}

// misspell applies one edit (not to the first letter, which people rarely
// get wrong) and rejects results that are words of the corpus.
func (g *generator) misspell(w string) (string, bool) {
	rs := []rune(strings.ToLower(w))
	for range 20 {
		out := slices.Clone(rs)
		i := 1 + g.r.IntN(len(rs)-1)
		switch x := g.r.Float64(); {
		case x < 0.35: // deletion
			out = slices.Delete(out, i, i+1)
		case x < 0.55 && i < len(rs)-1: // transposition
			out[i], out[i+1] = out[i+1], out[i]
		case x < 0.85: // substitution by a neighbouring key
			if nb := neighbours[rs[i]]; nb != "" {
				out[i] = rune(nb[g.r.IntN(len(nb))])
			} else {
				continue
			}
		default: // insertion of a neighbouring key
			if nb := neighbours[rs[i]]; nb != "" {
				out = slices.Insert(out, i, rune(nb[g.r.IntN(len(nb))]))
			} else {
				continue
			}
		}
		typo := string(out)
		if typo != string(rs) && g.s.df[typo] == 0 {
			return typo, true
		}
	}
	return "", false
}
