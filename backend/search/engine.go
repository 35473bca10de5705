// Package search answers queries with a hybrid ranking: BM25 over file
// names, titles, keywords, summaries and passages (SQLite FTS5), plus vector
// similarity of passages to the query, combined as the spec says:
// score = exp(-distance) + keyword_score.
package search

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"trove/backend/core"
	"trove/backend/embedding"
	"trove/backend/pathglob"
	"trove/backend/query"
	"trove/backend/store"
)

// Mode selects the signals a search uses.
type Mode string

// Modes. Hybrid is the default; the others exist for measurement and for
// people who want one signal.
const (
	Hybrid   Mode = "hybrid"
	Keyword  Mode = "keyword"
	Semantic Mode = "semantic"
)

// Filters restrict results by type, time, size and place.
type Filters struct {
	Extensions     []string
	ModifiedAfter  time.Time
	ModifiedBefore time.Time
	CreatedAfter   time.Time
	CreatedBefore  time.Time
	MinSize        int64
	MaxSize        int64 // 0: no maximum
	PathGlob       string
}

// Request is one search.
type Request struct {
	Query     string
	Directory string // only below this folder
	Filters   Filters
	Limit     int
	MinScore  float64
	Mode      Mode
	Snippets  bool
}

// Result is one ranked file.
type Result struct {
	File     core.File
	Score    float64
	Semantic float64 // exp(-distance); 0 without vectors
	Keyword  float64 // BM25 relative to the best keyword match, 0 to 1
	Snippet  string  // HTML-escaped passage text with <mark> around matches
}

// Tuning holds the ranking's knobs. The defaults are general choices,
// measured on the Cranfield collection (bench/quality, bench/tune) and
// written in docs/api.md; nothing is tuned per query or per collection.
type Tuning struct {
	// FileWeights are the BM25 column weights of name, folder names, title,
	// keywords and summary.
	FileWeights [5]float64
	// FileShare is how much the file-level score counts beside the best
	// passage's score.
	FileShare float64
	// Pseudo-relevance feedback: the words most typical of the best
	// FeedbackDocs first-pass files (found in at least FeedbackMinDF of
	// them) are added, up to FeedbackTerms; the query's own words count
	// OriginalBoost times an added word. FeedbackTerms 0 turns it off.
	FeedbackDocs, FeedbackTerms, FeedbackMinDF, OriginalBoost int
	// DistanceScale scales the Euclidean distance between unit vectors
	// before semantic_score = exp(-distance): larger makes meaning count
	// more against keywords.
	DistanceScale float64
	// FeedbackHybrid picks the feedback files by the hybrid score rather than
	// by keywords alone.
	FeedbackHybrid bool
	// VectorFeedback moves the query vector toward the feedback passages
	// (Rocchio): q + VectorFeedback * their mean.
	VectorFeedback float64
	// SemanticOnlyMin is the cosine similarity a file without any keyword
	// match needs to be a result of a hybrid search.
	SemanticOnlyMin float64
}

// DefaultTuning is the ranking Trove ships with.
var DefaultTuning = Tuning{
	// Authored metadata counts most, derived metadata least.
	FileWeights:    [5]float64{2, 0.5, 3, 1, 0.5},
	FileShare:      0.25,
	FeedbackDocs:   5,
	FeedbackTerms:  10,
	FeedbackMinDF:  2,
	OriginalBoost:  2,
	FeedbackHybrid: true,
	VectorFeedback: 1,
	DistanceScale:  1,
	// With the builtin model, passages related to a query without sharing
	// a word with it score 0.18-0.40 and unrelated ones 0.00-0.21.
	SemanticOnlyMin: 0.3,
}

// Candidate set sizes.
const (
	keywordCandidates  = 300
	semanticCandidates = 200
	// rescoredCandidates: only the best keyword candidates get an exact
	// semantic score; further down, meaning cannot lift them into the results.
	rescoredCandidates = 1000
	// matchBudget bounds the files a query's text expression may match in an
	// index of at least commonMin files (see contentExpr).
	matchBudget = 2000
	commonMin   = 5000
	// scanCap bounds the matches scored when every word is common.
	scanCap = 2 * matchBudget
)

// Engine runs searches. It is safe for concurrent use.
type Engine struct {
	Store    *store.Store
	Vectors  *Vectors
	Embedder func() embedding.Embedder
	Log      *slog.Logger
	Tuning   Tuning // the zero value means DefaultTuning
}

func (e *Engine) tuning() Tuning {
	if e.Tuning.OriginalBoost == 0 {
		return DefaultTuning
	}
	return e.Tuning
}

