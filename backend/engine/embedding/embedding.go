// Package embedding turns text into vectors for semantic search: a builtin
// offline model, or Ollama and OpenAI-compatible servers. New picks one
// from the settings.
//
// The builtin (Builtin, NewBuiltin) needs no network: it embeds a table of
// GloVe 6B 100-d vectors for the 50,000 most frequent words, 8 bits each
// (data/glove6b100d.bin, made by internal/gen; licences in NOTICE). A text
// becomes the SIF-weighted sum of its word vectors (weight a/(a+p(w)), p
// estimated from the word's frequency rank by Zipf's law) minus its
// projection on the common component, followed by a hashed bag of its
// words; unknown words get vectors from character n-grams.
package embedding

import (
	"context"
	"fmt"
	"os"
	"strings"

	"trove/backend/core"
)

// Embedder makes vectors.
type Embedder interface {
	// Model identifies the vector space (provider, model, version). Vectors
	// of different models are never compared; a change re-embeds the index.
	Model() string
	// Dim is the length of every vector.
	Dim() int
	// Embed returns one L2-normalised vector per text.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// New returns the embedder that cfg chooses. Provider is "builtin" (or
// empty), "ollama" or "openai" (any OpenAI-compatible server); empty Model
// and BaseURL mean the provider's default. For the builtin, Model may be
// BuiltinHybrid (the default) or BuiltinSemantic. The OpenAI API key is
// read with getenv (os.Getenv when nil) from the variable that APIKeyEnv
// names; it is never stored in settings. New makes no request.
func New(cfg core.EmbeddingSettings, getenv func(string) string) (Embedder, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch p := strings.ToLower(strings.TrimSpace(cfg.Provider)); p {
	case "", core.ProviderBuiltin:
		switch cfg.Model {
		case "", BuiltinHybrid:
			return NewBuiltin()
		case BuiltinSemantic:
			return semanticBuiltin()
		}
		return nil, fmt.Errorf("unknown builtin embedding model %q (want %q or %q)", cfg.Model, BuiltinHybrid, BuiltinSemantic)
	case core.ProviderOllama:
		return NewOllama(cfg.Model, cfg.BaseURL, nil)
	case core.ProviderOpenAI:
		var key string
		if cfg.APIKeyEnv != "" {
			key = getenv(cfg.APIKeyEnv)
			if key == "" {
				return nil, fmt.Errorf("embedding API key: environment variable %s is not set", cfg.APIKeyEnv)
			}
		}
		return NewOpenAI(cfg.Model, cfg.BaseURL, key, nil)
	default:
		return nil, fmt.Errorf("unknown embedding provider %q (want builtin, ollama or openai)", cfg.Provider)
	}
}
