package search

import (
	"strings"

	"trove/backend/engine/text/query"
	"trove/backend/store/tokens"
)

// plan is a parsed query turned into what the engine runs.
type plan struct {
	q        query.Query
	terms    []qterm  // positive terms, deduplicated, in query order
	excluded string   // FTS expression of the excluded terms, "" for none
	stems    []string // stems of every positive word, for snippets
	prefixes []string // folded prefixes, for snippets
	roots    []string // lower-case word roots, to find the passages that hold them
	names    []string // the words as typed, for name matching (trailing stopwords dropped)
	text     string   // the words, for the embedder
}

// qterm is one positive term: a word, a phrase or a prefix, as an FTS5
// phrase.
type qterm struct {
	expr   string  // quoted FTS5 phrase, with " *" for prefixes
	stem   string  // single words: the index term, to look up its frequency
	text   string  // as shown
	count  float64 // occurrences in the query
	phrase bool
	prefix bool
	stop   bool // a stopword: kept only when the query has nothing else
	source Source
	of     string // corrections: the typed word
}

func (t qterm) single() bool { return !t.phrase && !t.prefix }

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

// quote makes text an FTS5 string literal: whatever it holds, the tokenizer
// sees it as words, never as query syntax.
func quote(text string) string { return `"` + strings.ReplaceAll(text, `"`, `""`) + `"` }

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
			c := qterm{expr: quote(strings.Join(ws, " ")), text: strings.ToLower(strings.Join(ws, " ")), count: 1, phrase: len(ws) > 1, prefix: t.Prefix}
			if t.Prefix {
				c.expr += " *"
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
			c := qterm{expr: quote(w), stem: tokens.Stem(w), text: tokens.Fold(w), count: 1}
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
	var ex []string
	for _, t := range q.Excluded {
		if ws := tokens.Words(t.Text); len(ws) > 0 {
			e := quote(strings.Join(ws, " "))
			if t.Prefix {
				e += " *"
			}
			ex = append(ex, e)
		}
	}
	p.excluded = strings.Join(ex, " OR ")
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
		key := t.expr
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
