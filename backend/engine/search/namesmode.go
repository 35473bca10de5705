package search

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"

	"trove/backend/engine/text/query"
	"trove/backend/store"
)

// Names mode searches names and paths only, as locate does: every word of
// the query is a piece of the path (case-insensitive), globs and fields
// apply, no text and no meaning are looked up. A query that finds nothing
// is read as a mistyped name and corrected against the names of the index
// (its trigram table finds the names sharing pieces with it).

// nameList lists the files names mode finds, best first: the name spelt
// out, the name starting with the first word, the name holding every
// word, the path holding them; shorter names first.
func (e *Engine) nameList(ctx context.Context, req Request, q query.Query, filter store.FileFilter) ([]entry, bool, []Correction, error) {
	words, excluded := nameModeWords(q.Terms), nameModeWords(q.Excluded)
	filter.PathHas = append(filter.PathHas, words...)
	keys, more, err := e.Store.BrowseKeys(ctx, filter, MaxCounted)
	if err != nil {
		return nil, false, nil, err
	}
	keys = slices.DeleteFunc(keys, func(k store.FileKey) bool {
		lower := strings.ToLower(k.Path)
		return !req.paths.ok(k.Path) || slices.ContainsFunc(excluded, func(x string) bool { return strings.Contains(lower, x) })
	})
	var fixes []Correction
	whole := strings.Join(words, " ")
	if len(keys) == 0 && len(words) == 1 {
		filter.PathHas = filter.PathHas[:len(filter.PathHas)-len(words)]
		if keys, err = e.nameTypos(ctx, whole, filter, req); err != nil {
			return nil, false, nil, err
		}
		if len(keys) > 0 {
			fixes = []Correction{{Typed: whole, Suggested: keys[0].Filename}}
			whole = strings.ToLower(keys[0].Filename)
			words = []string{whole}
		}
	}
	list := make([]entry, len(keys))
	for i, k := range keys {
		sc := nameModeScore(k, words, whole)
		list[i] = entry{key: k, ranked: true, scored: &Scored{C: &Candidate{ID: k.ID}, Score: sc, Keyword: sc, Name: sc, Matched: true}}
	}
	slices.SortStableFunc(list, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.scored.Score, a.scored.Score), cmp.Compare(len(a.key.Filename), len(b.key.Filename)),
			cmp.Compare(a.key.Path, b.key.Path))
	})
	return list, more, fixes, nil
}

// nameModeWords are the terms of a query as pieces of a path: lower
// case, a phrase whole, a prefix without its star.
func nameModeWords(terms []query.Term) []string {
	var out []string
	for _, t := range terms {
		if w := strings.ToLower(strings.TrimSpace(t.Text)); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// nameModeScore rates how well a file's name answers the words (0 to 1).
func nameModeScore(k store.FileKey, words []string, whole string) float64 {
	name := strings.ToLower(k.Filename)
	stem := strings.TrimSuffix(name, strings.ToLower(k.Extension))
	inName := !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(name, w) })
	switch {
	case len(words) == 0:
		return 1 // globs and fields alone: every file passes alike
	case name == whole || stem == whole:
		return 1
	case inName && strings.HasPrefix(name, words[0]):
		return 0.75
	case inName:
		return 0.5
	}
	return 0.25 // the folders hold some of the words
}

// nameTypos finds the names within a few edits of a mistyped one
// ("writter.go" finds writer.go), closest first.
func (e *Engine) nameTypos(ctx context.Context, typed string, filter store.FileFilter, req Request) ([]store.FileKey, error) {
	runes := []rune(typed)
	var grams []string
	for i := 0; i+3 <= len(runes); i++ {
		grams = append(grams, string(runes[i:i+3]))
	}
	ids, err := e.Store.NameMatches(ctx, grams, typoCandidates)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	known, err := e.Store.KeysOf(ctx, ids, filter)
	if err != nil {
		return nil, err
	}
	most := min(max(utf8.RuneCountInString(typed)/4, 1), 3)
	dist := map[int64]int{}
	var out []store.FileKey
	for _, k := range known {
		name := strings.ToLower(k.Filename)
		d := min(levenshtein.ComputeDistance(typed, name), levenshtein.ComputeDistance(typed, strings.TrimSuffix(name, strings.ToLower(k.Extension))))
		if d <= most && req.paths.ok(k.Path) {
			dist[k.ID] = d
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b store.FileKey) int {
		return cmp.Or(cmp.Compare(dist[a.ID], dist[b.ID]), cmp.Compare(len(a.Filename), len(b.Filename)), cmp.Compare(a.Path, b.Path))
	})
	return out, nil
}

// typoCandidates bounds the names sharing pieces with a mistyped one that
// are compared with it.
const typoCandidates = 500

// namesPage is a page of names mode.
func (e *Engine) namesPage(ctx context.Context, pr PageRequest, q query.Query, filter store.FileFilter, keep facetFilters) (Page, error) {
	list, more, fixes, err := e.nameList(ctx, pr.Request, q, filter)
	if err != nil {
		return Page{}, err
	}
	page, err := e.page(ctx, pr, nil, list, more, keep)
	page.Corrections = fixes
	return page, err
}

// names answers Search in names mode.
func (e *Engine) names(ctx context.Context, req Request, q query.Query, filter store.FileFilter) ([]Result, error) {
	page, err := e.namesPage(ctx, PageRequest{Request: req}, q, filter, facetFilters{})
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(page.Results))
	for i, r := range page.Results {
		out[i] = r.Result
	}
	return out, nil
}
