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
	// SearchExplanation is why a result ranks where it does.
	SearchExplanation = search.Explanation
	SearchTermSource  = search.Source
)

// Search modes.
const (
	ModeHybrid   = search.Hybrid
	ModeKeyword  = search.Keyword
	ModeSemantic = search.Semantic
)

// Where a query word of an explanation comes from.
const (
	SourceTyped     = search.Typed
	SourceCorrected = search.Corrected
	SourceFeedback  = search.Feedback
)

// Search runs a query over the indexed files.
func (s *Service) Search(ctx context.Context, req SearchRequest) ([]SearchResult, error) {
	return s.search.Search(ctx, req)
}
