package daemon

import (
	"log/slog"
	"sync/atomic"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/enrich"
	"trove/backend/engine/pipeline"
	"trove/backend/engine/provider"
	"trove/backend/store"
)

// models holds the enricher and the embedder the settings choose, swapped
// atomically when the settings change; the pipeline reads them per file.
// The embedder in use reports to health.
type models struct {
	store    *store.Store
	log      *slog.Logger
	health   *embedding.Health
	enricher atomic.Pointer[enrich.Enricher]
	embedder atomic.Pointer[embedding.Embedder]
	embedCfg core.EmbeddingSettings // what the embedder was made from (rebuild runs one at a time)
}

func newModels(st *store.Store, cfg core.Settings, health *embedding.Health, log *slog.Logger) *models {
	m := &models{store: st, log: log, health: health}
	m.rebuild(cfg)
	return m
}

func (m *models) Enricher() enrich.Enricher    { return *m.enricher.Load() }
func (m *models) Embedder() embedding.Embedder { return *m.embedder.Load() }

// rebuild makes new providers from the settings and reports whether the
// card writer or the vector space changed, which means re-processing the
// index in the background.
func (m *models) rebuild(cfg core.Settings) (changed bool) {
	// API keys come only from the variables meant for them.
	en := enrich.New(cfg.Summarizer, pipeline.DocStats{Store: m.store}, provider.Getenv, m.log)
	if old := m.enricher.Load(); old == nil || (*old).Name() != en.Name() {
		changed = true
	}
	m.enricher.Store(&en)
	old := m.embedder.Load()
	if old != nil && cfg.Embedding == m.embedCfg {
		return changed // the same embedder, and its health, serve on
	}
	em, err := embedding.New(cfg.Embedding, provider.Getenv)
	if err != nil {
		// Keep semantic search working with the offline model and say why.
		m.log.Error("embedding provider unusable; using the builtin model", "err", err)
		em, _ = embedding.New(core.EmbeddingSettings{Provider: core.ProviderBuiltin}, provider.Getenv)
	}
	if old == nil || (*old).Model() != em.Model() {
		changed = true
	}
	em = m.health.Watch(em)
	m.embedder.Store(&em)
	m.embedCfg = cfg.Embedding
	return changed
}
