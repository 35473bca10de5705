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
	"trove/backend/settings"
	"trove/backend/store"
)

// Deps are the parts a Service is built from.
type Deps struct {
	Store    *store.Store
	Settings *settings.Manager
	Filters  *filters.Manager
	Bus      *events.Bus
	Log      *slog.Logger
	Version  string
	Now      func() time.Time // nil for time.Now
}

// Service implements every operation of the API and the desktop window.
type Service struct {
	store    *store.Store
	settings *settings.Manager
	filters  *filters.Manager
	bus      *events.Bus
	log      *slog.Logger
	version  string
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
		store: d.Store, settings: d.Settings, filters: d.Filters, bus: d.Bus, log: d.Log,
		version: d.Version, now: now, started: now(), filterMu: make(chan struct{}, 1),
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
// falls behind (the channel then closes).
func (s *Service) Subscribe(buffer int) (<-chan core.Event, func()) {
	return s.bus.Subscribe(buffer, nil)
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

// File returns one file record by id.
func (s *Service) File(ctx context.Context, id int64) (core.File, error) {
	return s.store.File(ctx, id)
}
