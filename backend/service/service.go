// Package service is Trove's one facade. The HTTP API and the desktop
// window both call it and nothing else; it coordinates the engine packages
// (settings, filters, store, and the indexing engine) and publishes every
// state change on the event bus.
package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"trove/backend/core"
	"trove/backend/events"
	"trove/backend/filters"
	"trove/backend/indexer"
	"trove/backend/search"
	"trove/backend/settings"
	"trove/backend/store"
)

// Deps are the parts a Service is built from.
type Deps struct {
	Store    *store.Store
	Settings *settings.Manager
	Filters  *filters.Manager
	Bus      *events.Bus
	Indexer  *indexer.Indexer
	Search   *search.Engine
	Opener   Opener
	Log      *slog.Logger
	Version  string
	Now      func() time.Time // nil for time.Now
	Program  string           // the desktop app's path for login items; "" for this program
}

// Service implements every operation of the API and the desktop window.
type Service struct {
	store    *store.Store
	settings *settings.Manager
	filters  *filters.Manager
	bus      *events.Bus
	indexer  *indexer.Indexer
	search   *search.Engine
	opener   Opener
	log      *slog.Logger
	version  string
	program  string
	now      func() time.Time
	started  time.Time

	filterMu chan struct{} // serialises filter edits with their cleanup
}

// New builds a Service.
func New(d Deps) *Service {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	s := &Service{
		store: d.Store, settings: d.Settings, filters: d.Filters, bus: d.Bus, indexer: d.Indexer, search: d.Search, opener: d.Opener, log: d.Log,
		version: d.Version, program: d.Program, now: now, started: now(), filterMu: make(chan struct{}, 1),
	}
	s.settings.OnChange(func(_, cur core.Settings) { s.bus.Publish(core.EventSettings, cur) })
	return s
}

// Version is the running Trove's version.
func (s *Service) Version() string { return s.version }

// Settings returns the current settings.
func (s *Service) Settings() core.Settings { return s.settings.Get() }

// SettingsDefaults returns the default settings.
func (s *Service) SettingsDefaults() core.Settings { return settings.Defaults() }

// UpdateSettings applies a partial update of dotted keys (see settings.Update).
func (s *Service) UpdateSettings(patch map[string]json.RawMessage) (core.Settings, error) {
	return s.settings.Update(patch)
}

// Subscribe streams events to a client until cancel is called or the client
// falls behind (the channel then closes). With types, only those kinds.
func (s *Service) Subscribe(buffer int, types []string) (<-chan core.Event, func()) {
	var filter func(core.Event) bool
	if len(types) > 0 {
		want := map[string]bool{}
		for _, t := range types {
			want[t] = true
		}
		filter = func(e core.Event) bool { return want[e.Type] }
	}
	return s.bus.Subscribe(buffer, filter)
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
		out = append(out, core.Event{Type: core.EventFolderStatus, Time: now, Data: indexer.FolderEvent(d)})
	}
	return out
}

// Status is the service's overall state.
type Status struct {
	Jobs          int
	Version       string
	UptimeSeconds float64
}

// Status reports the number of active watch jobs and the uptime.
func (s *Service) Status(ctx context.Context) (Status, error) {
	n, err := s.store.CountActiveDirectories(ctx)
	return Status{Jobs: n, Version: s.version, UptimeSeconds: s.now().Sub(s.started).Seconds()}, err
}

// FileStats summarises the indexed files.
func (s *Service) FileStats(ctx context.Context) (core.FileStats, error) {
	return s.store.Stats(ctx)
}

// FileByPath returns the record of one path.
func (s *Service) FileByPath(ctx context.Context, path string) (core.File, error) {
	return s.store.FileByPath(ctx, path)
}

// File returns one file record by id.
func (s *Service) File(ctx context.Context, id int64) (core.File, error) {
	return s.store.File(ctx, id)
}
