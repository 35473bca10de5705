package search

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"trove/backend/core"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// Phase one: the candidate files. Every file holding a selective term (all
// of them in a small index), or, when even the rarest term is common, the
// newest files holding all terms; beside them, files whose names hold a
// typed word and files close in meaning.

// walk is one pass over a table's posting lists for some of the
// shortlisted files.
type walk struct {
	table int
	ms    []store.TermMatch
	stats store.TableStats
	err   error
}

// walkPieces is how many passes, at once, count the terms of n shortlisted
// files in table t. The text's pass is the longest part of completing the
// evidence (a common word's matches, all of them), and FTS5 walks only the
// files between a pass's first and last, so two passes over the two halves
// take half as long on two cores.
func walkPieces(t, n int) int {
	if t != textTable || n < 64 {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 2)
}

// split cuts ids into n runs of about the same length.
func split(ids []int64, n int) [][]int64 {
	out := make([][]int64, 0, n)
	for i := range n {
		out = append(out, ids[i*len(ids)/n:(i+1)*len(ids)/n])
	}
	return out
}

// nearby is what startNearest delivers: the query's vector (nil without
// one) and its nearest files.
type nearby struct {
	qv  []float32
	ms  []Match
	err error
}

// startNearest embeds the query and finds the files closest in meaning, in
// its own goroutine (none for a keyword search).
func (s *searcher) startNearest(ctx context.Context) <-chan nearby {
	out := make(chan nearby, 1)
	if s.req.Mode == Keyword {
		out <- nearby{}
		return out
	}
	go func() {
		var n nearby
		if err := core.Safe(func() {
			n.qv = s.eng.queryVector(ctx, s.parsed.text, s.req.Mode)
			n.ms = s.nearest(n.qv)
		}); err != nil {
			n = nearby{err: err}
		}
		out <- n
	}()
	return out
}

// addNearest records the query's vector and its nearest files.
func (s *searcher) addNearest(n nearby) error {
	if n.err != nil {
		return n.err
	}
	s.qv = n.qv
	s.addSimilar(n.ms)
	return nil
}

