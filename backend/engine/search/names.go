package search

import (
	"math"
	"slices"
	"strings"
	"sync"

	"trove/backend/store/tokens"
)

// Names come first in desktop search: a person who remembers a file's name
// types it, or part of it, and expects that file on top. nameMatch scores
// how well the query and a file's name describe each other:
//
//	query side: the share of the query's weight (IDF) that the name,
//	            its extension or its folders account for
//	name side:  the share of the name's characters (without extension)
//	            that query words cover
//	score       = query side ^ NameQueryPower * name side, 0 to 1
//
// So the exact name, or the name without its extension, scores 1; a
// distinctive part of a long name scores by how much of the name it is;
// a name that only shares a common word with a long query scores little.
// A query word matches a part of the name by its folded form (or, with
// NameStemCredit, by its stem alone), a whole compound ("x11protocol" in
// x11protocol.txt), the start of a part when it is the last word typed
// (the name may not be finished), or, with less credit, anywhere inside a
// word ("port" in report.pdf).

// NameWord is one query word for name matching.
type NameWord struct {
	Text   string  // folded
	Stem   string  // its index form
	Weight float64 // IDF: rare words say more about which file is meant
	Prefix bool    // the last word typed, maybe unfinished
}

// nameWords builds the words of a query for name matching. A word typed
// more than once is one word with their weights together: the name match
// credits each occurrence alike, so the score is the same, and a pasted
// page of repeated words is matched against each name once per word.
func nameWords(texts []string, last bool, idf func(stem string) float64) []NameWord {
	out := make([]NameWord, 0, len(texts))
	at := map[NameWord]int{}
	for i, w := range texts {
		f := tokens.Fold(w)
		stem := tokens.Stem(w)
		key := NameWord{Text: f, Stem: stem, Prefix: last && i == len(texts)-1}
		if j, ok := at[key]; ok {
			out[j].Weight += idf(stem)
			continue
		}
		at[key] = len(out)
		key.Weight = idf(stem)
		out = append(out, key)
	}
	return out
}

// namePart is a piece of a name: a word, or part of a compound word.
type namePart struct {
	text, stem string
	covered    float64 // characters covered by query words
}

type nameWord struct {
	text, stem string
	parts      []namePart
}

// parsedName is a file name read for matching: its words (without the
// extension) and the extension. It is shared by every search and never
// changed: matching covers a fresh copy of the words.
type parsedName struct {
	words []nameWord
	ext   string
	// whole and base are the name's folded words, with and without the
	// extension, one space apart: what a query that spells the name out
	// (literal) equals.
	whole, base string
}

func parseName(name string) *parsedName {
	base, ext := tokens.SplitExt(name)
	return &parsedName{words: splitName(base), ext: ext, whole: literal(tokens.Words(name)), base: literal(tokens.Words(base))}
}

// literal is words folded and joined by one space: a name and a query
// that spell the same words in the same order have the same literal.
func literal(words []string) string {
	folded := make([]string, len(words))
	for i, w := range words {
		folded[i] = tokens.Fold(w)
	}
	return strings.Join(folded, " ")
}

// spells reports whether a query's literal is the whole name or the name
// without its extension, word for word, alone or after the folders it is
// in, as a path is written: "1.5.2.5.txt" spells 1.5.2.5.txt, where
// 1.5.2.txt and 1.5.5.2.txt hold the same words, and "git README.Debian"
// or "git/README.Debian" spells git's README.Debian.
func (pn *parsedName) spells(lit, folders string) bool {
	if lit == "" {
		return false
	}
	for _, name := range [2]string{pn.whole, pn.base} {
		if name == "" {
			continue
		}
		if lit == name {
			return true
		}
		// lit is "<folders> <name>": checked without building the suffix,
		// as this runs for every file a search scores.
		cut := len(lit) - len(name) - 1
		if cut > 0 && lit[cut] == ' ' && lit[cut+1:] == name && endsWithFolders(folders, lit[:cut]) {
			return true
		}
	}
	return false
}

