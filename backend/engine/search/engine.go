// Package search answers queries with a hybrid ranking: BM25F over file
// text, names, folders, titles, keywords and summaries (matches found by
// SQLite FTS5, scored in Go), a name match, and vector similarity of
// passages to the query, combined as the spec says:
// score = exp(-distance) + keyword_score.
//
// Retrieval (this file and retrieve.go) does the I/O: it finds candidate
// files and gathers what the index knows about them. Fuse (fusion.go) is a
// pure function of that evidence and the Tuning.
package search

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/text/pathglob"
	"trove/backend/engine/text/query"
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
	// Names searches names and paths only (namesmode.go).
	Names Mode = "names"
)

// Filters restrict results by type, time, size and place.
type Filters struct {
	Extensions     []string
	Languages      []string // ISO 639-1 codes of the files' text
	ModifiedAfter  time.Time
	ModifiedBefore time.Time
	CreatedAfter   time.Time
	CreatedBefore  time.Time
	MinSize        int64
	MaxSize        int64 // 0: no maximum
	PathGlob       string
	// AfterID and ThroughID: only the files added to the index between two
	// moments (ids are never reused); 0 for no bound.
	AfterID, ThroughID int64
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
	Explain   bool // fill Result.Explain

	// Set by start from the request and the query's fields.
	paths pathTest
	kinds []string // the query's kind: fields
}

// Result is one ranked file.
type Result struct {
	File     core.File
	Score    float64
	Semantic float64      // exp(-distance); 0 without vectors
	Keyword  float64      // text BM25F (0 to 1) plus the weighted name match
	Snippet  string       // HTML-escaped passage text with <mark> around matches
	Page     int          // the page of the file the snippet stands on; 0: not known (no pages)
	Explain  *Explanation // with Request.Explain
	// Matched: the file holds a word of the query (as typed or corrected)
	// or matches by name, or the query has no words (filters only); false
	// for a file found by meaning alone (Scored.Matched).
	Matched bool
}

// Index is the part of the store a search reads: the files, the evidence
// of their words, their passages' text and the index's word list. Each
// part is declared where it is used.
type Index interface {
	Files
	Evidence
	Texts
	Words
}

var _ Index = (*store.Store)(nil)

// Files lists the files that pass a search's filters or match its words
// (without scoring them) and reads their records.
type Files interface {
	Browse(ctx context.Context, f store.FileFilter, limit int, keep func(core.File) bool) ([]core.File, error)
	BrowseKeys(ctx context.Context, f store.FileFilter, limit int) ([]store.FileKey, bool, error)
	MatchingKeys(ctx context.Context, m store.Matches, f store.FileFilter, limit int) ([]store.FileKey, bool, error)
	KeysOf(ctx context.Context, ids []int64, f store.FileFilter) (map[int64]store.FileKey, error)
	ExcludedAmong(ctx context.Context, q store.Expr, ids []int64) (map[int64]bool, error)
	Allowed(ctx context.Context, ids []int64, f store.FileFilter) (map[int64]bool, error)
	IndexedFiles(ctx context.Context, ids []int64) (map[int64]core.File, error)
	File(ctx context.Context, id int64) (core.File, error)
}

// Engine runs searches. It is safe for concurrent use.
type Engine struct {
	Store    Index
	Vectors  *Vectors
	Embedder func() embedding.Embedder
	Log      *slog.Logger
	Tuning   *Tuning // nil means DefaultTuning

	spell speller
	pages pageCache // pages kept for reuse (pagecache.go)
}

func (e *Engine) tuning() Tuning {
	if e.Tuning == nil {
		return DefaultTuning
	}
	return *e.Tuning
}

// Search runs one request.
func (e *Engine) Search(ctx context.Context, req Request) ([]Result, error) {
	p, filter, err := e.start(&req)
	if err != nil {
		return nil, err
	}
	if len(req.kinds) > 0 { // kinds and extensions: any of them
		req.paths.typeOK = kindMatcher(req.kinds, filter.Exts)
		filter.Exts = nil
	}
	if req.Mode == Names {
		return e.names(ctx, req, p.q, filter)
	}
	if len(p.terms) == 0 {
		return e.browse(ctx, req, filter)
	}
	s := newSearcher(e, req, p, filter)
	ranked, err := s.rank(ctx)
	if err != nil {
		return nil, err
	}
	return s.results(ctx, ranked)
}

