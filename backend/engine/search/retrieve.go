package search

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"

	"trove/backend/core"
	"trove/backend/engine/text/tokens"
	"trove/backend/store"
)

// Candidate set sizes and pruning.
const (
	// semanticCandidates are the files closest in meaning to the query.
	semanticCandidates = 100
	// nameCandidates are files whose names hold a query word inside a word.
	nameCandidates = 100
	// shortlisted files, the best by what phase one learned, get complete
	// evidence (every term, their place, their closest passage) and are
	// ranked; further down, nothing could lift a file into the results.
	shortlisted = 300
	// matchBudget bounds the files phase one may read per table in an index
	// of at least commonMin files: FTS5 walks every match of an expression,
	// so candidates come from the query's rarest words while their files
	// add up to at most matchBudget; the common words are then counted for
	// the shortlisted files only. Scores are the same as without pruning;
	// only a file holding nothing but common words can be missed.
	matchBudget = 2000
	commonMin   = 5000
	// feedbackBudget is phase one's budget for feedback words.
	feedbackBudget = matchBudget / 4
)

// Evidence is what retrieval reads of the index: how many files hold each
// word, the matches of a full-text expression with what BM25F needs, names
// by substring, and where each file lies.
type Evidence interface {
	DocCount() int
	RankDocFreqs(ctx context.Context, terms []string) (int, map[string]int, error)
	FileDocFreqs(ctx context.Context, terms []string) (int, map[string]int, error)
	TermMatches(ctx context.Context, t store.TermTable, expr string, phrases int, scope store.TermScope) ([]store.TermMatch, store.TableStats, error)
	PhraseFiles(ctx context.Context, t store.TermTable, phrases []string, filter store.FileFilter) ([][]int64, error)
	Lengths(ctx context.Context, t store.TermTable, ids []int64) (map[int64][]int32, error)
	NameMatches(ctx context.Context, substrings []string, limit int) ([]int64, error)
	Places(ctx context.Context, ids []int64) (map[int64]store.Place, error)
}

// Tables of the index, as term evidence goes.
const (
	textTable = iota
	fileTable
	numTables
)

var tables = [numTables]store.TermTable{store.ContentTable, store.FileTable}

// firstField is the Field of each table's first column.
var firstField = [numTables]Field{FieldText, FieldName}

// searcher runs one search: it gathers candidates and evidence, and
// fuses.
type searcher struct {
	e      *Engine
	req    Request
	p      plan
	filter store.FileFilter
	t      Tuning

	terms   []qterm
	weight  []float64 // query weight per term
	idf     []float64
	df      [numTables]map[string]int
	n       int // files in the index, for IDF
	words   []NameWord
	literal string // the words for name matching, folded, in order (see literal)
	prune   bool

	cands  map[int64]*Candidate
	placed map[int64]bool
	byName map[int64]bool // found inside a name
	col    Collection
	colSet [numTables]bool
	// whole is set for a table when phase one walked every term's matches
	// there in full: the terms' counts of any file are then known, and
	// completing the evidence needs only lengths.
	whole [numTables]bool
	qv    []float32
	added []string // feedback words

	// listAll, when set, starts listing every file matching the typed
	// words as soon as their weights are known, beside ranking; all
	// delivers that listing to matching.
	listAll bool
	all     chan listing
	// countOnly: the page orders by relevance, so the listing's files need
	// only what counting and grouping read (store.Matches.CountOnly).
	countOnly bool
	// early delivers the snippets of the best ranked files, started as
	// ranking ends (startEarlySnippets); nil when none were.
	early <-chan map[int64]string
}

// listing is every file matching the query's typed words, for a page's
// counts.
type listing struct {
	keys []store.FileKey
	more bool
	err  error
}

func newSearcher(e *Engine, req Request, p plan, filter store.FileFilter) *searcher {
	return &searcher{e: e, req: req, p: p, filter: filter, t: e.tuning().forWords(p.wordCount()),
		cands: map[int64]*Candidate{}, placed: map[int64]bool{}, byName: map[int64]bool{}}
}