// endsWithFolders reports whether lit is the literal of the last whole
// folders of a slash-separated path.
func endsWithFolders(folders, lit string) bool {
	tail := ""
	for rest := folders; rest != "" && len(tail) < len(lit); {
		i := strings.LastIndexByte(rest, '/')
		c := literal(tokens.Words(rest[i+1:]))
		rest = rest[:max(i, 0)]
		switch {
		case c == "":
			continue
		case tail == "":
			tail = c
		default:
			tail = c + " " + tail
		}
	}
	return tail == lit
}

// splitName reads a name as words and their parts, with their stems.
func splitName(base string) []nameWord {
	var out []nameWord
	for _, w := range tokens.Words(base) {
		nw := nameWord{text: tokens.Fold(w)}
		nw.stem = tokens.StemFolded(nw.text)
		for _, p := range tokens.SplitIdentifier(w) {
			f := tokens.Fold(p)
			nw.parts = append(nw.parts, namePart{text: f, stem: tokens.StemFolded(f)})
		}
		out = append(out, nw)
	}
	return out
}

// fresh returns a copy of the words with nothing covered yet.
func fresh(words []nameWord) []nameWord {
	out := make([]nameWord, len(words))
	for i, w := range words {
		out[i] = w
		out[i].parts = slices.Clone(w.parts)
	}
	return out
}

// readNames keeps names and folders read for matching. A search matches
// the names of hundreds of files, and mostly the same files as the search
// before it (each keystroke of a query typed): reading each name again,
// with its folders, was half of the cost of fusion. 32,768 of each hold
// the shortlists of dozens of searches in a few megabytes.
var readNames = struct {
	names   memo[*parsedName]
	folders memo[[]nameWord]
}{memo[*parsedName]{limit: 1 << 15}, memo[[]nameWord]{limit: 1 << 15}}

// memo keeps what read returns for up to limit keys; when full it starts
// again empty. Values are shared, so never changed.
type memo[V any] struct {
	mu    sync.Mutex
	limit int
	m     map[string]V
}

func (c *memo[V]) get(key string, read func(string) V) V {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = read(key)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= c.limit {
		c.m = make(map[string]V)
	}
	c.m[key] = v
	c.mu.Unlock()
	return v
}

// nameMatch returns the name score of a file and, for explanations, what
// each query word matched ("name", "extension", "folders", "" for
// nothing), in the order of words.
func nameMatch(words []NameWord, name, folders string, t Tuning) (float64, []string) {
	if len(words) == 0 || name == "" {
		return 0, nil
	}
	return matchParsed(words, readNames.names.get(name, parseName), folders, t)
}

func matchParsed(words []NameWord, pn *parsedName, folders string, t Tuning) (float64, []string) {
	nws := fresh(pn.words)
	var parent, inFolders []nameWord
	if folders != "" {
		// The parent folder (the last) is covered with the name.
		parent = fresh(readNames.folders.get(folders[strings.LastIndexByte(folders, '/')+1:], splitName))
		inFolders = readNames.folders.get(folders, splitName)
	}
	matched := make([]string, len(words))
	var credit, total float64
	for i, q := range words {
		total += q.Weight
		c := 0.0
		whole := coverWhole(nws, q, t.NameStemCredit)
		part := 0.0
		if whole < 1 { // a whole word spelt alike covers what its parts would
			part = coverPart(nws, q, t.NameStemCredit)
		}
		switch {
		case whole > 0 || part > 0:
			c, matched[i] = max(whole, part), "name"
		case q.Text == pn.ext:
			c, matched[i] = 1, "extension"
		case coverInside(nws, q, t.NameSubstringCredit):
			c, matched[i] = t.NameSubstringCredit, "name"
		default:
			if hasWord(inFolders, q) {
				c, matched[i] = t.NameFolderCredit, "folders"
				coverWhole(parent, q, 1)
				coverPart(parent, q, 1)
			}
		}
		credit += q.Weight * c
	}
	if credit == 0 || total == 0 {
		return 0, matched
	}
	// The name side: the share of the name covered, or of the parent
	// folder and the name together ("bash license" and bash/copyright).
	covered, size := coverage(nws)
	pc, ps := coverage(parent)
	nameSide := 1.0
	if size > 0 {
		nameSide = covered / size
	}
	if ps > 0 {
		nameSide = max(nameSide, (covered+pc)/(size+ps))
	}
	return math.Pow(credit/total, t.NameQueryPower) * nameSide, matched
}

