package search

import (
	"cmp"
	"math"
	"slices"

	"trove/backend/store"
)

// Ranking is a pure function: retrieval (engine.go, retrieve.go) gathers
// candidates and what the index knows about them; Fuse scores them from
// that alone, so a file's score never depends on how it was found, and
// Explain says how each part came about.
//
//	keyword_score  = text + NameWeight * (name + NameExact if the query
//	                 spells the name out)
//	text           = BM25F over the fields, divided by the most a file
//	                 could score on the query (0 to 1)
//	name           = how well the query and the file's name describe each
//	                 other (names.go, 0 to 1)
//	semantic_score = exp(-DistanceScale * distance) of the closest passage
//	score          = keyword_score + semantic_score

// Field is a part of a file that query words can match: a column of the
// index (store.Column), which owns them.
type Field = store.Column

// The fields. Text is the file's content; the others come from its name,
// place and card.
const (
	FieldText     = store.ColText
	FieldName     = store.ColName
	FieldFolders  = store.ColFolders
	FieldTitle    = store.ColTitle
	FieldKeywords = store.ColKeywords
	FieldSummary  = store.ColSummary
	numFields     = store.NumColumns
)

var fieldNames = [numFields]string{"text", "name", "folders", "title", "keywords", "summary"}

// fieldName is a field's name in explanations.
func fieldName(f Field) string { return fieldNames[f] }

// Source says where a query term comes from.
type Source int

// Sources of query terms.
const (
	Typed     Source = iota // written in the query
	Corrected               // a correction of a typed word the index lacks
	Feedback                // added by pseudo-relevance feedback
)

// Term is one weighted keyword of a query: a word, a phrase or a prefix.
type Term struct {
	Text   string  // as shown in explanations
	Weight float64 // its share of the query: occurrences, or a feedback weight
	IDF    float64 // BM25 inverse document frequency over the index
	// ExactIDF, when above IDF, is the IDF of the word as written, which
	// fewer files hold than its commonest form: a file holding it so is
	// weighed by it, as a search engine expanding a word to its forms
	// weighs each form by its own rarity (0: as IDF).
	ExactIDF float64
	Source   Source
	Of       string // for corrections: the typed word
}

// Query is what Fuse scores files against.
type Query struct {
	Terms []Term
	Words []NameWord // for name matching
	// Literal is the words typed for name matching, folded, in order,
	// one space apart (see literal): a name it spells out is exact.
	Literal string
	Mode    Mode
}

// Candidate is what retrieval learned about one file.
type Candidate struct {
	ID  int64
	TF  [][numFields]int32 // per query term, occurrences per field
	Len [numFields]int32   // tokens per field
	// Near is, per query term, how close it stands to the query's other
	// terms in the text (store.TermMatch.Near); known once the evidence is
	// complete.
	Near []float64
	// Other is, per query word, how many of its occurrences in the text
	// are in another language's form only, not as written (a French
	// file's "exige" for "exigido"); known once the evidence is complete,
	// and only for words some files hold so.
	Other []int32
	// Path, Name and Folders place the file (folders below its watched
	// folder, slash-separated).
	Path, Name, Folders string
	Similarity          float64 // cosine similarity of its closest passage
	Passage             int32   // that passage
	HasVector           bool

	parsed *parsedName // Name, read for matching
}

// holds reports whether the file holds query term i in any field.
func (c *Candidate) holds(i int) bool {
	return i < len(c.TF) && c.TF[i] != ([numFields]int32{})
}

// nameScore is the candidate's name match.
func (c *Candidate) nameScore(words []NameWord, t Tuning) (float64, []string) {
	if len(words) == 0 || c.Name == "" {
		return 0, nil
	}
	return matchParsed(words, c.parsedName(), c.Folders, t)
}

// exactName reports whether the query spells the candidate's name out.
func (c *Candidate) exactName(q Query) bool {
	return c.Name != "" && c.parsedName().spells(q.Literal, c.Folders)
}

func (c *Candidate) parsedName() *parsedName {
	if c.parsed == nil {
		c.parsed = readNames.names.get(c.Name, parseName)
	}
	return c.parsed
}

// Collection is what fusion knows about the whole index.
type Collection struct {
	AvgLen [numFields]float64 // mean tokens per field
}