// candidate gathers what is known about one file during a search.
type candidate struct {
	id        int64
	textScore float64 // BM25 of the file's text
	hasText   bool
	fileScore float64 // BM25 of its name, folders, title, keywords, summary
	sim       float64 // cosine similarity of its closest passage
	semOrd    int32   // that passage
	hasVector bool
}

// Search runs one request.
func (e *Engine) Search(ctx context.Context, req Request) ([]Result, error) {
	q := query.Parse(req.Query)
	if len(q.Errors) > 0 {
		return nil, core.Invalid("INVALID_QUERY", "%s", strings.Join(q.Errors, "; "))
	}
	p := newPlan(q)
	filter, err := e.fileFilter(req, q)
	if err != nil {
		return nil, err
	}
	if len(p.clauses) == 0 {
		return e.browse(ctx, req, filter)
	}
	cands := map[int64]*candidate{}
	get := func(id int64) *candidate {
		c, ok := cands[id]
		if !ok {
			c = &candidate{id: id}
			cands[id] = c
		}
		return c
	}
	qv := e.queryVector(ctx, p, req.Mode)
	if req.Mode != Semantic {
		// Feedback moves the query vector toward the best first matches.
		if qv, err = e.keyword(ctx, p, filter, qv, get); err != nil {
			return nil, err
		}
	}
	if qv != nil && req.Mode != Keyword {
		for _, m := range e.Vectors.Search(qv, semanticCandidates) {
			c := get(m.FileID)
			c.sim, c.semOrd, c.hasVector = m.Similarity, m.Ord, true
		}
	}
	results, err := e.rank(ctx, req, p, filter, cands, qv)
	if err != nil {
		return nil, err
	}
	if req.Snippets {
		e.snippets(ctx, results, p, cands)
	}
	return results, nil
}

// keyword collects BM25 matches from passages and from file metadata, in
// two passes when feedback finds words to add. It returns the query vector,
// moved toward the feedback passages.
func (e *Engine) keyword(ctx context.Context, p plan, filter store.FileFilter, qv []float32, get func(int64) *candidate) ([]float32, error) {
	first := map[int64]*candidate{}
	df := e.docFreqs(ctx, p.clauses)
	if err := e.keywordPass(ctx, p.clauses, df, p.nameExpr(df), filter, 1, func(id int64) *candidate {
		c, ok := first[id]
		if !ok {
			c = &candidate{id: id}
			first[id] = c
		}
		return c
	}); err != nil {
		return qv, err
	}
	tn := e.tuning()
	if qv != nil {
		for id, m := range e.Vectors.Best(qv, bestKeyword(first, rescoredCandidates, tn.FileShare)) {
			first[id].sim, first[id].semOrd, first[id].hasVector = m.Similarity, m.Ord, true
		}
	}
	added, passages := e.expand(ctx, p, first, tn)
	if qv != nil && len(passages) > 0 {
		qv = moveQuery(qv, e.Vectors.Centroid(passages), tn.VectorFeedback)
	}
	for id, c := range first {
		*get(id) = *c
		get(id).hasVector = false // scored again with the final query vector
	}
	if len(added) == 0 {
		return qv, nil
	}
	// FTS5's BM25 sums over a query's phrases, so scoring the added words
	// alone and adding 1/OriginalBoost of it ranks exactly as one query with
	// the original words counted OriginalBoost times, without scoring the
	// original words twice.
	return qv, e.keywordPass(ctx, added, e.docFreqs(ctx, added), "", filter, 1/float64(tn.OriginalBoost), get)
}

// keywordPass adds weight times the BM25 of clauses over the files' text
// (pruned by their document frequencies df, see contentExpr), and of
// nameExpr over their metadata, to the candidates' scores.
func (e *Engine) keywordPass(ctx context.Context, clauses []clause, df map[string]int, nameExpr string, filter store.FileFilter, weight float64, get func(int64) *candidate) error {
	// Text and metadata are ranked side by side on two read connections.
	var files []store.Hit
	var fileErr error
	var wg sync.WaitGroup
	if nameExpr != "" {
		wg.Go(func() {
			weights := e.tuning().FileWeights
			if filter.Empty() {
				files, fileErr = e.Store.FileHits(ctx, nameExpr, weights, keywordCandidates)
			} else {
				files, fileErr = e.Store.FilteredFileHits(ctx, nameExpr, weights, filter, keywordCandidates)
			}
		})
	}
	expr, ranked := contentExpr(clauses, df)
	var hits []store.Hit
	var err error
	if filter.Empty() {
		hits, err = e.Store.ContentHits(ctx, expr, keywordCandidatesFor(ranked), ranked)
	} else {
		hits, err = e.Store.FilteredContentHits(ctx, expr, filter, keywordCandidates)
	}
	wg.Wait()
	if err = errors.Join(err, fileErr); err != nil {
		return err
	}
	for _, h := range hits {
		c := get(h.FileID)
		c.textScore, c.hasText = c.textScore+weight*h.Score, true
	}
	for _, h := range files {
		get(h.FileID).fileScore += weight * h.Score
	}
	return nil
}

