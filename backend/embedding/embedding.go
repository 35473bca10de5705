// Package embedding turns text into vectors for semantic search: a builtin
// offline model, or Ollama and OpenAI-compatible servers.
package embedding

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
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

// Hashing is a placeholder embedder: hashed bag of words.
type Hashing struct{}

const hashDim = 64

// Model implements Embedder.
func (Hashing) Model() string { return "hashing-64-v0" }

// Dim implements Embedder.
func (Hashing) Dim() int { return hashDim }

// Embed implements Embedder.
func (Hashing) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, hashDim)
		for w := range strings.FieldsFuncSeq(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%hashDim]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if n > 0 {
			s := float32(1 / math.Sqrt(n))
			for j := range v {
				v[j] *= s
			}
		}
		out[i] = v
	}
	return out, nil
}