// Scored is a fused result.
type Scored struct {
	C        *Candidate
	Score    float64
	Keyword  float64 // text + NameWeight * (name + NameExact when exact)
	Semantic float64
	Text     float64 // BM25F over the most the query allows, 0 to 1
	Name     float64 // name match, 0 to 1
	Exact    bool    // the query spells the name out
	// Matched: the file holds a word of the query as typed or corrected,
	// or matches by name; a file found by meaning alone (or by feedback
	// words alone) did not match. A semantic search looks no word up, so
	// there it says nothing.
	Matched bool
}

// Fuse scores the candidates and sorts them best first (ties by id). In
// hybrid mode a file that matches no query word is kept only when its
// closest passage is at least SemanticOnlyMin similar to the query
// (words added by feedback do not count as a match).
func Fuse(q Query, cands []*Candidate, col Collection, t Tuning) []Scored {
	out := score(q, cands, col, t)
	slices.SortFunc(out, byScore)
	return out
}

// fuseBest is Fuse for the best k only: a shortlist of hundreds among
// thousands of candidates needs no order below it.
func fuseBest(q Query, cands []*Candidate, col Collection, t Tuning, k int) []Scored {
	return best(score(q, cands, col, t), k)
}

func score(q Query, cands []*Candidate, col Collection, t Tuning) []Scored {
	most := maxScore(q.Terms)
	out := make([]Scored, 0, len(cands))
	for _, c := range cands {
		s := Scored{C: c}
		if q.Mode != Semantic {
			s.Text = textScore(q, c, col, t, most)
			s.Name, _ = c.nameScore(q.Words, t)
			s.Exact = s.Name > 0 && c.exactName(q)
			s.Keyword = s.Text + t.NameWeight*s.Name
			if s.Exact {
				s.Keyword += t.NameWeight * t.NameExact
			}
		}
		if q.Mode != Keyword && c.HasVector {
			s.Semantic = math.Exp(-t.DistanceScale * Distance(c.Similarity))
		}
		s.Matched = matchesTyped(q, c, s.Name)
		if !kept(q, c, s.Matched, t) {
			continue
		}
		if q.Mode == Semantic && !c.HasVector {
			continue
		}
		s.Score = s.Keyword + s.Semantic
		if s.Score > 0 {
			out = append(out, s)
		}
	}
	return out
}

// byScore orders results best first, ties by id.
func byScore(a, b Scored) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.C.ID, b.C.ID)
}

// best returns the k first of rs in byScore's order, sorted, reusing rs:
// a heap of the k best so far, its worst on top, then sorted.
func best(rs []Scored, k int) []Scored {
	if k <= 0 {
		return rs[:0]
	}
	if len(rs) <= k {
		slices.SortFunc(rs, byScore)
		return rs
	}
	h := rs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	for _, r := range rs[k:] {
		if byScore(r, h[0]) < 0 {
			h[0] = r
			siftDown(h, 0)
		}
	}
	slices.SortFunc(h, byScore)
	return h
}