func keywordCandidatesFor(ranked bool) int {
	if ranked {
		return keywordCandidates
	}
	return scanCap
}

// contentExpr is the text expression, pruned for large indexes so a query
// costs the same whatever the index size: FTS5 scores every file a query
// matches, so the query keeps its rarest words while their files add up to
// at most matchBudget, and leaves out the common ones (which add little to
// BM25 anyway). When even its rarest word is that common, the first
// scanCap matches are scored instead of all (ranked is then false). A nil
// df (small index) keeps every clause.
func contentExpr(clauses []clause, df map[string]int) (expr string, ranked bool) {
	if df == nil {
		return or(clauses), true
	}
	sorted := slices.Clone(clauses)
	slices.SortStableFunc(sorted, func(a, b clause) int { return df[a.stem] - df[b.stem] })
	var kept []clause
	total := 0
	for _, c := range sorted {
		d := df[c.stem] // 0 for phrases and prefixes, which are selective
		if len(kept) > 0 && total+d > matchBudget {
			continue
		}
		kept = append(kept, c)
		total += d
	}
	return or(kept), total <= scanCap
}

// docFreqs returns how many files' text hold each single-word clause, or
// nil when the index is too small for pruning to matter (or on error).
func (e *Engine) docFreqs(ctx context.Context, clauses []clause) map[string]int {
	if e.Store.DocCount() < commonMin {
		return nil
	}
	var stems []string
	for _, c := range clauses {
		if c.stem != "" {
			stems = append(stems, c.stem)
		}
	}
	_, df, err := e.Store.DocFreqs(ctx, stems)
	if err != nil {
		return nil
	}
	return df
}

// queryVector embeds the query's words when the index holds vectors of the
// same model; nil otherwise (keyword ranking alone).
func (e *Engine) queryVector(ctx context.Context, p plan, mode Mode) []float32 {
	if mode == Keyword || e.Vectors == nil || e.Embedder == nil || p.text == "" {
		return nil
	}
	em := e.Embedder()
	if em.Model() != e.Vectors.Model() || e.Vectors.Len() == 0 {
		return nil
	}
	ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	vs, err := em.Embed(ectx, []string{p.text})
	if err != nil || len(vs) != 1 {
		// The embedder's health monitor logs the outage, and the answer
		// carries a notice.
		e.Log.Debug("query embedding failed; keyword ranking only", "err", err)
		return nil
	}
	return vs[0]
}

// rank filters the candidates and scores them.
func (e *Engine) rank(ctx context.Context, req Request, p plan, filter store.FileFilter, cands map[int64]*candidate, qv []float32) ([]Result, error) {
	ids := make([]int64, 0, len(cands))
	allowed := make(map[int64]bool, len(cands))
	for id := range cands {
		ids = append(ids, id)
		allowed[id] = true
	}
	if !filter.Empty() {
		// Without a filter every candidate is allowed; the records loaded for
		// the results drop any file deleted meanwhile.
		var err error
		if allowed, err = e.Store.Allowed(ctx, ids, filter); err != nil {
			return nil, err
		}
	}
	if p.excluded != "" {
		ex, err := e.Store.MatchingFiles(ctx, p.excluded)
		if err != nil {
			return nil, err
		}
		for id := range ex {
			delete(allowed, id)
		}
	}
	var keep []*candidate
	for _, c := range cands {
		if allowed[c.id] {
			keep = append(keep, c)
		}
	}
	if qv != nil && req.Mode != Keyword {
		var missing []int64
		for _, id := range bestKeyword(cands, rescoredCandidates, e.tuning().FileShare) {
			if allowed[id] && !cands[id].hasVector {
				missing = append(missing, id)
			}
		}
		for id, m := range e.Vectors.Best(qv, missing) {
			c := cands[id]
			c.sim, c.semOrd, c.hasVector = m.Similarity, m.Ord, true
		}
	}
	return e.score(ctx, req, keep)
}