// start parses a request's query, fills in its default mode and merges
// its filters with the query's operators.
func (e *Engine) start(req *Request) (plan, store.FileFilter, error) {
	q := query.Parse(req.Query)
	if len(q.Errors) > 0 {
		return plan{}, store.FileFilter{}, core.Fail(core.BadQuery, "%s", strings.Join(q.Errors, "; "))
	}
	if err := checkFields(q); err != nil {
		return plan{}, store.FileFilter{}, err
	}
	kinds, err := kindsOf(q.Kinds)
	if err != nil {
		return plan{}, store.FileFilter{}, err
	}
	if req.Mode == "" {
		req.Mode = Hybrid
	}
	req.kinds = kinds
	req.paths = pathTest{glob: req.Filters.PathGlob, names: q.Names, paths: q.Paths}
	filter, err := e.fileFilter(*req, q)
	applyFields(&filter, q)
	return newPlan(q), filter, err
}

func (e *Engine) logSpelling(err error) { e.Log.Warn("spelling word list", "err", err) }

// queryVector embeds text when the index holds vectors of the same model;
// nil otherwise (keyword ranking alone).
func (e *Engine) queryVector(ctx context.Context, text string, mode Mode) []float32 {
	if mode == Keyword || e.Vectors == nil || e.Embedder == nil || text == "" {
		return nil
	}
	em := e.Embedder()
	if em.Model() != e.Vectors.Model() || e.Vectors.Len() == 0 {
		return nil
	}
	ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	vs, err := em.Embed(ectx, []string{text})
	if err != nil || len(vs) != 1 {
		// The embedder's health monitor logs the outage, and the answer
		// carries a notice.
		e.Log.Debug("query embedding failed; keyword ranking only", "err", err)
		return nil
	}
	return vs[0]
}

// browse answers a query of filters only: the most recently modified files.
func (e *Engine) browse(ctx context.Context, req Request, filter store.FileFilter) ([]Result, error) {
	files, err := e.Store.Browse(ctx, filter, max(req.Limit, 1), func(f core.File) bool {
		return req.paths.ok(f.Path)
	})
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(files))
	for _, f := range files {
		out = append(out, Result{File: f, Matched: true}) // every file passes what the query asks
	}
	return out, nil
}

// fileFilter merges the request's filters and the query's operators.
func (e *Engine) fileFilter(req Request, q query.Query) (store.FileFilter, error) {
	f := req.Filters
	out := store.FileFilter{Scope: req.Directory, MinSize: f.MinSize, MaxSize: f.MaxSize, AfterID: f.AfterID, ThroughID: f.ThroughID}
	out.Exts = append(normalizeExts(f.Extensions), q.Exts...)
	for _, l := range f.Languages {
		out.Langs = append(out.Langs, strings.ToLower(l))
	}
	out.Langs = bothLanguages(out.Langs, q.Langs)
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
	if f.PathGlob != "" {
		if !pathglob.Valid(f.PathGlob) {
			return out, &core.BadGlob{Glob: f.PathGlob}
		}
		// SQLite narrows the files with a looser pattern; globMatch decides.
		if strings.Contains(f.PathGlob, "/") {
			out.PathLike = looseGlob(fullPathGlob(f.PathGlob))
		} else {
			out.NameLike = looseGlob(f.PathGlob)
		}
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

// fullPathGlob anchors a relative glob with a slash anywhere in the path.
func fullPathGlob(glob string) string {
	if !strings.HasPrefix(glob, "/") && !strings.HasPrefix(glob, "**") {
		return "**/" + glob
	}
	return glob
}

// looseGlob turns a doublestar pattern into an SQLite GLOB pattern that
// matches at least the same strings: SQLite's * also crosses slashes, and
// alternatives, classes and escapes become wildcards.
func looseGlob(glob string) string {
	var b strings.Builder
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\\':
			b.WriteByte('?')
			i++
		case '[':
			end := i + 1
			for end < len(rs) && rs[end] != ']' || end == i+1 && end < len(rs) {
				end++
			}
			b.WriteByte('?')
			if end >= len(rs) {
				return b.String()
			}
			i = end
		case '{':
			depth := 0
			for ; i < len(rs); i++ {
				if rs[i] == '{' {
					depth++
				} else if rs[i] == '}' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			b.WriteByte('*')
		default:
			b.WriteRune(rs[i])
		}
	}
	return b.String()
}

// bothLanguages is what filters.language and the query's lang: both let
// through (either alone when the other is not given).
func bothLanguages(filter, typed []string) []string {
	switch {
	case len(typed) == 0:
		return filter
	case len(filter) == 0:
		return typed
	}
	var out []string
	for _, l := range typed {
		if slices.Contains(filter, l) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return []string{"-"} // no language is both: nothing passes
	}
	return out
}