// siftDown restores the heap below i: each entry is ranked no better than
// its children.
func siftDown(h []Scored, i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && byScore(h[l], h[worst]) > 0 {
			worst = l
		}
		if r < len(h) && byScore(h[r], h[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// kept reports whether a search keeps a file it has found: in hybrid mode
// the file must hold a typed word or match by name (matched, see
// matchesTyped), or be close enough in meaning to stand on it alone
// (SemanticOnlyMin).
func kept(q Query, c *Candidate, matched bool, t Tuning) bool {
	return q.Mode != Hybrid || matched || c.Similarity >= t.SemanticOnlyMin
}

// matchesTyped reports whether a file holds a word of the query as typed
// (or corrected), or matches by name: feedback words alone do not make a
// keyword match.
func matchesTyped(q Query, c *Candidate, name float64) bool {
	if name > 0 {
		return true
	}
	for i, term := range q.Terms {
		if term.Source != Feedback && c.holds(i) {
			return true
		}
	}
	return false
}

// textScore is BM25F over the most it could score on the query (0 to 1),
// plus a bonus for the query's words standing close together: at most
// Proximity, as a bonus leaves a file whose words stand apart where it was
// against the name and meaning parts.
func textScore(q Query, c *Candidate, col Collection, t Tuning, most float64) float64 {
	if most == 0 {
		return 0
	}
	return bm25f(q.Terms, c, col, t)/most + nearPart(q.Terms, c, col, t, most)
}

// nearPart is the proximity bonus of textScore, most being the most BM25F
// could give on the query.
func nearPart(terms []Term, c *Candidate, col Collection, t Tuning, most float64) float64 {
	if most == 0 || t.Proximity == 0 {
		return 0
	}
	return t.Proximity * nearScore(terms, c, col, t) / most
}

// nearScore is the proximity part (Büttcher, Clarke and Lushman 2006):
// each term's closeness to the others, saturated and length-normalised as
// BM25 does frequency in the text, and weighed as the term is. Feedback
// words do not count.
func nearScore(terms []Term, c *Candidate, col Collection, t Tuning) float64 {
	norm := 1.0
	if avg := col.AvgLen[FieldText]; avg > 0 && c.Len[FieldText] > 0 {
		b := t.Fields[FieldText].B
		norm = 1 - b + b*float64(c.Len[FieldText])/avg
	}
	s := 0.0
	for i, term := range terms {
		if i >= len(c.Near) {
			break
		}
		if a := c.Near[i]; a > 0 && term.Source != Feedback {
			s += term.Weight * term.IDF * a / (t.K1*norm + a)
		}
	}
	return s
}

// maxScore is the most BM25F can give a file for these terms: every term
// matched with saturated frequency.
func maxScore(terms []Term) float64 {
	s := 0.0
	for _, t := range terms {
		s += t.Weight * t.maxIDF()
	}
	return s
}

// bm25f is BM25F (Robertson, Zaragoza and Taylor 2004): each field's
// occurrences are length-normalised with the field's own b and weighted,
// summed into one pseudo-frequency per term, and saturated once with k1.
// Without the usual (k1 + 1) factor a term contributes at most its IDF.
func bm25f(terms []Term, c *Candidate, col Collection, t Tuning) float64 {
	s := 0.0
	for i, term := range terms {
		if i >= len(c.TF) {
			break
		}
		s += termScore(term, c, i, col, t)
	}
	return s
}

// termScore is term i's part of BM25F. Its occurrences in the text in
// another form only count OtherForm each, and a file that holds it only
// so earns OtherForm of its presence and the IDF of the commonest form:
// such a form is often another word that shares the stem ("exige" is not
// "exigido"). A file holding it as written earns its ExactIDF.
func termScore(term Term, c *Candidate, i int, col Collection, t Tuning) float64 {
	var other int32
	if i < len(c.Other) {
		other = c.Other[i]
	}
	tf := pseudoFreq(c.TF[i], (1-t.OtherForm)*float64(other), c, col, t)
	if tf <= 0 {
		return 0
	}
	presence, idf := t.Presence, term.IDF
	if other > 0 && other == total(c.TF[i]) {
		presence *= t.OtherForm
	} else {
		idf = term.maxIDF()
	}
	return term.Weight * idf * (presence + (1-t.Presence)*tf/(t.K1+tf))
}

// maxIDF is the term's IDF for a file holding it as written.
func (t Term) maxIDF() float64 { return max(t.IDF, t.ExactIDF) }

func total(tf [numFields]int32) int32 {
	var n int32
	for _, x := range tf {
		n += x
	}
	return n
}

// pseudoFreq sums a term's occurrences over the fields, weighted and
// normalised by length, the text's count less discount.
func pseudoFreq(tf [numFields]int32, discount float64, c *Candidate, col Collection, t Tuning) float64 {
	sum := 0.0
	for f, n := range tf {
		if n == 0 || t.Fields[f].Weight == 0 {
			continue
		}
		count := float64(n)
		if Field(f) == FieldText {
			count -= discount
		}
		norm := 1.0 // a length not known yet (while shortlisting) counts as average
		if avg := col.AvgLen[f]; avg > 0 && c.Len[f] > 0 {
			norm = 1 - t.Fields[f].B + t.Fields[f].B*float64(c.Len[f])/avg
		}
		sum += t.Fields[f].Weight * count / max(norm, 1e-3)
	}
	return sum
}

// IDF is BM25's inverse document frequency, in the always-positive form
// of Lucene: log(1 + (n - df + 0.5) / (df + 0.5)).
func IDF(n, df int) float64 {
	df = min(df, n)
	return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
}