// match runs phase one for terms[from:] in both tables: every file holding
// a selective term (all of them in a small index), or, when even the
// rarest term is common, the newest files holding all terms. It counts
// the terms it runs, without the files' lengths, or, in the text of a
// large index, notes which it holds (presence): enough to shortlist.
func (s *searcher) match(ctx context.Context, from int) error {
	var wg sync.WaitGroup
	var errs [numTables]error
	var results [numTables][]store.TermMatch
	var stats [numTables]store.TableStats
	var order [numTables][]int
	budget := matchBudget
	if from > 0 {
		// Feedback words re-weigh the candidates more than they find new
		// ones: a smaller budget, and nothing when even the rarest is common.
		budget = feedbackBudget
	}
	for t := range numTables {
		r := s.phaseOne(t, from, budget, from == 0)
		// A filter narrows phase one's walk but not the files found by
		// meaning or by name: with one, phase two counts those by walking.
		s.whole[t] = from == 0 && r.whole && s.filter.Empty()
		if r.expr.Empty() {
			continue
		}
		order[t] = r.order
		read := s.reader(ctx, t, r)
		wg.Go(func() {
			if err := core.Safe(func() { results[t], stats[t], errs[t] = read() }); err != nil {
				errs[t] = err
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return err
	}
	for t := range numTables {
		s.apply(t, order[t], results[t], stats[t])
	}
	// Phrases and prefixes: their frequency is what phase one found.
	for i := from; i < len(s.terms); i++ {
		if s.terms[i].stem == "" {
			s.idf[i] = IDF(s.docs, s.matchCount(i))
		}
	}
	return nil
}

// reader is how phase one reads table t: counting the terms of every
// match, or, in the text of a large index that phase two walks anyway,
// noting which terms each file holds.
func (s *searcher) reader(ctx context.Context, t int, r tableRead) func() ([]store.TermMatch, store.TableStats, error) {
	// In a large index whose text phase two walks anyway (a word is left
	// out, proximity reads two words' positions, or these are feedback
	// words), the text's matches are found here, not counted: reading
	// every instance of every match was most of phase one.
	if t == textTable && s.prune && !r.limited && (!s.whole[t] || len(r.order) > 1) {
		s.whole[t] = false
		return func() ([]store.TermMatch, store.TableStats, error) {
			ms, err := s.presence(ctx, r.order)
			return ms, store.TableStats{}, err
		}
	}
	scope := store.TermScope{Filter: s.filter}
	if r.limited {
		// The commonest word adds least to the shortlist and is most of
		// the walk's reading: phase two counts it for the files
		// shortlisted.
		scope.Limit = matchBudget
		scope.HeldLast = t == textTable && len(r.order) > 1
	}
	return func() ([]store.TermMatch, store.TableStats, error) {
		return s.eng.Store.TermMatches(ctx, tables[t], r.expr, scope)
	}
}

// presence finds the text's files holding each of terms, counting each
// once there: enough to shortlist.
func (s *searcher) presence(ctx context.Context, terms []int) ([]store.TermMatch, error) {
	phrases := make([]store.Phrase, len(terms))
	for k, i := range terms {
		phrases[k] = s.terms[i].phrase
	}
	files, err := s.eng.Store.PhraseFiles(ctx, tables[textTable], phrases, s.filter)
	if err != nil {
		return nil, err
	}
	at := map[int64]int{}
	var out []store.TermMatch
	for k, ids := range files {
		for _, id := range ids {
			j, ok := at[id]
			if !ok {
				j = len(out)
				at[id] = j
				out = append(out, store.TermMatch{FileID: id, TF: make([]int32, len(terms)), Cols: 1})
			}
			out[j].TF[k] = 1
		}
	}
	return out, nil
}

// tableRead is phase one's read of one table.
type tableRead struct {
	expr  store.Expr
	order []int // the terms, in the order of expr's phrases
	// limited: even the rarest term is common, so expr holds them all and
	// the read is of the newest matchBudget files holding all of them.
	limited bool
	whole   bool // expr holds every term: their matches are walked in full
}

// phaseOne returns table t's read of terms[from:] within budget: the
// selective terms, or, when there are none and all is set, every term
// (limited).
func (s *searcher) phaseOne(t, from, budget int, all bool) tableRead {
	var sel, common []int
	for i := from; i < len(s.terms); i++ {
		if s.weight[i] > 0 {
			sel = append(sel, i)
		}
	}
	if len(sel) == 0 {
		return tableRead{}
	}
	if s.prune {
		slices.SortStableFunc(sel, func(a, b int) int { return cmp.Compare(s.df[t][s.terms[a].stem], s.df[t][s.terms[b].stem]) })
		total := 0
		cut := len(sel)
		for k, i := range sel {
			d := s.df[t][s.terms[i].stem] // 0 for phrases and prefixes, which are selective
			if total+d > budget {
				cut = k
				break
			}
			total += d
		}
		sel, common = sel[:cut], sel[cut:]
		slices.Sort(sel)
		slices.Sort(common)
	}
	var parts []store.Phrase
	if len(sel) == 0 {
		if !all {
			return tableRead{}
		}
		// The commonest word last, where the text's walk counts it
		// unread (HeldLast).
		slices.SortStableFunc(common, func(a, b int) int { return cmp.Compare(s.df[t][s.terms[a].stem], s.df[t][s.terms[b].stem]) })
		for _, i := range common {
			parts = append(parts, s.terms[i].phrase)
		}
		return tableRead{expr: store.All(parts...), order: common, limited: true}
	}
	for _, i := range sel {
		parts = append(parts, s.terms[i].phrase)
	}
	order := slices.Clone(sel)
	if t == fileTable {
		// Common words still find names and titles, which are short and
		// few per word; their other columns are counted in phase two.
		for _, i := range common {
			p := s.terms[i].phrase
			p.In = []store.Column{store.ColName, store.ColTitle}
			parts = append(parts, p)
			order = append(order, i)
		}
	}
	return tableRead{expr: store.Any(parts...), order: order, whole: len(common) == 0}
}

// named is what startNameMatches delivers.
type named struct {
	ids []int64
	err error
}

// startNameMatches finds, in its own goroutine, the files whose names hold
// a typed word inside one of their words ("port" in report.pdf).
func (s *searcher) startNameMatches(ctx context.Context) <-chan named {
	out := make(chan named, 1)
	subs := s.nameSubstrings()
	if len(subs) == 0 {
		out <- named{}
		return out
	}
	go func() {
		var n named
		if err := core.Safe(func() { n.ids, n.err = s.eng.Store.NameMatches(ctx, subs, nameCandidates) }); err != nil {
			n.err = err
		}
		out <- n
	}()
	return out
}

// addNameMatches records the files found by name.
func (s *searcher) addNameMatches(n named) error {
	if n.err != nil {
		return n.err
	}
	for _, id := range n.ids {
		s.cand(id)
		s.byName[id] = true
	}
	return nil
}

// nameSubstrings are what the name lookup looks for.
func (s *searcher) nameSubstrings() []string {
	if s.tuning.NameSubstringCredit == 0 {
		return nil
	}
	// The words, and each token as typed when it is more than a word
	// ("1.7.0.6", "heap_test.go"): its words alone may be too short or too
	// common to find the name.
	// A long query looks names up only with the words its keyword side
	// kept: a pasted page names no file, and each word is a trigram query
	// (a 10,000-character query spent seconds here).
	kept := map[string]bool{}
	for _, t := range s.terms {
		kept[t.stem] = true
	}
	long := len(s.words) > s.tuning.QueryTerms && s.tuning.QueryTerms > 0
	var subs []string
	seen := map[string]bool{}
	add := func(sub string) {
		if !seen[sub] {
			seen[sub] = true
			subs = append(subs, sub)
		}
	}
	for _, w := range s.words {
		if !long || kept[w.Stem] {
			add(w.Text)
		}
	}
	for _, t := range s.parsed.q.Terms {
		if !long && !t.Phrase && len(tokens.Words(t.Text)) > 1 {
			add(t.Text)
		}
	}
	return subs
}

// nearest returns the files closest in meaning to qv.
func (s *searcher) nearest(qv []float32) []Match {
	if qv == nil || s.req.Mode == Keyword {
		return nil
	}
	return s.eng.Vectors.Search(qv, semanticCandidates)
}
