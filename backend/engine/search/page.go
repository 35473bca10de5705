package search

import (
	"cmp"
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"trove/backend/core"
	"trove/backend/engine/text/query"
	"trove/backend/store"
)

// A page of results: every file the query matches is counted and can be
// reached by paging, in any order, and copies of one content show once.
//
// Ranking stays as it is (the shortlist of rank, best first). The files a
// query matches are then listed without scoring them, from the same
// full-text tables in one pass (store.MatchingKeys): the shortlist is the
// head of the relevance order, and the matching files it did not hold
// follow, scored only when a page reaches them. Other orders sort the
// same set by a column and score only the page they show. Because a score
// depends only on a file's own evidence and the collection's statistics,
// a file scores the same whichever way it was reached.

// SortKey orders a page.
type SortKey string

// Orders of results.
const (
	ByRelevance SortKey = "relevance"
	ByModified  SortKey = "modified"
	ByName      SortKey = "name"
	BySize      SortKey = "size"
	ByFolder    SortKey = "folder" // the folder's path, then the name
	ByKind      SortKey = "kind"   // the kind (KindOfName), the extension, then the name
)

// MaxCounted is the most matching files listed exactly; beyond it the
// total is an estimate and pages end there.
const MaxCounted = 20000

// PageRequest is a search with paging, order, grouping and kinds.
type PageRequest struct {
	Request
	Offset int
	Sort   SortKey // "" is relevance
	Asc    bool    // ascending (the default is descending, ascending for names)
	Kinds  []string
}

// PageResult is one result: a file and the other files of the same
// content that match too.
type PageResult struct {
	Result
	Copies []core.File
}

// Correction is a typed word the index lacks and the word of the index
// used instead.
type Correction struct {
	Typed, Suggested string
}

// ExtCount is how many matching files have an extension (type filters
// aside).
type ExtCount struct {
	Kind  string // the files' kind (KindOfName)
	Ext   string
	Count int
}

// Page is one page of results and what is known of all of them.
type Page struct {
	Results   []PageResult
	Total     int  // matching files, copies included
	Estimated bool // Total is a lower bound: more than MaxCounted match
	Groups    int  // results to page through: copies of one content count once
	// Matches is how many of the Total files match the query's words
	// (entry.matched); 0 with files found means they were found by
	// meaning alone.
	Matches     int
	Corrections []Correction
	Facets      []ExtCount    // by extension, over the matches before the type filter
	Languages   []LangCount   // by language, over the matches before the language filter
	Fields      []query.Field // the query's fields, as typed
}

// entry is a matching file on its way to a page.
type entry struct {
	key    store.FileKey
	scored *Scored
	ranked bool // from rank's shortlist, in its order
}

// matched reports whether the file matches the query's words: a ranked
// file says so itself; any other was listed for holding a typed word, or
// by a query of filters only, which it passes.
func (en entry) matched() bool { return !en.ranked || en.scored.Matched }

// SearchPage runs a search and returns one page of its results.
func (e *Engine) SearchPage(ctx context.Context, pr PageRequest) (Page, error) {
	p, filter, err := e.start(&pr.Request)
	if err != nil {
		return Page{}, err
	}
	if pr.Sort == "" {
		pr.Sort = ByRelevance
	}
	page, err := e.keptSearchPage(ctx, pr, func(ctx context.Context) (Page, error) {
		page, err := e.searchPage(ctx, pr, p, filter)
		page.Fields = p.q.Fields
		return page, err
	})
	return page, err
}

func (e *Engine) searchPage(ctx context.Context, pr PageRequest, p plan, filter store.FileFilter) (Page, error) {
	// Types and languages are decided here, after the facets are counted
	// (ranking still keeps to the languages).
	keep := facetFilters{
		typeOK: kindMatcher(append(slices.Clone(pr.Kinds), pr.kinds...), append(slices.Clone(pr.Filters.Extensions), p.q.Exts...)),
		langOK: langMatcher(filter.Langs),
	}
	filter.Exts = nil
	listFilter := filter
	listFilter.Langs = nil
	if pr.Mode == Names {
		return e.namesPage(ctx, pr, p.q, listFilter, keep)
	}
	if len(p.terms) == 0 {
		keys, more, err := e.Store.BrowseKeys(ctx, listFilter, MaxCounted)
		if err != nil {
			return Page{}, err
		}
		var list []entry
		for _, k := range keys {
			if pr.paths.ok(k.Path) {
				list = append(list, entry{key: k})
			}
		}
		return e.page(ctx, pr, nil, list, more, keep)
	}
	// The listing of every match runs beside ranking; it ends with the page.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newSearcher(e, pr.Request, p, filter)
	s.listAll, s.listFilter, s.countOnly = true, listFilter, pr.Sort == ByRelevance
	ranked, err := s.rank(ctx)
	if err != nil {
		return Page{}, err
	}
	if pr.Request.Snippets && pr.Offset == 0 && pr.Sort == ByRelevance && !pr.Asc {
		s.startEarlySnippets(ctx, ranked, max(pr.Limit, 1))
	}
	list, more, err := s.matching(ctx, ranked)
	if err != nil {
		return Page{}, err
	}
	return e.page(ctx, pr, s, list, more, keep)
}

