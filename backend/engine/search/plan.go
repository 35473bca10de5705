package search

import (
	"fmt"
	"strings"

	"trove/backend/engine/text/query"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// plan is a parsed query turned into what the engine runs.
type plan struct {
	q        query.Query
	terms    []qterm    // positive terms, deduplicated, in query order
	excluded store.Expr // the excluded terms: files holding any are dropped
	stems    []string   // stems of every positive word, for snippets
	prefixes []string   // folded prefixes, for snippets
	roots    []string   // lower-case word roots, to find the passages that hold them
	typed    []string   // the words of stems, as typed: their forms in other languages are marked too
	names    []string   // the words as typed, for name matching (trailing stopwords dropped)
	text     string     // the words, for the embedder
}

// qterm is one positive term: a word, a phrase or a prefix, as the index
// matches it.
type qterm struct {
	phrase   store.Phrase
	stem     string  // single words: the index term, to look up its frequency
	text     string  // as shown
	count    float64 // occurrences in the query
	isPhrase bool
	prefix   bool
	stop     bool // a stopword: kept only when the query has nothing else
	source   Source
	of       string // corrections: the typed word
}

func (t qterm) single() bool { return !t.isPhrase && !t.prefix }

// word is the term of one word, as typed or as the index holds it.
func word(w string) store.Phrase { return store.Phrase{Words: []string{w}} }

// wordCount counts the query's terms that carry meaning: stopwords aside.
func (p plan) wordCount() int {
	n := 0
	for _, t := range p.terms {
		if !t.stop {
			n++
		}
	}
	return n
}

func newPlan(q query.Query) plan {
	p := plan{q: q}
	var words []string
	var allStop []qterm
	for _, t := range q.Terms {
		ws := tokens.Words(t.Text)
		if len(ws) == 0 {
			continue
		}
		words = append(words, ws...)
		if t.Phrase || t.Prefix {
			c := qterm{phrase: store.Phrase{Words: ws, Prefix: t.Prefix}, text: strings.ToLower(strings.Join(ws, " ")), count: 1,
				isPhrase: len(ws) > 1, prefix: t.Prefix}
			if t.Prefix {
				c.text += "*"
				prefix := tokens.Fold(ws[len(ws)-1])
				p.prefixes = append(p.prefixes, prefix)
				p.roots = append(p.roots, prefix)
				ws = ws[:len(ws)-1]
			}
			p.addStems(ws)
			p.terms = append(p.terms, c)
			continue
		}
		for _, w := range ws {
			c := qterm{phrase: word(w), stem: tokens.Stem(w), text: tokens.Fold(w), count: 1}
			if tokens.IsStopword(w) {
				c.stop = true
				allStop = append(allStop, c)
				continue
			}
			p.addStems([]string{w})
			p.terms = append(p.terms, c)
		}
	}
	if len(p.terms) == 0 { // a query of stopwords only ("the who") searches them
		p.terms = allStop
		for _, c := range allStop {
			p.stems = append(p.stems, c.stem)
		}
	}
	p.terms = merge(p.terms)
	for _, t := range q.Excluded {
		if ws := tokens.Words(t.Text); len(ws) > 0 {
			p.excluded.Phrases = append(p.excluded.Phrases, store.Phrase{Words: ws, Prefix: t.Prefix})
		}
	}
	// A trailing stopword is a word being typed or a dangling "of the": it
	// says nothing about names or meaning.
	for len(words) > 1 && tokens.IsStopword(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	p.names = words
	p.text = strings.Join(words, " ")
	return p
}

func (p *plan) addStems(ws []string) {
	for _, w := range ws {
		stem := tokens.Stem(w)
		p.stems = append(p.stems, stem)
		p.typed = append(p.typed, w)
		p.roots = append(p.roots, root(tokens.Fold(w), stem))
	}
}

// root is what a word's forms share: the common prefix of the word and its
// stem ("studies"/"studi" -> "studi", "study"/"studi" -> "stud"), or the
// word itself when that is too short to mean anything.
func root(word, stem string) string {
	n := 0
	for n < len(word) && n < len(stem) && word[n] == stem[n] {
		n++
	}
	if n < 3 {
		return word
	}
	return word[:n]
}

// merge folds repeated terms into one, counting occurrences: a long query
// that says "boundary layer" five times weighs those words five times.
func merge(ts []qterm) []qterm {
	at := map[string]int{}
	out := ts[:0]
	for _, t := range ts {
		key := fmt.Sprint(t.phrase.Words, t.phrase.Prefix)
		if t.stem != "" {
			key = "stem:" + t.stem
		}
		if i, ok := at[key]; ok {
			out[i].count += t.count
			continue
		}
		at[key] = len(out)
		out = append(out, t)
	}
	return out
}

// natural reports whether the query has plain words: feedback helps
// natural-language queries and would blur explicit phrases and prefixes.
func (p plan) natural() bool {
	for _, t := range p.terms {
		if t.single() {
			return true
		}
	}
	return false
}

// newPlanText plans a query string.
func newPlanText(s string) plan { return newPlan(query.Parse(s)) }