func (s *searcher) cand(id int64) *Candidate {
	c, ok := s.cands[id]
	if !ok {
		c = &Candidate{ID: id}
		s.cands[id] = c
	}
	return c
}

// rank gathers evidence and returns the shortlisted files fused, best
// first.
func (s *searcher) rank(ctx context.Context) ([]Scored, error) {
	keyword := s.req.Mode != Semantic
	// The query's vector and its nearest files need nothing of the keyword
	// side, so they run beside it (an embedder over HTTP answers in its own
	// time).
	near := s.startNearest(ctx)
	if keyword {
		if err := s.prepare(ctx); err != nil {
			return nil, err
		}
		s.startListing(ctx)
		names := s.startNameMatches(ctx)
		err := s.match(ctx, 0)
		if nerr := s.addNameMatches(<-names); err == nil {
			err = nerr
		}
		if err != nil {
			return nil, err
		}
	}
	if err := s.addNearest(<-near); err != nil {
		return nil, err
	}
	ranked, err := s.fuse(ctx)
	if err != nil || !keyword {
		return ranked, err
	}
	first := len(s.terms)
	passages, err := s.feedback(ctx, ranked)
	if err != nil || len(s.terms) == first && len(passages) == 0 {
		return ranked, err
	}
	if err := s.match(ctx, first); err != nil {
		return nil, err
	}
	if s.qv != nil && len(passages) > 0 && s.t.VectorFeedback > 0 {
		s.qv = moveQuery(s.qv, s.e.Vectors.Centroid(passages), s.t.VectorFeedback)
		s.addSimilar(s.nearest(s.qv))
	}
	return s.fuse(ctx)
}

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
			n.qv = s.e.queryVector(ctx, s.p.text, s.req.Mode)
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

// addSimilar records files close in meaning and their closest passages.
func (s *searcher) addSimilar(ms []Match) {
	for _, m := range ms {
		c := s.cand(m.FileID)
		c.Similarity, c.Passage, c.HasVector = m.Similarity, m.Ord, true
	}
}

// prepare looks up the terms' document frequencies, corrects words the
// index lacks, keeps a long query's most telling words and weighs them.
func (s *searcher) prepare(ctx context.Context) error {
	s.e.spell.refresh(s.e.Store, s.e.logSpelling)
	docs := s.e.Store.DocCount()
	s.n = max(docs, 1)
	s.prune = docs >= commonMin
	s.terms = slices.Clone(s.p.terms)
	if err := s.lookup(ctx, s.terms); err != nil {
		return err
	}
	if err := s.correct(ctx); err != nil {
		return err
	}
	s.keepTelling()
	s.weight = make([]float64, len(s.terms))
	s.idf = make([]float64, len(s.terms))
	for i, t := range s.terms {
		s.idf[i] = s.termIDF(t)
		// A word no file holds matches nothing: it must not lower every
		// file's share of what the query could match.
		if t.stem == "" || s.termDF(t) > 0 {
			s.weight[i] = t.count
		}
	}
	texts := s.nameTexts()
	s.words = nameWords(texts, true, func(stem string) float64 {
		return IDF(s.n, max(s.df[textTable][stem], s.df[fileTable][stem]))
	})
	s.literal = literal(texts)
	return nil
}

// lookup reads the document frequencies of the terms' stems.
func (s *searcher) lookup(ctx context.Context, terms []qterm) error {
	var stems []string
	for _, t := range terms {
		if t.stem != "" {
			stems = append(stems, t.stem)
		}
	}
	_, text, err := s.e.Store.RankDocFreqs(ctx, stems)
	if err != nil {
		return err
	}
	_, files, err := s.e.Store.FileDocFreqs(ctx, stems)
	if err != nil {
		return err
	}
	for i, m := range []map[string]int{text, files} {
		if s.df[i] == nil {
			s.df[i] = map[string]int{}
		}
		for k, v := range m {
			s.df[i][k] = v
		}
	}
	return nil
}

