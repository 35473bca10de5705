package search

import (
	"context"

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
	WordDocFreqs(ctx context.Context, words []string) (map[string]int, error)
	MainWordDocFreqs(ctx context.Context, words []string) (map[string]int, error)
	FileDocFreqs(ctx context.Context, terms []string) (int, map[string]int, error)
	TermMatches(ctx context.Context, t store.TermTable, q store.Expr, scope store.TermScope) ([]store.TermMatch, store.TableStats, error)
	PhraseFiles(ctx context.Context, t store.TermTable, phrases []store.Phrase, filter store.FileFilter) ([][]int64, error)
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

// searcher runs one search through its phases (rank): weighing the
// query (weigh.go), finding candidates (phaseone.go), completing the
// shortlist's evidence (complete.go) and fusing it (Fuse, a pure
// function), then pseudo-relevance feedback (feedback.go) and the page
// (page.go, results.go).
type searcher struct {
	eng    *Engine
	req    Request
	parsed plan
	filter store.FileFilter
	tuning Tuning

	keywords           // the query's terms and their weights
	evidence           // what is known of the candidate files
	qv       []float32 // the query's vector; nil without one
	added    []string  // feedback words

	// listAll, when set, starts listing every file matching the typed
	// words as soon as their weights are known, beside ranking; all
	// delivers that listing to matching. listFilter is the listing's
	// filter: filter without the languages, which the page applies after
	// counting them (facets).
	listAll    bool
	listFilter store.FileFilter
	all        chan listing
	// countOnly: the page orders by relevance, so the listing's files need
	// only what counting and grouping read (store.Matches.CountOnly).
	countOnly bool
	// early delivers the snippets of the best ranked files, started as
	// ranking ends (startEarlySnippets); nil when none were.
	early <-chan map[int64]snip
}

// listing is every file matching the query's typed words, for a page's
// counts.
type listing struct {
	keys []store.FileKey
	more bool
	err  error
}

func newSearcher(e *Engine, req Request, p plan, filter store.FileFilter) *searcher {
	return &searcher{eng: e, req: req, parsed: p, filter: filter, listFilter: filter, tuning: e.tuning().forWords(p.wordCount()),
		evidence: newEvidence()}
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
	if s.qv != nil && len(passages) > 0 && s.tuning.VectorFeedback > 0 {
		s.qv = moveQuery(s.qv, s.eng.Vectors.Centroid(passages), s.tuning.VectorFeedback)
		s.addSimilar(s.nearest(s.qv))
	}
	return s.fuse(ctx)
}
