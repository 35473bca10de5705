package service

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/engine/search"
	"trove/backend/engine/text/query"
)

// SearchRequest and SearchResult are the search engine's, so the shells
// need no import of it.
type (
	SearchRequest = search.Request
	SearchResult  = search.Result
	SearchFilters = search.Filters
	SearchMode    = search.Mode
	// SearchExplanation is why a result ranks where it does.
	SearchExplanation = search.Explanation
	SearchTermSource  = search.Source
)

// Search modes.
const (
	ModeHybrid   = search.Hybrid
	ModeKeyword  = search.Keyword
	ModeSemantic = search.Semantic
	ModeNames    = search.Names
)

// SearchAnswer is what a search found, and what it could not use.
type SearchAnswer struct {
	Results []SearchResult
	// Notice tells people what the results lack ("Semantic search is
	// unavailable: ..."); "" when nothing is missing.
	Notice string
}

// MaxQueryLength is the longest query, in characters.
const MaxQueryLength = query.MaxLength

// DefaultSearchTimeout is how long one search may take. A typical search
// takes tens of milliseconds in an index of 100,000 files; one that runs
// far longer (a storm of prefixes, a huge index on a busy machine) is
// stopped so it cannot hold a database connection and a CPU for good.
const DefaultSearchTimeout = 5 * time.Second

// Search runs a query over the indexed files. While the embedding provider
// does not answer, the results rank by words alone (a semantic search
// becomes a keyword search) and the notice says so. It stops when ctx ends
// (the client left: SEARCH_CANCELLED) or after the search time limit
// (SEARCH_TIMEOUT); both are 503s. A search either finishes within its
// time or fails: no partial results.
func (s *Service) Search(ctx context.Context, req SearchRequest) (SearchAnswer, error) {
	var res []SearchResult
	notice, err := s.guard(ctx, req, func(ctx context.Context, req SearchRequest) (err error) {
		res, err = s.search.Search(ctx, req)
		return err
	})
	if err != nil {
		return SearchAnswer{}, err
	}
	for i := range res {
		s.markOffline(&res[i].File)
	}
	return SearchAnswer{Results: res, Notice: notice}, nil
}

// markOffline marks a file whose folder's drive or share is not there: it
// is found all the same, and cannot be opened until it returns.
func (s *Service) markOffline(f *core.File) {
	f.Offline = s.indexer.Offline(f.DirID)
}

// guard runs one search, as run, under the search time limit and the
// embedding fallback that Search describes, and returns the notice.
func (s *Service) guard(ctx context.Context, req SearchRequest, run func(context.Context, SearchRequest) error) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.searchTimeout)
	defer cancel()
	s.searches.running.Add(1)
	defer s.searches.running.Add(-1)
	if s.searchHook != nil {
		s.searchHook(ctx, req)
	}
	wantsMeaning := req.Mode != ModeKeyword && req.Mode != ModeNames
	fellBack := false
	if req.Mode == ModeSemantic && s.Embedding().Failing() {
		req.Mode, fellBack = ModeKeyword, true
	}
	err := run(ctx, req)
	emb := s.Embedding()
	if err == nil && req.Mode == ModeSemantic && emb.Failing() && !fellBack {
		// The provider failed during this search.
		req.Mode = ModeKeyword
		err = run(ctx, req)
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		s.searches.timedOut.Add(1)
		s.log.Warn("search stopped at its time limit", "limit", s.searchTimeout, "query_chars", utf8.RuneCountInString(req.Query))
		return "", core.Fail(core.SearchTimeout, "the search took longer than %s and was stopped; narrow it (fewer words ending in *, a folder or filters) and try again", s.searchTimeout)
	case ctx.Err() != nil:
		s.searches.cancelled.Add(1)
		return "", core.Fail(core.SearchCancelled, "the search was cancelled: %v", context.Cause(ctx))
	case err != nil:
		return "", s.indexErr(err)
	}
	if wantsMeaning && emb.Failing() {
		return "Semantic search is unavailable (" + emb.Message + "); these results match your words only.", nil
	}
	return "", nil
}

// searchCounts count searches by how they ended.
type searchCounts struct{ running, timedOut, cancelled atomic.Int64 }

// SearchCounts reports how many searches are running, and how many were
// stopped by their time limit or cancelled since the start.
func (s *Service) SearchCounts() (running, timedOut, cancelled int) {
	return int(s.searches.running.Load()), int(s.searches.timedOut.Load()), int(s.searches.cancelled.Load())
}

// Where a query word of an explanation comes from.
const (
	SourceTyped     = search.Typed
	SourceCorrected = search.Corrected
	SourceFeedback  = search.Feedback
)
