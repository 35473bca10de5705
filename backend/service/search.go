package service

import (
	"context"

	"trove/backend/search"
)

// SearchRequest and SearchResult are the search engine's, so the shells
// need no import of it.
type (
	SearchRequest = search.Request
	SearchResult  = search.Result
	SearchFilters = search.Filters
	SearchMode    = search.Mode
)

// Search modes.
const (
	ModeHybrid   = search.Hybrid
	ModeKeyword  = search.Keyword
	ModeSemantic = search.Semantic
)

// SearchAnswer is what a search found, and what it could not use.
type SearchAnswer struct {
	Results []SearchResult
	// Notice tells people what the results lack ("Semantic search is
	// unavailable: ..."); "" when nothing is missing.
	Notice string
}

// Search runs a query over the indexed files. While the embedding provider
// does not answer, the results rank by words alone (a semantic search
// becomes a keyword search) and the notice says so.
func (s *Service) Search(ctx context.Context, req SearchRequest) (SearchAnswer, error) {
	wantsMeaning := req.Mode != ModeKeyword
	fellBack := false
	if req.Mode == ModeSemantic && s.Embedding().Failing() {
		req.Mode, fellBack = ModeKeyword, true
	}
	res, err := s.search.Search(ctx, req)
	if err != nil {
		return SearchAnswer{}, err
	}
	emb := s.Embedding()
	if req.Mode == ModeSemantic && emb.Failing() && !fellBack {
		// The provider failed during this search.
		req.Mode = ModeKeyword
		if res, err = s.search.Search(ctx, req); err != nil {
			return SearchAnswer{}, err
		}
	}
	ans := SearchAnswer{Results: res}
	if wantsMeaning && emb.Failing() {
		ans.Notice = "Semantic search is unavailable (" + emb.Message + "); these results match your words only."
	}
	return ans, nil
}
