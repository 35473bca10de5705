// Package service is Trove's one facade. The HTTP API and the desktop
// window both call it and nothing else; it coordinates the engine packages
// (settings, filters, store, and the indexing engine) and publishes every
// state change on the event bus.
package service

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/events"
	"trove/backend/engine/extract"
	"trove/backend/engine/filters"
	"trove/backend/engine/provider"
	"trove/backend/engine/settings"
	"trove/backend/engine/thumbs"
)

// Deps are the parts a Service is built from.
type Deps struct {
	Store    Index
	Settings *settings.Manager
	Filters  *filters.Manager
	Bus      *events.Bus
	Indexer  Indexing
	Search   Searcher
	Opener   Opener
	// Health follows the embedding provider; nil reports it as fine.
	Health  *embedding.Health
	Log     *slog.Logger
	Version string
	Now     func() time.Time // nil for time.Now
	// TokenSet says the API requires TROVE_TOKEN, so callers without it
	// are not trusted (see UpdateSettings).
	TokenSet bool
	// Getenv reads API keys (provider.Getenv when nil).
	Getenv func(string) string
	// DataDir and ConfigDir are Trove's own folders, never watched
	// unless forced.
	DataDir, ConfigDir string
	// SearchTimeout bounds each search; 0 means DefaultSearchTimeout.
	SearchTimeout time.Duration
	// SearchHook, when set, is called as each search starts, with its
	// context; tests use it to hold a search until it is cancelled.
	SearchHook func(context.Context, SearchRequest)
	// Program is the desktop app's path for login items; "" for this
	// program.
	Program string
	// OCR finds tesseract; nil: the process's probe.
	OCR *extract.OCRProbe
	// BuildSaved checks and builds saved searches' requests (nil: saved
	// searches are refused); SavedSettle is how long notifications wait
	// for indexing to settle (0: two seconds).
	BuildSaved  SavedBuilder
	SavedSettle time.Duration
}

// Service implements every operation of the API and the desktop window.
type Service struct {
	store    Index
	settings *settings.Manager
	filters  *filters.Manager
	bus      *events.Bus
	indexer  Indexing
	search   Searcher
	opener   Opener
	health   *embedding.Health
	log      *slog.Logger
	version  string
	program  string
	now      func() time.Time
	started  time.Time
	tokenSet bool
	getenv   func(string) string
	ownDirs  []ownDir
	ocr      *extract.OCRProbe
	thumbs   *thumbs.Cache // nil: pictures are drawn each time

	filterMu   chan struct{} // serialises filter edits with their cleanup
	settingsMu chan struct{} // serialises settings updates with their checks

	searchTimeout time.Duration
	searchHook    func(context.Context, SearchRequest)
	searches      searchCounts
	desk          desktop

	savedBuilder SavedBuilder
	savedSettle  time.Duration
}

// New builds a Service.
func New(d Deps) *Service {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	getenv := d.Getenv
	if getenv == nil {
		getenv = provider.Getenv
	}
	s := &Service{
		store: d.Store, settings: d.Settings, filters: d.Filters, bus: d.Bus, indexer: d.Indexer, search: d.Search, opener: d.Opener,
		health: d.Health, log: d.Log, version: d.Version, now: now, started: now(), tokenSet: d.TokenSet, getenv: getenv,
		ownDirs: ownDirsOf(d.DataDir, d.ConfigDir), filterMu: make(chan struct{}, 1), settingsMu: make(chan struct{}, 1),
		searchTimeout: cmp.Or(d.SearchTimeout, DefaultSearchTimeout), searchHook: d.SearchHook,
		ocr: cmp.Or(d.OCR, extract.DefaultOCR()), savedBuilder: d.BuildSaved, savedSettle: cmp.Or(d.SavedSettle, defaultSavedSettle),
	}
	s.thumbs = thumbnailCache(d.DataDir)
	s.settings.OnChange(func(_, cur core.Settings) { s.bus.Publish(cur) })
	return s
}

// Version is the running Trove's version.
func (s *Service) Version() string { return s.version }

// Subscription is one client's queue of events (the bus's), so the shells
// need no import of the bus.
type Subscription = events.Subscription

// Subscribe streams events to a client until it cancels the subscription
// or falls more than limit events behind. With types, only those kinds.
func (s *Service) Subscribe(limit int, types []string) *Subscription {
	var filter func(core.Event) bool
	if len(types) > 0 {
		want := map[string]bool{}
		for _, t := range types {
			want[t] = true
		}
		filter = func(e core.Event) bool { return want[e.Type] }
	}
	return s.bus.Subscribe(limit, filter)
}

// Snapshot is the current state as events, sent to a new subscriber first
// so it starts in sync: the queue status and every folder's status.
func (s *Service) Snapshot(ctx context.Context) []core.Event {
	now := s.now().UTC()
	out := []core.Event{{Type: core.EventQueueStatus, Time: now, Data: s.QueueStatus()}}
	dirs, err := s.Folders(ctx)
	if err != nil {
		s.log.Warn("snapshot of folders failed", "err", err)
	}
	for _, d := range dirs {
		out = append(out, core.Event{Type: core.EventFolderStatus, Time: now, Data: core.FolderStatusOf(d)})
	}
	return append(out, core.Event{Type: core.EventEmbedding, Time: now, Data: s.Embedding()})
}

// Embedding reports whether the embedding provider answers.
func (s *Service) Embedding() core.EmbeddingHealth {
	if s.health == nil {
		return core.EmbeddingHealth{State: core.EmbeddingOK}
	}
	return s.health.Status()
}

// Status is the service's overall state.
type Status struct {
	Jobs          int
	Version       string
	UptimeSeconds float64
	Embedding     core.EmbeddingHealth
	Index         core.IndexHealth
	OCR           extract.OCRStatus
	Desktop       []core.Integration
}

// ocrWait bounds how long a status request waits for the first look for
// tesseract; later requests get the remembered answer at once.
const ocrWait = 2 * time.Second

// Status reports the number of active watch jobs, the uptime, whether the
// embedding provider answers, the condition of the index, and whether OCR
// can run.
func (s *Service) Status(ctx context.Context) (Status, error) {
	n, err := s.store.CountActiveDirectories(ctx)
	return Status{Jobs: n, Version: s.version, UptimeSeconds: s.now().Sub(s.started).Seconds(), Embedding: s.Embedding(),
		Index: s.indexer.Health(), OCR: s.OCR(ctx), Desktop: s.Integrations()}, err
}

// OCR reports whether OCR can run: tesseract found, and its languages.
func (s *Service) OCR(ctx context.Context) extract.OCRStatus {
	ctx, cancel := context.WithTimeout(ctx, ocrWait)
	defer cancel()
	return s.ocr.Status(ctx)
}

// FileStats summarises the indexed files.
func (s *Service) FileStats(ctx context.Context) (core.FileStats, error) {
	st, err := s.store.Stats(ctx)
	return st, s.indexErr(err)
}

// FileByPath returns the record of one path.
func (s *Service) FileByPath(ctx context.Context, path string) (core.File, error) {
	f, err := s.store.FileByPath(ctx, path)
	return f, s.indexErr(err)
}

// File returns one file record by id.
func (s *Service) File(ctx context.Context, id int64) (core.File, error) {
	f, err := s.store.File(ctx, id)
	return f, s.indexErr(err)
}