func (s *searcher) termDF(t qterm) int {
	return max(s.df[textTable][t.stem], s.df[fileTable][t.stem])
}

// termIDF is a term's IDF; phrases and prefixes, whose frequency the
// vocabulary does not tell, count as rare until their matches are known.
func (s *searcher) termIDF(t qterm) float64 {
	if t.stem == "" {
		return IDF(s.n, 0)
	}
	return IDF(s.n, s.termDF(t))
}

// keepTelling bounds a long query's keyword side to the QueryTerms single
// words with the most weight (occurrences times IDF), in query order:
// pasting a paragraph finds documents like it without scoring every
// "however" in it.
func (s *searcher) keepTelling() {
	var words []int
	for i, t := range s.terms {
		if t.single() {
			words = append(words, i)
		}
	}
	if s.t.QueryTerms <= 0 || len(words) <= s.t.QueryTerms {
		return
	}
	slices.SortStableFunc(words, func(a, b int) int {
		return cmp.Compare(s.terms[b].count*s.termIDF(s.terms[b]), s.terms[a].count*s.termIDF(s.terms[a]))
	})
	drop := map[int]bool{}
	for _, i := range words[s.t.QueryTerms:] {
		drop[i] = true
	}
	kept := s.terms[:0]
	for i, t := range s.terms {
		if !drop[i] {
			kept = append(kept, t)
		}
	}
	s.terms = kept
}

// nameTexts are the words for name matching: as typed, with corrections
// in place of the words they correct.
func (s *searcher) nameTexts() []string {
	fix := map[string]string{}
	for _, t := range s.terms {
		if t.source == Corrected {
			fix[t.of] = t.text
		}
	}
	out := make([]string, len(s.p.names))
	for i, w := range s.p.names {
		out[i] = w
		if c, ok := fix[strings.ToLower(w)]; ok {
			out[i] = c
		}
	}
	return out
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
		expr, terms, limited, whole := s.phaseOne(t, from, budget, from == 0)
		// A filter narrows phase one's walk but not the files found by
		// meaning or by name: with one, phase two counts those by walking.
		s.whole[t] = from == 0 && whole && s.filter.Empty()
		if expr == "" {
			continue
		}
		order[t] = terms
		scope := store.TermScope{Filter: s.filter}
		if limited {
			// The commonest word adds least to the shortlist and is most
			// of the walk's reading: phase two counts it for the files
			// shortlisted.
			scope.Limit, scope.Conjunction = matchBudget, true
			scope.HeldLast = t == textTable && len(terms) > 1
		}
		read := func() ([]store.TermMatch, store.TableStats, error) {
			return s.e.Store.TermMatches(ctx, tables[t], expr, len(terms), scope)
		}
		// In a large index whose text phase two walks anyway (a word
		// is left out, proximity reads two words' positions, or these
		// are feedback words), the text's matches are found here, not
		// counted: reading every instance of every match was most of
		// phase one.
		if t == textTable && s.prune && !limited && (!s.whole[t] || len(terms) > 1) {
			s.whole[t] = false
			read = func() ([]store.TermMatch, store.TableStats, error) {
				ms, err := s.presence(ctx, terms)
				return ms, store.TableStats{}, err
			}
		}
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
			s.idf[i] = IDF(s.n, s.matchCount(i))
		}
	}
	return nil
}

