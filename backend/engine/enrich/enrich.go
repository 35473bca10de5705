// Package enrich gives every file a card: a title, a short summary and
// keywords, from a builtin extractive method or from an LLM.
//
// The builtin method (NewBuiltin) works offline in about a millisecond per
// file; the LLM methods (Ollama and OpenAI-compatible servers) fall back to
// it whenever the model cannot give a usable answer. New chooses one from
// the summarizer settings.
package enrich

import (
	"context"
)

// Input is what the enricher knows about one file.
type Input struct {
	Path     string
	Filename string
	Title    string // the document's own title from extraction; "" if none
	Text     string
	Mime     string
}

// Card is a file's title, summary (2-3 sentences, under 400 characters) and
// keywords (5-10).
type Card struct {
	Title    string
	Summary  string
	Keywords []string
	// By names the method that wrote the card. It is the enricher's Name(),
	// except when an LLM enricher could not get an answer and fell back to
	// the builtin card: then it is BuiltinName, so a store that records By
	// can try the LLM again later. Empty from enrichers that do not set it.
	By string
}

// Stats are corpus statistics for scoring keywords: the number of indexed
// documents and, for each given lower-case word, how many documents
// contain it. One call per file; implementations batch the lookup.
type Stats interface {
	DocFreqs(ctx context.Context, words []string) (docs int, df map[string]int, err error)
}

// Enricher writes cards.
type Enricher interface {
	// Name identifies the method and model ("builtin-v1", "ollama:llama3.2");
	// a change of name re-enriches the index in the background.
	Name() string
	Enrich(ctx context.Context, in Input) (Card, error)
}
