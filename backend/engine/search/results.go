package search

import (
	"context"
	"slices"
)

// results applies what must hold of every result (the filter, excluded
// words, the path glob, the minimum score) before cutting to the limit,
// then loads the files, their snippets and explanations.
func (s *searcher) results(ctx context.Context, ranked []Scored) ([]Result, error) {
	ids := make([]int64, len(ranked))
	for i, r := range ranked {
		ids[i] = r.C.ID
	}
	var allowed map[int64]bool
	if !s.filter.Empty() {
		var err error
		if allowed, err = s.eng.Store.Allowed(ctx, ids, s.filter); err != nil {
			return nil, err
		}
	}
	excluded, err := s.excludedAmong(ctx, ids)
	if err != nil {
		return nil, err
	}
	limit := max(s.req.Limit, 1)
	var keep []Scored
	for _, r := range ranked {
		if len(keep) == limit {
			break
		}
		if allowed != nil && !allowed[r.C.ID] || excluded[r.C.ID] || r.Score < s.req.MinScore ||
			!s.req.paths.ok(r.C.Path) {
			continue
		}
		keep = append(keep, r)
	}
	ids = ids[:0]
	for _, r := range keep {
		ids = append(ids, r.C.ID)
	}
	files, err := s.eng.Store.IndexedFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(keep))
	q := s.query()
	for _, r := range keep {
		f, ok := files[r.C.ID]
		if !ok {
			continue
		}
		res := Result{File: f, Score: r.Score, Keyword: r.Keyword, Semantic: r.Semantic, Matched: r.Matched}
		if s.req.Explain {
			x := explain(q, r, s.col, s.tuning)
			res.Explain = &x
		}
		out = append(out, res)
	}
	if s.req.Snippets {
		s.eng.snippets(ctx, out, s.snippetPlan(), s.cands)
	}
	return out, nil
}

// snippetPlan is the plan with the corrections' words, which snippets
// mark as they mark the typed ones.
func (s *searcher) snippetPlan() plan {
	p := s.parsed
	p.stems, p.roots = slices.Clip(p.stems), slices.Clip(p.roots)
	for _, t := range s.terms {
		if t.source == Corrected {
			p.stems = append(p.stems, t.stem)
			p.roots = append(p.roots, root(t.text, t.stem))
		}
	}
	return p
}

// Explanation says why a file ranks where it does.
type Explanation struct {
	Terms      []TermExplanation
	Name       []NameExplanation // query words and what of the place they matched
	Text       float64           // BM25F share of what the query could match (0 to 1), plus Proximity
	Proximity  float64           // the part of Text for the query's words standing close together
	NameScore  float64           // name match, 0 to 1
	NameExact  float64           // added to NameScore when the query spells the name out
	NameWeight float64           // Keyword = Text + NameWeight * (NameScore + NameExact)
	Keyword    float64
	Semantic   float64
	Similarity float64  // cosine similarity of the closest passage (when it has vectors)
	Feedback   []string // words pseudo-relevance feedback added to the query
}

// TermExplanation is one query term that matched the file.
type TermExplanation struct {
	Term   string
	Source Source
	Of     string           // for corrections: the typed word
	Fields map[string]int32 // occurrences per field
	Score  float64          // its part of Text
}

// NameExplanation is a query word and what it matched of the file's
// place: "name", "extension", "folders".
type NameExplanation struct {
	Word    string
	Matched string
}

func explain(q Query, r Scored, col Collection, t Tuning) Explanation {
	x := Explanation{Text: r.Text, NameScore: r.Name, NameWeight: t.NameWeight, Keyword: r.Keyword, Semantic: r.Semantic}
	if r.Exact {
		x.NameExact = t.NameExact
	}
	if r.C.HasVector {
		x.Similarity = r.C.Similarity
	}
	most := maxScore(q.Terms)
	if q.Mode != Semantic {
		x.Proximity = nearPart(q.Terms, r.C, col, t, most)
	}
	for i, term := range q.Terms {
		if term.Source == Feedback {
			x.Feedback = append(x.Feedback, term.Text)
		}
		if !r.C.holds(i) {
			continue
		}
		te := TermExplanation{Term: term.Text, Source: term.Source, Of: term.Of, Fields: map[string]int32{}}
		for f, n := range r.C.TF[i] {
			if n > 0 {
				te.Fields[fieldName(Field(f))] = n
			}
		}
		if most > 0 {
			te.Score = termScore(term, r.C, i, col, t) / most
		}
		x.Terms = append(x.Terms, te)
	}
	if q.Mode != Semantic {
		_, matched := r.C.nameScore(q.Words, t)
		for i, m := range matched {
			if m != "" {
				x.Name = append(x.Name, NameExplanation{Word: q.Words[i].Text, Matched: m})
			}
		}
	}
	return x
}

// excludedAmong reports which of the files ids the query's excluded words
// match (none when it excludes nothing).
func (s *searcher) excludedAmong(ctx context.Context, ids []int64) (map[int64]bool, error) {
	if s.parsed.excluded.Empty() || len(ids) == 0 {
		return nil, nil
	}
	return s.eng.Store.ExcludedAmong(ctx, s.parsed.excluded, ids)
}
