package core

import (
	"encoding/json"
	"time"
)

// Embedding provider states.
const (
	EmbeddingOK      = "ok"
	EmbeddingFailing = "failing"
)

// EmbeddingHealth is whether the embedding provider answers. Its JSON is
// the "embedding" object of the API (status, folder summaries, events).
type EmbeddingHealth struct {
	State   string    // EmbeddingOK or EmbeddingFailing
	Model   string    // the embedder's model
	Message string    // the provider's last error, while failing
	Since   time.Time // when it started failing; zero when ok
	// Failed counts the requests that failed or were refused since.
	Failed int
}

// Failing reports whether the provider is down.
func (h EmbeddingHealth) Failing() bool { return h.State == EmbeddingFailing }

// MarshalJSON writes since as UTC seconds with a Z, or null.
func (h EmbeddingHealth) MarshalJSON() ([]byte, error) {
	var since *string
	if !h.Since.IsZero() {
		t := h.Since.UTC().Format("2006-01-02T15:04:05Z")
		since = &t
	}
	return json.Marshal(embeddingJSON{h.State, h.Model, h.Message, since, h.Failed})
}

// embeddingJSON is the JSON shape of EmbeddingHealth.
type embeddingJSON struct {
	State          string  `json:"state"`
	Model          string  `json:"model"`
	Message        string  `json:"message"`
	Since          *string `json:"since"`
	FailedRequests int     `json:"failed_requests"`
}
