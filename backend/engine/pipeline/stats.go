package pipeline

import (
	"context"

	"trove/backend/store"
	"trove/backend/store/tokens"
)

// DocStats gives the enricher the index's document frequencies, mapping the
// words it asks about to the stemmed terms the full-text index holds (the
// store caches the counts).
type DocStats struct{ Store Freqs }

// Freqs counts the files that hold each of some index terms, and all files.
type Freqs interface {
	DocFreqs(ctx context.Context, terms []string) (int, map[string]int, error)
}

var _ Freqs = (*store.Store)(nil)

// DocFreqs implements enrich.Stats.
func (d DocStats) DocFreqs(ctx context.Context, words []string) (int, map[string]int, error) {
	stemOf := make(map[string]string, len(words))
	stems := make([]string, 0, len(words))
	for _, w := range words {
		if _, seen := stemOf[w]; !seen {
			s := tokens.Stem(w)
			stemOf[w] = s
			stems = append(stems, s)
		}
	}
	docs, byStem, err := d.Store.DocFreqs(ctx, stems)
	if err != nil {
		return 0, nil, err
	}
	out := make(map[string]int, len(stemOf))
	for w, s := range stemOf {
		out[w] = byStem[s]
	}
	return docs, out, nil
}