// matching lists the ranked files that hold, then the other matching
// files, each once, all passing the filters but the type.
func (s *searcher) matching(ctx context.Context, ranked []Scored) ([]entry, bool, error) {
	s.startListing(ctx) // a semantic search has no prepare step to start it
	var all listing
	select {
	case all = <-s.all:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	if all.err != nil {
		return nil, false, all.err
	}
	keys, more := all.keys, all.more
	ids := make([]int64, len(ranked))
	for i, r := range ranked {
		ids[i] = r.C.ID
	}
	known, err := s.eng.Store.KeysOf(ctx, ids, s.filter)
	if err != nil {
		return nil, false, err
	}
	excluded, err := s.excludedAmong(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	// The listing holds each file once, so only the ranked files need
	// remembering (a set of thousands cost more than the rest of this).
	seen := make(map[int64]bool, len(ranked))
	list := make([]entry, 0, len(ranked)+len(keys))
	for i := range ranked {
		r := &ranked[i]
		k, ok := known[r.C.ID]
		if !ok || excluded[r.C.ID] || r.Score < s.req.MinScore ||
			!s.req.paths.ok(k.Path) {
			continue
		}
		seen[k.ID] = true
		list = append(list, entry{key: k, scored: r, ranked: true})
	}
	for _, k := range keys { // these pass the exclusions and the glob already
		if !seen[k.ID] {
			list = append(list, entry{key: k})
		}
	}
	return list, more, nil
}

// startListing lists every file holding a typed word of the query (up to
// MaxCounted), in its own goroutine, once: the listing needs only the
// typed words and their weights, so it overlaps with ranking, which it
// would otherwise follow (on a 20,000 file index it is about half the
// time of a search of common words).
func (s *searcher) startListing(ctx context.Context) {
	if !s.listAll || s.all != nil {
		return
	}
	s.all = make(chan listing, 1)
	var typed []store.Phrase
	for i, t := range s.terms {
		if t.source != Feedback && i < len(s.weight) && s.weight[i] > 0 {
			typed = append(typed, t.phrase)
		}
	}
	if len(typed) == 0 || s.req.MinScore > 0 {
		s.all <- listing{}
		return
	}
	m := store.Matches{Any: typed, Exclude: s.parsed.excluded, CountOnly: s.countOnly}
	if !s.req.paths.empty() {
		m.Keep = func(k store.FileKey) bool { return s.req.paths.ok(k.Path) }
	}
	go func() {
		var l listing
		if err := core.Safe(func() {
			l.keys, l.more, l.err = s.eng.Store.MatchingKeys(ctx, m, s.listFilter, MaxCounted)
		}); err != nil {
			l.err = err
		}
		s.all <- l
	}()
}

// facetFilters are the filters a page applies after counting the facets,
// each after counting its own: a facet counts the matches that pass every
// other filter, so any of its values can be picked next.
type facetFilters struct {
	typeOK func(name string) bool // nil: any type
	langOK func(lang string) bool // nil: any language
}

// page counts, filters by type and language, orders, groups copies and
// cuts one page.
func (e *Engine) page(ctx context.Context, pr PageRequest, s *searcher, list []entry, more bool, keep facetFilters) (Page, error) {
	var out Page
	typed := keep.typed(list)
	out.Languages = languageFacet(list, typed)
	if keep.langOK != nil {
		n := 0
		for i, en := range list {
			if keep.langOK(en.key.Lang) {
				list[n], typed[n] = en, typed[i]
				n++
			}
		}
		list, typed = list[:n], typed[:n]
	}
	out.Facets = facets(list)
	if keep.typeOK != nil {
		n := 0
		for i, en := range list {
			if typed[i] {
				list[n] = en
				n++
			}
		}
		list = list[:n]
	}
	out.Total, out.Estimated = len(list), more
	for _, en := range list {
		if en.matched() {
			out.Matches++
		}
	}
	if s != nil {
		out.Corrections = s.corrections()
	}
	if s != nil && (pr.Sort == ByRelevance && (pr.Asc || needsRest(list, pr))) {
		if err := s.scoreRest(ctx, list); err != nil {
			return out, err
		}
	}
	order(list, pr.Sort, pr.Asc, s == nil && pr.Mode != Names) // names mode ranks its own list
	groups, n := group(list, pr.Offset, pr.Offset+max(pr.Limit, 1))
	out.Groups = n
	if s != nil {
		if err := s.scorePage(ctx, groups); err != nil {
			return out, err
		}
	}
	var snippets <-chan map[int64]snip
	if s != nil && s.req.Snippets {
		snippets = s.snippetsFor(ctx, groups)
	}
	res, err := e.load(ctx, groups)
	if err != nil {
		return out, err
	}
	if s != nil {
		s.finish(res, groups, snippets)
	}
	out.Results = res
	return out, nil
}

// needsRest reports whether a relevance page reaches past the ranked
// files (counted as results: copies of one content count once).
func needsRest(list []entry, pr PageRequest) bool {
	head := rankedHead(list)
	if head == len(list) {
		return false
	}
	_, n := group(list[:head], 0, 0)
	return n < pr.Offset+max(pr.Limit, 1)
}

// rankedHead is how many entries lead the list from rank's shortlist.
func rankedHead(list []entry) int {
	n := 0
	for n < len(list) && list[n].ranked {
		n++
	}
	return n
}

// scoreRest completes the evidence of the matching files rank did not
// score, scores them and puts them after the ranked ones in their order.
func (s *searcher) scoreRest(ctx context.Context, list []entry) error {
	var ids []int64
	for _, en := range list {
		if en.scored == nil {
			ids = append(ids, en.key.ID)
		}
	}
	scores, err := s.score(ctx, ids)
	if err != nil {
		return err
	}
	for i := range list {
		if list[i].scored == nil {
			if sc, ok := scores[list[i].key.ID]; ok {
				list[i].scored = sc
			} else {
				list[i].scored = &Scored{C: s.cand(list[i].key.ID)}
			}
		}
	}
	return nil
}

// score completes the evidence of the given files and fuses them.
func (s *searcher) score(ctx context.Context, ids []int64) (map[int64]*Scored, error) {
	out := map[int64]*Scored{}
	if len(ids) == 0 {
		return out, nil
	}
	slices.Sort(ids)
	for _, id := range ids {
		s.cand(id)
	}
	if err := s.completeEvidence(ctx, ids); err != nil {
		return nil, err
	}
	cands := make([]*Candidate, 0, len(ids))
	for _, id := range ids {
		cands = append(cands, s.cands[id])
	}
	for _, r := range Fuse(s.query(), cands, s.col, s.tuning) {
		out[r.C.ID] = &r
	}
	return out, nil
}

// order sorts the list by key. Relevance keeps the ranked files first
// (best first) and puts the rest after them by score; browsing without
// words orders by date.
func order(list []entry, key SortKey, asc, browse bool) {
	if key == ByRelevance && browse {
		key = ByModified
	}
	var cmpf func(a, b entry) int
	switch key {
	case ByModified:
		cmpf = func(a, b entry) int { return cmp.Compare(a.key.Modified, b.key.Modified) }
	case BySize:
		cmpf = func(a, b entry) int { return cmp.Compare(a.key.Size, b.key.Size) }
	case ByName:
		cmpf = byName
	case ByFolder:
		cmpf = func(a, b entry) int {
			return cmp.Or(cmp.Compare(filepath.Dir(a.key.Path), filepath.Dir(b.key.Path)), byName(a, b))
		}
	case ByKind:
		kinds := make(map[int64]string, len(list))
		for _, en := range list {
			kinds[en.key.ID] = KindOfName(en.key.Filename)
		}
		cmpf = func(a, b entry) int {
			return cmp.Or(cmp.Compare(kinds[a.key.ID], kinds[b.key.ID]),
				cmp.Compare(strings.ToLower(a.key.Extension), strings.ToLower(b.key.Extension)), byName(a, b))
		}
	default:
		// Ranked files lead in rank's order; the rest follow by score.
		rest := list[rankedHead(list):]
		slices.SortStableFunc(rest, func(a, b entry) int { return cmp.Compare(scoreOf(b), scoreOf(a)) })
		if asc {
			slices.Reverse(list)
		}
		return
	}
	slices.SortStableFunc(list, func(a, b entry) int {
		c := cmpf(a, b)
		if !asc {
			c = -c
		}
		// Ties (same size, same minute) in path order, so pages are stable.
		return cmp.Or(c, cmp.Compare(a.key.Path, b.key.Path), cmp.Compare(a.key.ID, b.key.ID))
	})
}

// byName orders by file name, case aside, then by path.
func byName(a, b entry) int {
	return cmp.Or(cmp.Compare(strings.ToLower(a.key.Filename), strings.ToLower(b.key.Filename)), cmp.Compare(a.key.Path, b.key.Path))
}

func scoreOf(en entry) float64 {
	if en.scored == nil {
		return 0
	}
	return en.scored.Score
}

// groupOf is a result: the first file of a content and the later ones,
// its copies. Empty files and files without a hash are never copies.
type groupOf struct {
	head   entry
	copies []entry
}

// group counts the results of the list and returns those numbered from
// up to to (a page), each with its copies wherever they are in the list;
// only the page's are built, as a list may hold 20,000 files.
func group(list []entry, from, to int) ([]groupOf, int) {
	at := make(map[string]int, len(list))
	var out []groupOf
	n := 0
	for _, en := range list {
		g := n
		if h := en.key.Hash; h != "" && en.key.Size > 0 {
			if i, ok := at[h]; ok {
				g = i
			} else {
				at[h] = n
			}
		}
		if g == n {
			n++
		}
		switch {
		case g < from || g >= to:
		case g-from == len(out):
			out = append(out, groupOf{head: en})
		default:
			out[g-from].copies = append(out[g-from].copies, en)
		}
	}
	return out, n
}

// scorePage scores the page's files that have no score yet (other orders
// than relevance).
func (s *searcher) scorePage(ctx context.Context, groups []groupOf) error {
	var ids []int64
	for _, g := range groups {
		if g.head.scored == nil {
			ids = append(ids, g.head.key.ID)
		}
	}
	scores, err := s.score(ctx, ids)
	if err != nil {
		return err
	}
	for i := range groups {
		if groups[i].head.scored == nil {
			groups[i].head.scored = scores[groups[i].head.key.ID]
		}
	}
	return nil
}

// load reads the page's files and their copies.
func (e *Engine) load(ctx context.Context, groups []groupOf) ([]PageResult, error) {
	var ids []int64
	for _, g := range groups {
		ids = append(ids, g.head.key.ID)
		for _, c := range g.copies {
			ids = append(ids, c.key.ID)
		}
	}
	files, err := e.Store.IndexedFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]PageResult, 0, len(groups))
	for _, g := range groups {
		f, ok := files[g.head.key.ID]
		if !ok {
			continue // deleted meanwhile
		}
		r := PageResult{Result: Result{File: f, Matched: g.head.matched()}}
		if sc := g.head.scored; sc != nil {
			r.Score, r.Keyword, r.Semantic = sc.Score, sc.Keyword, sc.Semantic
		}
		for _, c := range g.copies {
			if cf, ok := files[c.key.ID]; ok {
				r.Copies = append(r.Copies, cf)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// earlySlack is how many files beyond a page's length early snippets
// cover: copies of one content, grouped, take the places of later files.
const earlySlack = 10

// startEarlySnippets starts building the snippets of the best ranked files
// as soon as ranking ends: a first page in relevance order shows them,
// unless the filters or the grouping of copies set some aside, and its
// snippets were the last thing a search waited for.
func (s *searcher) startEarlySnippets(ctx context.Context, ranked []Scored, limit int) {
	ids := make([]int64, 0, min(len(ranked), limit+earlySlack))
	for _, r := range ranked[:min(len(ranked), limit+earlySlack)] {
		ids = append(ids, r.C.ID)
	}
	s.early = s.startSnippets(ctx, ids)
}

// snippetsFor delivers the snippets of the page's files: those started
// early, and the others built once those are known.
func (s *searcher) snippetsFor(ctx context.Context, groups []groupOf) <-chan map[int64]snip {
	ids := make([]int64, len(groups))
	for i, g := range groups {
		ids[i] = g.head.key.ID
	}
	early := s.early
	if early == nil {
		return s.startSnippets(ctx, ids)
	}
	s.early = nil
	cands, p := s.snippetCands(ids), s.snippetPlan()
	out := make(chan map[int64]snip, 1)
	go func() {
		m := <-early
		if err := core.Safe(func() {
			var missing []int64
			for _, id := range ids {
				if _, ok := m[id]; !ok {
					missing = append(missing, id)
				}
			}
			maps.Copy(m, s.buildSnippets(ctx, missing, p, cands))
		}); err != nil {
			s.eng.Log.Error("snippets failed", "err", err)
		}
		out <- m
	}()
	return out
}

// startSnippets builds the snippets of the given files in its own
// goroutine.
func (s *searcher) startSnippets(ctx context.Context, ids []int64) <-chan map[int64]snip {
	cands, p := s.snippetCands(ids), s.snippetPlan()
	out := make(chan map[int64]snip, 1)
	go func() { out <- s.buildSnippets(ctx, ids, p, cands) }()
	return out
}

// snippetCands copies what snippets read of the files' candidates (their
// closest passage), as scoring the page may change the candidates while
// snippets are built.
func (s *searcher) snippetCands(ids []int64) map[int64]*Candidate {
	out := make(map[int64]*Candidate, len(ids))
	for _, id := range ids {
		if c := s.cands[id]; c != nil {
			out[id] = &Candidate{ID: id, HasVector: c.HasVector, Passage: c.Passage}
		}
	}
	return out
}

// buildSnippets returns the snippets of the given files, by id.
func (s *searcher) buildSnippets(ctx context.Context, ids []int64, p plan, cands map[int64]*Candidate) map[int64]snip {
	m := make(map[int64]snip, len(ids))
	if len(ids) == 0 {
		return m
	}
	// Snippets are an extra: a failure costs the snippets only.
	if err := core.Safe(func() {
		for i, sn := range s.eng.snippetsOf(ctx, ids, p, cands) {
			m[ids[i]] = sn
		}
	}); err != nil {
		s.eng.Log.Error("snippets failed", "err", err)
	}
	return m
}

// finish adds explanations and the snippets (when asked for), as results
// does.
func (s *searcher) finish(out []PageResult, groups []groupOf, snippets <-chan map[int64]snip) {
	scored := map[int64]*Scored{}
	for _, g := range groups {
		scored[g.head.key.ID] = g.head.scored
	}
	q := s.query()
	for i := range out {
		if sc := scored[out[i].File.ID]; s.req.Explain && sc != nil {
			x := explain(q, *sc, s.col, s.tuning)
			out[i].Explain = &x
		}
	}
	if snippets == nil {
		return
	}
	m := <-snippets
	for i := range out {
		m[out[i].File.ID].set(&out[i].Result)
	}
}

// corrections are the typed words the search replaced.
func (s *searcher) corrections() []Correction {
	var out []Correction
	for _, t := range s.terms {
		if t.source == Corrected {
			out = append(out, Correction{Typed: t.of, Suggested: t.text})
		}
	}
	return out
}

// LangCount is how many matching files are in a language.
type LangCount struct {
	Lang  string // ISO 639-1
	Count int
}

// typed tells, for each file of list, whether it passes the type filter
// (asked once a file: the language facet and the filter both need it).
func (k facetFilters) typed(list []entry) []bool {
	out := make([]bool, len(list))
	for i, en := range list {
		out[i] = k.typeOK == nil || k.typeOK(en.key.Filename)
	}
	return out
}

// languageFacet counts the files of list that pass the type filter
// (typed) by language, most first; files of no told language are not
// counted.
func languageFacet(list []entry, typed []bool) []LangCount {
	n := map[string]int{}
	for i, en := range list {
		if en.key.Lang != "" && typed[i] {
			n[en.key.Lang]++
		}
	}
	out := make([]LangCount, 0, len(n))
	for l, c := range n {
		out = append(out, LangCount{Lang: l, Count: c})
	}
	slices.SortFunc(out, func(a, b LangCount) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Lang, b.Lang)) })
	return out
}

// langMatcher passes the languages of langs (nil when none are asked).
func langMatcher(langs []string) func(string) bool {
	if len(langs) == 0 {
		return nil
	}
	return func(l string) bool { return slices.Contains(langs, l) }
}

// facets counts the matching files by extension, most first.
func facets(list []entry) []ExtCount {
	type kindExt struct{ kind, ext string } // one extension can be of two kinds: notes.gz, logs.tar.gz
	n := map[kindExt]int{}
	for _, en := range list {
		n[kindExt{KindOfName(en.key.Filename), en.key.Extension}]++
	}
	out := make([]ExtCount, 0, len(n))
	for k, c := range n {
		out = append(out, ExtCount{Kind: k.kind, Ext: k.ext, Count: c})
	}
	slices.SortFunc(out, func(a, b ExtCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Ext, b.Ext), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}
