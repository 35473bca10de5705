package client

//go:generate go run ./internal/typegen ../backend/shell/apidoc/openapi.json types_gen.go

// The API's JSON shapes are generated from its OpenAPI document
// (types_gen.go). A client ignores fields it does not know, so a newer
// Trove stays readable; what follows are the client's own helpers on them.

// Matched reports whether the search found files matching a word of the
// query: false when it found none, or only files close in meaning, which
// Trove's clients report as "No files match". Without keyword_matches
// (see KeywordMatches), any result counts.
func (r *SearchResponse) Matched() bool {
	if r.KeywordMatches != nil {
		return *r.KeywordMatches > 0
	}
	return len(r.Results) > 0
}

// Indexed reports whether every file the folder's scan found is processed
// (for a names-only folder: recorded by name).
func (f Folder) Indexed() bool {
	done := f.IndexedCount + f.FailedCount
	if f.NamesOnly {
		done = int64(f.Progress.Names.Done)
	}
	return f.Status != "indexing" && f.Status != "error" && done >= f.FileCount
}
