package search

import (
	"strings"

	"trove/backend/query"
	"trove/backend/tokens"
)

// plan is a parsed query turned into what the engine runs.
type plan struct {
	q        query.Query
	clauses  []clause // positive clauses, one FTS phrase each
	excluded string   // FTS expression of the excluded terms, "" for none
	stems    []string // stems of every positive word, for snippets
	prefixes []string // folded prefixes, for snippets
	roots    []string // lower-case word roots, to find the passages that hold them
	text     string   // the words, for the embedder
}

// clause is one positive FTS phrase.
type clause struct {
	expr   string // quoted FTS5 phrase, with " *" for prefixes
	stem   string // for single words: the index term, to look up its frequency
	phrase bool
	prefix bool
}

// quote makes text an FTS5 string literal: whatever it holds, the tokenizer
// sees it as words, never as query syntax.
func quote(text string) string { return `"` + strings.ReplaceAll(text, `"`, `""`) + `"` }

func newPlan(q query.Query) plan {
	p := plan{q: q}
	var words []string
	var allStop []clause
	for _, t := range q.Terms {
		ws := tokens.Words(t.Text)
		if len(ws) == 0 {
			continue
		}
		words = append(words, ws...)
		if t.Phrase || t.Prefix {
			c := clause{expr: quote(strings.Join(ws, " ")), phrase: len(ws) > 1, prefix: t.Prefix}
			if t.Prefix {
				c.expr += " *"
				prefix := tokens.Fold(ws[len(ws)-1])
				p.prefixes = append(p.prefixes, prefix)
				p.roots = append(p.roots, prefix)
				ws = ws[:len(ws)-1]
			}
			p.addStems(ws)
			p.clauses = append(p.clauses, c)
			continue
		}
		for _, w := range ws {
			c := clause{expr: quote(w), stem: tokens.Stem(w)}
			if tokens.IsStopword(w) {
				allStop = append(allStop, c)
				continue
			}
			p.addStems([]string{w})
			p.clauses = append(p.clauses, c)
		}
	}
	if len(p.clauses) == 0 { // a query of stopwords only ("the who") searches them
		p.clauses = allStop
		for _, c := range allStop {
			p.stems = append(p.stems, c.stem)
		}
	}
	p.clauses = dedupe(p.clauses)
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

func dedupe(cs []clause) []clause {
	seen := map[string]bool{}
	out := cs[:0]
	for _, c := range cs {
		key := c.expr
		if c.stem != "" {
			key = "stem:" + c.stem
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

// or joins clauses into an FTS5 OR expression.
func or(cs []clause) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.expr
	}
	return strings.Join(parts, " OR ")
}

// nameExpr is the expression for file names and titles: the clauses, plus
// the last plain word as a prefix, so typing the start of a name finds it.
// Words whose document frequency in df (nil for a small index) exceeds
// matchBudget are matched in names and titles only: in summaries, keywords
// and folder names they would match thousands of files, each costing a
// BM25 score.
func (p plan) nameExpr(df map[string]int) string {
	parts := make([]string, len(p.clauses))
	for i, c := range p.clauses {
		parts[i] = c.expr
		if c.stem != "" && df[c.stem] > matchBudget {
			parts[i] = "{name title} : (" + c.expr + ")"
		}
	}
	expr := strings.Join(parts, " OR ")
	if n := len(p.q.Terms); n > 0 {
		last := p.q.Terms[n-1]
		if ws := tokens.Words(last.Text); !last.Phrase && !last.Prefix && len(ws) > 0 && len([]rune(ws[len(ws)-1])) >= 2 {
			expr += " OR " + quote(ws[len(ws)-1]) + " *"
		}
	}
	return expr
}

// natural reports whether the query has plain words: feedback helps
// natural-language queries and would blur explicit phrases and prefixes.
func (p plan) natural() bool {
	for _, c := range p.clauses {
		if !c.phrase && !c.prefix {
			return true
		}
	}
	return false
}