// score combines the signals: keyword_score is the raw keyword score over
// the best one among the candidates (0 to 1), semantic_score is
// exp(-distance) of the best passage, and the score is their sum.
func (e *Engine) score(ctx context.Context, req Request, keep []*candidate) ([]Result, error) {
	share := e.tuning().FileShare
	raw := func(c *candidate) float64 { return c.textScore + share*c.fileScore }
	best := 0.0
	for _, c := range keep {
		best = max(best, raw(c))
	}
	type scored struct {
		c                        *candidate
		score, keyword, semantic float64
	}
	var list []scored
	for _, c := range keep {
		s := scored{c: c}
		if best > 0 && req.Mode != Semantic {
			s.keyword = raw(c) / best
		}
		if c.hasVector && req.Mode != Keyword {
			s.semantic = math.Exp(-e.tuning().DistanceScale * Distance(c.sim))
		}
		if req.Mode == Hybrid && s.keyword == 0 && c.sim < e.tuning().SemanticOnlyMin {
			continue
		}
		s.score = s.keyword + s.semantic
		if s.score > 0 && s.score >= req.MinScore {
			list = append(list, s)
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return int(a.c.id - b.c.id)
	})
	list = list[:min(len(list), max(req.Limit, 1))]
	ids := make([]int64, len(list))
	for i, s := range list {
		ids[i] = s.c.id
	}
	files, err := e.Store.IndexedFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(list))
	for _, s := range list {
		f, ok := files[s.c.id]
		if !ok || !globMatch(req.Filters.PathGlob, f.Path) {
			continue
		}
		out = append(out, Result{File: f, Score: s.score, Keyword: s.keyword, Semantic: s.semantic})
	}
	return out, nil
}

// browse answers a query of filters only: the most recently modified files.
func (e *Engine) browse(ctx context.Context, req Request, filter store.FileFilter) ([]Result, error) {
	files, err := e.Store.Browse(ctx, filter, max(req.Limit, 1))
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(files))
	for _, f := range files {
		if globMatch(req.Filters.PathGlob, f.Path) {
			out = append(out, Result{File: f})
		}
	}
	return out, nil
}

// fileFilter merges the request's filters and the query's operators.
func (e *Engine) fileFilter(req Request, q query.Query) (store.FileFilter, error) {
	f := req.Filters
	out := store.FileFilter{Scope: req.Directory, MinSize: f.MinSize, MaxSize: f.MaxSize}
	out.Exts = append(normalizeExts(f.Extensions), q.Exts...)
	for _, in := range q.In {
		if strings.HasPrefix(in, "/") {
			out.Under = append(out.Under, strings.TrimSuffix(in, "/"))
		} else {
			out.Folders = append(out.Folders, in)
		}
	}
	later := func(a, b time.Time) time.Time {
		if a.After(b) {
			return a
		}
		return b
	}
	earlier := func(a, b time.Time) time.Time {
		if a.IsZero() || !b.IsZero() && b.Before(a) {
			return b
		}
		return a
	}
	out.ModifiedAfter = ns(later(f.ModifiedAfter, q.After))
	out.ModifiedBefore = ns(earlier(f.ModifiedBefore, q.Before))
	out.CreatedAfter, out.CreatedBefore = ns(f.CreatedAfter), ns(f.CreatedBefore)
	if f.PathGlob != "" && !pathglob.Valid(f.PathGlob) {
		return out, core.InvalidField("INVALID_FILTER", "filters.path", "%q is not a valid glob pattern", f.PathGlob)
	}
	return out, nil
}

func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func normalizeExts(exts []string) []string {
	var out []string
	for _, e := range exts {
		if e = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(e), ".")); e != "" {
			out = append(out, "."+e)
		}
	}
	return out
}

// globMatch applies the path filter (pathglob's reading, with no watched
// folder to anchor a relative glob).
func globMatch(glob, path string) bool { return pathglob.Match(glob, path, "") }

// bestKeyword returns the ids of the n candidates with the best keyword
// scores.
func bestKeyword(cands map[int64]*candidate, n int, share float64) []int64 {
	type scored struct {
		id    int64
		score float64
	}
	list := make([]scored, 0, len(cands))
	for id, c := range cands {
		if c.hasText || c.fileScore > 0 {
			list = append(list, scored{id, c.textScore + share*c.fileScore})
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.id - b.id)
	})
	ids := make([]int64, min(n, len(list)))
	for i := range ids {
		ids[i] = list[i].id
	}
	return ids
}