// coverage returns the characters of the words' parts that query words
// cover, and all of them.
func coverage(nws []nameWord) (covered, size float64) {
	for _, w := range nws {
		for _, p := range w.parts {
			n := float64(len(p.text))
			size += n
			covered += min(p.covered, n)
		}
	}
	return covered, size
}

// wordCredit is what a query word is worth as a name word: all of it when
// spelt alike, stemCredit when only their stems agree. A person who types
// a name types it as it is written ("decoder"); "decoded" is a word
// remembered from a text, and stemming must not make decoder.go its
// answer.
func wordCredit(q NameWord, text, stem string, stemCredit float64) float64 {
	switch {
	case q.Text == text:
		return 1
	case q.Stem == stem:
		return stemCredit
	}
	return 0
}

// coverWhole matches a whole word of the name, all its parts at once, and
// returns the best credit it matched with (0: none).
func coverWhole(nws []nameWord, q NameWord, stemCredit float64) float64 {
	best := 0.0
	for i := range nws {
		w := &nws[i]
		c := wordCredit(q, w.text, w.stem, stemCredit)
		if c == 0 {
			continue
		}
		for j := range w.parts {
			p := &w.parts[j]
			p.covered = max(p.covered, c*float64(len(p.text)))
		}
		best = max(best, c)
	}
	return best
}

// coverPart matches one part of a compound word, or the start of one when
// the word may be unfinished, and returns the best credit it matched with.
func coverPart(nws []nameWord, q NameWord, stemCredit float64) float64 {
	best := 0.0
	for i := range nws {
		wordHit := false
		for j := range nws[i].parts {
			p := &nws[i].parts[j]
			if c := wordCredit(q, p.text, p.stem, stemCredit); c > 0 {
				p.covered = max(p.covered, c*float64(len(p.text)))
				best, wordHit = max(best, c), true
			} else if q.Prefix && len(q.Text) >= 2 && strings.HasPrefix(p.text, q.Text) {
				p.covered = max(p.covered, float64(len(q.Text)))
				best, wordHit = 1, true
			}
		}
		if !wordHit && q.Prefix && len(q.Text) >= 2 && strings.HasPrefix(nws[i].text, q.Text) {
			coverSpan(&nws[i], 0, len(q.Text), 1)
			best = 1
		}
	}
	return best
}

// coverInside matches the word anywhere inside a word of the name, with
// the given credit per character.
func coverInside(nws []nameWord, q NameWord, credit float64) bool {
	if len([]rune(q.Text)) < 3 || credit == 0 {
		return false
	}
	hit := false
	for i := range nws {
		if at := strings.Index(nws[i].text, q.Text); at >= 0 {
			coverSpan(&nws[i], at, at+len(q.Text), credit)
			hit = true
		}
	}
	return hit
}

// coverSpan credits the characters from..to of a word to its parts.
func coverSpan(w *nameWord, from, to int, credit float64) {
	at := 0
	for j := range w.parts {
		p := &w.parts[j]
		lo, hi := max(from, at), min(to, at+len(p.text))
		if hi > lo {
			p.covered = max(p.covered, credit*float64(hi-lo))
		}
		at += len(p.text)
	}
}

func hasWord(nws []nameWord, q NameWord) bool {
	for i := range nws {
		if wordCredit(q, nws[i].text, nws[i].stem, 1) > 0 {
			return true
		}
		for j := range nws[i].parts {
			if wordCredit(q, nws[i].parts[j].text, nws[i].parts[j].stem, 1) > 0 {
				return true
			}
		}
	}
	return false
}
