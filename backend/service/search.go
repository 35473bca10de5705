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

// Search runs a query over the indexed files.
func (s *Service) Search(ctx context.Context, req SearchRequest) ([]SearchResult, error) {
	res, err := s.search.Search(ctx, req)
	return res, s.indexErr(err)
}
