package search

import (
	"context"
	"errors"
	"slices"
	"sync"
	"trove/backend/core"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// Phase two: the shortlist, whose evidence is completed (every term in
// every field, lengths, places, closest passages) before fusion ranks it.

// query is what fusion scores against.
func (s *searcher) query() Query {
	q := Query{Words: s.words, Literal: s.literal, Mode: s.req.Mode}
	for i, t := range s.terms {
		term := Term{Text: t.text, Weight: s.weight[i], IDF: s.idf[i], Source: t.source, Of: t.of}
		if s.hasOtherForms(i) {
			term.ExactIDF = IDF(s.docs, s.exactDF[t.stem])
		}
		q.Terms = append(q.Terms, term)
	}
	return q
}

// fuse shortlists the candidates by what is known, completes their
// evidence and ranks them.
func (s *searcher) fuse(ctx context.Context) ([]Scored, error) {
	q := s.query()
	list := shortlist(q, s.cands, s.byName, s.col, s.tuning)
	if err := s.completeEvidence(ctx, list); err != nil {
		return nil, err
	}
	short := make([]*Candidate, 0, len(list))
	for _, id := range list {
		if s.placed[id] { // files deleted meanwhile have no place
			short = append(short, s.cands[id])
		}
	}
	return Fuse(q, short, s.col, s.tuning), nil
}

// shortlist returns the files whose evidence is completed and ranked: the
// shortlisted best by the words phase one counted, and every file found by
// name or by meaning. Those join whatever their rank, so the shortlist's
// places go by the words alone: ranked with their meaning, they took
// places that files holding more of the query's words needed.
//
// A file found by meaning joins only if fusion would keep it on what phase
// one knows (kept): in a hybrid search one neither close in meaning nor
// holding a typed word could only become a match by common words, and a
// file holding nothing but common words is what pruning may miss already;
// in an index phase one read whole, it matches nothing.
func shortlist(q Query, cands map[int64]*Candidate, byName map[int64]bool, col Collection, t Tuning) []int64 {
	byWords := q
	if q.Mode == Hybrid {
		byWords.Mode = Keyword
	}
	all := make([]*Candidate, 0, len(cands))
	for _, c := range cands {
		all = append(all, c)
	}
	partial := fuseBest(byWords, all, col, t, shortlisted)
	list := make([]int64, 0, shortlisted+nameCandidates+semanticCandidates)
	in := map[int64]bool{}
	for _, r := range partial {
		list = append(list, r.C.ID)
		in[r.C.ID] = true
	}
	for id, c := range cands {
		if in[id] {
			continue
		}
		if byName[id] || c.HasVector && kept(q, c, matchesTyped(q, c, 0), t) {
			list = append(list, id)
		}
	}
	slices.Sort(list)
	return list
}

// testHookWalkAll makes completeEvidence walk every table, for tests that
// compare the two ways.
var testHookWalkAll bool

// completeEvidence counts every term in every field of the given files,
// with their lengths (one pass over each term's matches per table), loads
// their places and finds their closest passages. A table phase one walked
// in full already holds every file's counts: only the lengths are read
// there (a row look-up a file instead of a walk over every match), unless
// the text's proximity needs the positions of two or more words.
func (s *searcher) completeEvidence(ctx context.Context, ids []int64) error {
	c := s.completion(ids)
	got, err := c.read(ctx, s.eng.Store)
	if err != nil {
		return err
	}
	if s.qv != nil && s.req.Mode != Keyword {
		got.best = s.eng.Vectors.Best(s.qv, ids)
	}
	s.evidence.complete(c, got, len(s.terms))
	return nil
}

// completion is what completing the evidence of some files reads.
type completion struct {
	ids   []int64
	terms []int      // the terms counted, in the order of expr's phrases
	expr  store.Expr // their phrases
	// twins are the terms the text counts again as written (otherForms),
	// whose phrases follow the terms' in textExpr.
	twins    []int
	textExpr store.Expr
	near     []float64 // the leading typed terms' IDFs, for the text's proximity
	// proximity says whether the text's walk reads near.
	proximity bool
	// walk says, per table, whether the terms' matches are walked for the
	// files; otherwise (with terms) only their lengths are read.
	walk    [numTables]bool
	missing []int64 // files whose places are not known yet
}

// completion decides what completing the evidence of ids reads.
func (s *searcher) completion(ids []int64) completion {
	c := completion{ids: ids, proximity: s.tuning.Proximity > 0}
	for i, t := range s.terms {
		if s.weight[i] > 0 {
			c.terms = append(c.terms, i)
			c.expr.Phrases = append(c.expr.Phrases, t.phrase)
			if t.source != Feedback && len(c.near) == len(c.terms)-1 {
				c.near = append(c.near, s.idf[i])
			}
		}
	}
	c.textExpr = c.expr
	c.twins = s.otherForms(c.terms)
	for _, i := range c.twins {
		exact := s.terms[i].phrase
		exact.Exact = true
		c.textExpr.Phrases = append(slices.Clip(c.textExpr.Phrases), exact)
	}
	for _, id := range ids {
		if !s.placed[id] {
			c.missing = append(c.missing, id)
		}
	}
	if len(c.terms) > 0 {
		for t := range numTables {
			// A table phase one walked in full needs only the files'
			// lengths, unless the text's proximity needs positions.
			lengthsOnly := s.whole[t] && (t != textTable || len(c.near) <= 1) && !testHookWalkAll
			c.walk[t] = !lengthsOnly
		}
	}
	return c
}

// otherForms are the terms among terms that some files' text holds only
// in another language's form (hasOtherForms).
func (s *searcher) otherForms(terms []int) []int {
	var out []int
	for _, i := range terms {
		if s.hasOtherForms(i) {
			out = append(out, i)
		}
	}
	return out
}

// hasOtherForms reports whether some files' text holds term i only in
// another form than as written: a typed word (or correction) of one word,
// as the index stems it, not CJK (which has no other form), that fewer
// files hold as written than in its commonest form.
func (s *searcher) hasOtherForms(i int) bool {
	t := s.terms[i]
	if s.tuning.OtherForm >= 1 || t.source == Feedback || !t.single() || len(t.phrase.Words) != 1 || tokens.HasCJK(t.phrase.Words[0]) {
		return false
	}
	exact, ok := s.exactDF[t.stem]
	return ok && exact < s.df[textTable][t.stem]
}

// completed is what a completion read.
type completed struct {
	matches [numTables][]store.TermMatch
	stats   [numTables]store.TableStats
	lengths [numTables]map[int64][]int32
	places  map[int64]store.Place
	best    map[int64]Match // the files' closest passages
}

// read runs the completion's reads at once: each table's walk (the text's
// in pieces, see walkPieces) or lengths, and the places.
func (c completion) read(ctx context.Context, ix Evidence) (completed, error) {
	var got completed
	var wg sync.WaitGroup
	var walks []*walk
	var lengthErrs [numTables]error
	var placesErr error
	for t := range numTables {
		switch {
		case len(c.terms) == 0:
		case !c.walk[t]:
			wg.Go(func() {
				if err := core.Safe(func() { got.lengths[t], lengthErrs[t] = ix.Lengths(ctx, tables[t], c.ids) }); err != nil {
					lengthErrs[t] = err
				}
			})
		default:
			for _, part := range split(c.ids, walkPieces(t, len(c.ids))) {
				w := &walk{table: t}
				walks = append(walks, w)
				wg.Go(func() { w.run(ctx, ix, c, part) })
			}
		}
	}
	wg.Go(func() {
		if err := core.Safe(func() { got.places, placesErr = ix.Places(ctx, c.missing) }); err != nil {
			placesErr = err
		}
	})
	wg.Wait()
	errs := append([]error{placesErr}, lengthErrs[:]...)
	for _, w := range walks {
		errs = append(errs, w.err)
		got.matches[w.table] = append(got.matches[w.table], w.ms...)
		if got.stats[w.table].Tokens == nil {
			got.stats[w.table] = w.stats
		}
	}
	return got, errors.Join(errs...)
}

// run walks the completion's expression in w's table for the files part.
func (w *walk) run(ctx context.Context, ix Evidence, c completion, part []int64) {
	if err := core.Safe(func() {
		scope := store.TermScope{Only: part, Lengths: true}
		if w.table == textTable && c.proximity {
			scope.Near = c.near
		}
		expr := c.expr
		if w.table == textTable {
			expr = c.textExpr
		}
		w.ms, w.stats, w.err = ix.TermMatches(ctx, tables[w.table], expr, scope)
	}); err != nil {
		w.err = err
	}
}

// complete records what a completion read. A walked table's counts start
// again from scratch: a file phase one did not see there holds none of the
// terms there. A table not walked keeps phase one's counts and takes the
// lengths read.
func (ev *evidence) complete(c completion, got completed, terms int) {
	for _, id := range c.ids {
		cand := ev.cands[id]
		for len(cand.TF) < terms {
			cand.TF = append(cand.TF, [numFields]int32{})
		}
		for t := range numTables {
			cols := tables[t].Columns()
			first, end := cols[0], cols[0]+store.Column(len(cols)) // a table's columns follow each other
			switch {
			case c.walk[t]:
				for i := range cand.TF {
					clear(cand.TF[i][first:end])
				}
			case got.lengths[t] != nil:
				clear(cand.Len[first:end])
				copy(cand.Len[first:end], got.lengths[t][id])
			}
		}
		if c.walk[textTable] {
			cand.Near, cand.Other = nil, nil
		}
	}
	for t := range numTables {
		if c.walk[t] {
			ev.apply(t, c.terms, got.matches[t], got.stats[t])
		}
	}
	if c.walk[textTable] {
		ev.applyOther(len(c.terms), c.twins, got.matches[textTable])
	}
	for id, m := range got.best {
		cand := ev.cands[id]
		cand.Similarity, cand.Passage, cand.HasVector = m.Similarity, m.Ord, true
	}
	ev.place(got.places)
}
