package service

import (
	"context"

	"trove/backend/engine/search"
)

// Paged search: the engine's types, so the shells need no import of it.
type (
	PageRequest = search.PageRequest
	Page        = search.Page
	PageResult  = search.PageResult
	SortKey     = search.SortKey
	ExtCount    = search.ExtCount
	LangCount   = search.LangCount
)

// MaxCounted is the most matching files a search counts exactly.
const MaxCounted = search.MaxCounted

// Kinds are the families of file types of the type filter.
var Kinds = search.Kinds

// KindOfName returns the kind of a file by its name (a compressed file
// is of the kind of the file inside).
func KindOfName(name string) string { return search.KindOfName(name) }

// ValidKind reports whether id names a kind.
func ValidKind(id string) bool { return search.ValidKind(id) }

// PageAnswer is one page of results and what they lack (see SearchAnswer).
type PageAnswer struct {
	Page
	Notice string
}

// SearchPage runs a query and returns one page of its results, with the
// true total, under the same time limit and fallback as Search.
func (s *Service) SearchPage(ctx context.Context, req PageRequest) (PageAnswer, error) {
	var page Page
	notice, err := s.guard(ctx, req.Request, func(ctx context.Context, r SearchRequest) (err error) {
		req.Request = r
		page, err = s.search.SearchPage(ctx, req)
		return err
	})
	if err != nil {
		return PageAnswer{}, err
	}
	for i := range page.Results {
		s.markOffline(&page.Results[i].File)
		for j := range page.Results[i].Copies {
			s.markOffline(&page.Results[i].Copies[j])
		}
	}
	return PageAnswer{Page: page, Notice: notice}, nil
}