// presence finds the text's files holding each of terms, counting each
// once there: enough to shortlist.
func (s *searcher) presence(ctx context.Context, terms []int) ([]store.TermMatch, error) {
	exprs := make([]string, len(terms))
	for k, i := range terms {
		exprs[k] = s.terms[i].expr
	}
	files, err := s.e.Store.PhraseFiles(ctx, tables[textTable], exprs, s.filter)
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

// phaseOne returns table t's expression for terms[from:] within budget,
// the terms in the order of its phrases, and whether it is limited (even
// the rarest term is common: then, with all, it is the newest matchBudget
// files holding all terms).
func (s *searcher) phaseOne(t, from, budget int, all bool) (expr string, order []int, limited, whole bool) {
	var sel, common []int
	for i := from; i < len(s.terms); i++ {
		if s.weight[i] > 0 {
			sel = append(sel, i)
		}
	}
	if len(sel) == 0 {
		return "", nil, false, false
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
	var parts []string
	if len(sel) == 0 {
		if !all {
			return "", nil, false, false
		}
		// The commonest word last, where the text's walk counts it
		// unread (HeldLast).
		slices.SortStableFunc(common, func(a, b int) int { return cmp.Compare(s.df[t][s.terms[a].stem], s.df[t][s.terms[b].stem]) })
		for _, i := range common {
			parts = append(parts, s.terms[i].expr)
		}
		return strings.Join(parts, " AND "), common, true, false
	}
	for _, i := range sel {
		parts = append(parts, s.terms[i].expr)
	}
	order = slices.Clone(sel)
	if t == fileTable {
		// Common words still find names and titles, which are short and
		// few per word; their other columns are counted in phase two.
		for _, i := range common {
			parts = append(parts, "{name title} : ("+s.terms[i].expr+")")
			order = append(order, i)
		}
	}
	return strings.Join(parts, " OR "), order, false, len(common) == 0
}

// apply records a table's matches: term counts are set (not added), as a
// later count of the same term is the complete one.
func (s *searcher) apply(t int, terms []int, ms []store.TermMatch, stats store.TableStats) {
	if stats.Tokens != nil && !s.colSet[t] {
		s.colSet[t] = true
		if stats.Rows > 0 {
			for c, tok := range stats.Tokens {
				s.col.AvgLen[int(firstField[t])+c] = float64(tok) / float64(stats.Rows)
			}
		}
	}
	cols := tables[t].Columns()
	for _, m := range ms {
		c := s.cand(m.FileID)
		if m.Len != nil {
			for col := range cols {
				c.Len[int(firstField[t])+col] = m.Len[col]
			}
		}
		for k, i := range terms {
			for len(c.TF) <= i {
				c.TF = append(c.TF, [numFields]int32{})
			}
			for col := range cols {
				c.TF[i][int(firstField[t])+col] = m.Freq(k, col)
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

// matchCount is how many candidates hold term i anywhere.
func (s *searcher) matchCount(i int) int {
	n := 0
	for _, c := range s.cands {
		if c.holds(i) {
			n++
		}
	}
	return n
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
		if err := core.Safe(func() { n.ids, n.err = s.e.Store.NameMatches(ctx, subs, nameCandidates) }); err != nil {
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
	if s.t.NameSubstringCredit == 0 {
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
	long := len(s.words) > s.t.QueryTerms && s.t.QueryTerms > 0
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
	for _, t := range s.p.q.Terms {
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
	return s.e.Vectors.Search(qv, semanticCandidates)
}

// query is what fusion scores against.
func (s *searcher) query() Query {
	q := Query{Words: s.words, Literal: s.literal, Mode: s.req.Mode}
	for i, t := range s.terms {
		q.Terms = append(q.Terms, Term{Text: t.text, Weight: s.weight[i], IDF: s.idf[i], Source: t.source, Of: t.of})
	}
	return q
}

// fuse shortlists the candidates by what is known, completes their
// evidence and ranks them.
func (s *searcher) fuse(ctx context.Context) ([]Scored, error) {
	q := s.query()
	list := shortlist(q, s.cands, s.byName, s.col, s.t)
	if err := s.completeEvidence(ctx, list); err != nil {
		return nil, err
	}
	short := make([]*Candidate, 0, len(list))
	for _, id := range list {
		if s.placed[id] { // files deleted meanwhile have no place
			short = append(short, s.cands[id])
		}
	}
	return Fuse(q, short, s.col, s.t), nil
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
	var terms []int
	var parts []string
	var near []float64 // the leading typed terms' IDFs, for proximity
	for i, t := range s.terms {
		if s.weight[i] > 0 {
			terms = append(terms, i)
			parts = append(parts, t.expr)
			if t.source != Feedback && len(near) == len(terms)-1 {
				near = append(near, s.idf[i])
			}
		}
	}
	var missing []int64
	for _, id := range ids {
		if !s.placed[id] {
			missing = append(missing, id)
		}
	}
	var wg sync.WaitGroup
	var walks []*walk
	expr := strings.Join(parts, " OR ")
	var walked [numTables]bool
	var lengths [numTables]map[int64][]int32
	var lengthErrs [numTables]error
	if len(terms) > 0 {
		for t := range numTables {
			// A table phase one walked in full needs only the files'
			// lengths, unless the text's proximity needs positions.
			if s.whole[t] && (t != textTable || len(near) <= 1) && !testHookWalkAll {
				wg.Go(func() {
					if err := core.Safe(func() { lengths[t], lengthErrs[t] = s.e.Store.Lengths(ctx, tables[t], ids) }); err != nil {
						lengthErrs[t] = err
					}
				})
				continue
			}
			walked[t] = true
			for _, part := range split(ids, walkPieces(t, len(ids))) {
				w := &walk{table: t}
				walks = append(walks, w)
				wg.Go(func() {
					if err := core.Safe(func() {
						scope := store.TermScope{Only: part, Lengths: true}
						if t == textTable && s.t.Proximity > 0 {
							scope.Near = near
						}
						w.ms, w.stats, w.err = s.e.Store.TermMatches(ctx, tables[t], expr, len(parts), scope)
					}); err != nil {
						w.err = err
					}
				})
			}
		}
	}
	var places map[int64]store.Place
	var placesErr error
	wg.Go(func() {
		if err := core.Safe(func() { places, placesErr = s.e.Store.Places(ctx, missing) }); err != nil {
			placesErr = err
		}
	})
	var best map[int64]Match
	if s.qv != nil && s.req.Mode != Keyword {
		best = s.e.Vectors.Best(s.qv, ids)
	}
	wg.Wait()
	errs := append([]error{placesErr}, lengthErrs[:]...)
	var results [numTables][]store.TermMatch
	var stats [numTables]store.TableStats
	for _, w := range walks {
		errs = append(errs, w.err)
		results[w.table] = append(results[w.table], w.ms...)
		if stats[w.table].Tokens == nil {
			stats[w.table] = w.stats
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, id := range ids {
		// A walked table's counts start again from scratch: a file phase
		// one did not see there holds none of the terms there. A table not
		// walked keeps phase one's counts and takes the lengths read.
		c := s.cands[id]
		for len(c.TF) < len(s.terms) {
			c.TF = append(c.TF, [numFields]int32{})
		}
		for t := range numTables {
			fields := c.Len[firstField[t] : int(firstField[t])+tables[t].Columns()]
			switch {
			case walked[t]:
				for i := range c.TF {
					clear(c.TF[i][firstField[t] : int(firstField[t])+len(fields)])
				}
			case lengths[t] != nil:
				clear(fields)
				copy(fields, lengths[t][id])
			}
		}
		if walked[textTable] {
			c.Near = nil
		}
	}
	for t := range numTables {
		if walked[t] {
			s.apply(t, terms, results[t], stats[t])
		}
	}
	for id, m := range best {
		c := s.cands[id]
		c.Similarity, c.Passage, c.HasVector = m.Similarity, m.Ord, true
	}
	for id, pl := range places {
		c := s.cands[id]
		c.Name, c.Folders, c.Path = pl.Filename, pl.Folders, pl.Path
		s.placed[id] = true
	}
	return nil
}
