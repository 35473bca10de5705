package search

import "trove/backend/store"

// keywords is the query's keyword side once weighed (weigh.go): its terms
// and, per term, its weight in the query and its IDF over the index.
type keywords struct {
	terms   []qterm
	weight  []float64 // query weight per term
	idf     []float64
	df      [numTables]map[string]int
	docs    int // files in the index, for IDF
	words   []NameWord
	literal string // the words for name matching, folded, in order (see literal)
	prune   bool   // the index is large: phase one reads only selective terms
	// exactDF is, per typed word's stem, how many files' text holds the
	// word as written (its English stem): fewer than df's count when some
	// hold it only in another language's form.
	exactDF map[string]int
}

// evidence is what retrieval has learned of the candidate files: their
// counts per term and field, lengths, places and closest passages, and the
// collection's average lengths. Fusion reads it and nothing else.
type evidence struct {
	cands  map[int64]*Candidate
	placed map[int64]bool
	byName map[int64]bool // found inside a name
	col    Collection
	colSet [numTables]bool
	// whole is set for a table when phase one walked every term's matches
	// there in full: the terms' counts of any file are then known, and
	// completing the evidence needs only lengths.
	whole [numTables]bool
}

func newEvidence() evidence {
	return evidence{cands: map[int64]*Candidate{}, placed: map[int64]bool{}, byName: map[int64]bool{}}
}

// cand is the candidate id, added when new.
func (ev *evidence) cand(id int64) *Candidate {
	c, ok := ev.cands[id]
	if !ok {
		c = &Candidate{ID: id}
		ev.cands[id] = c
	}
	return c
}

// addSimilar records files close in meaning and their closest passages.
func (ev *evidence) addSimilar(ms []Match) {
	for _, m := range ms {
		c := ev.cand(m.FileID)
		c.Similarity, c.Passage, c.HasVector = m.Similarity, m.Ord, true
	}
}

// apply records a table's matches of terms (in the order of the
// expression's phrases): term counts are set (not added), as a later
// count of the same term is the complete one.
func (ev *evidence) apply(t int, terms []int, ms []store.TermMatch, stats store.TableStats) {
	cols := tables[t].Columns()
	if stats.Tokens != nil && !ev.colSet[t] {
		ev.colSet[t] = true
		if stats.Rows > 0 {
			for k, tok := range stats.Tokens {
				ev.col.AvgLen[cols[k]] = float64(tok) / float64(stats.Rows)
			}
		}
	}
	for _, m := range ms {
		c := ev.cand(m.FileID)
		if m.Len != nil {
			for k, col := range cols {
				c.Len[col] = m.Len[k]
			}
		}
		for k, i := range terms {
			for len(c.TF) <= i {
				c.TF = append(c.TF, [numFields]int32{})
			}
			for n, col := range cols {
				c.TF[i][col] = m.Freq(k, n)
			}
			if k < len(m.Near) {
				for len(c.Near) <= i {
					c.Near = append(c.Near, 0)
				}
				c.Near[i] = float64(m.Near[k])
			}
		}
	}
}

// applyOther records, for each term of twins, its occurrences in each
// file's text in another language's form only: its count there less its
// twin's, the twins' counts following the n terms' in each match.
func (ev *evidence) applyOther(n int, twins []int, ms []store.TermMatch) {
	if len(twins) == 0 {
		return
	}
	for _, m := range ms {
		c := ev.cand(m.FileID)
		for j, i := range twins {
			if i >= len(c.TF) {
				continue
			}
			for len(c.Other) <= i {
				c.Other = append(c.Other, 0)
			}
			c.Other[i] = max(0, c.TF[i][FieldText]-m.Freq(n+j, 0))
		}
	}
}

// matchCount is how many candidates hold term i anywhere.
func (ev *evidence) matchCount(i int) int {
	n := 0
	for _, c := range ev.cands {
		if c.holds(i) {
			n++
		}
	}
	return n
}

// place records where files lie.
func (ev *evidence) place(places map[int64]store.Place) {
	for id, pl := range places {
		c := ev.cands[id]
		c.Name, c.Folders, c.Path = pl.Filename, pl.Folders, pl.Path
		ev.placed[id] = true
	}
}
