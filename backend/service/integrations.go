package service

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"trove/backend/core"
)

// Window is the desktop app's window. Other ways in (the desktop search
// providers, the global shortcut) drive it through the service when this
// process has one; a headless server has none.
type Window interface {
	// ShowSearch brings the main window forward, searching query.
	ShowSearch(query string)
	// ShowQuick opens the quick search, scoped to folder ("" for all).
	ShowQuick(folder string)
	// CopyText puts text on the desktop's clipboard.
	CopyText(text string) error
}

// desktop is what the service knows of the desktop it runs in: the window,
// if any, and how each integration is doing.
type desktop struct {
	mu     sync.Mutex
	window Window
	states map[string]core.Integration
}

// AttachWindow hands the desktop app's window to the service (nil: none).
func (s *Service) AttachWindow(w Window) {
	s.desk.mu.Lock()
	defer s.desk.mu.Unlock()
	s.desk.window = w
}

// Window is the desktop app's window, or nil in a headless server.
func (s *Service) Window() Window {
	s.desk.mu.Lock()
	defer s.desk.mu.Unlock()
	return s.desk.window
}

// ReportIntegration records how one integration is doing. A change is
// logged once, at level, in the words people read in Settings; the same
// report again is not logged.
func (s *Service) ReportIntegration(it core.Integration, level slog.Level) {
	s.desk.mu.Lock()
	old, had := s.desk.states[it.Name]
	if s.desk.states == nil {
		s.desk.states = map[string]core.Integration{}
	}
	s.desk.states[it.Name] = it
	s.desk.mu.Unlock()
	if had && old == it {
		return
	}
	s.log.Log(context.Background(), level, it.Message, "integration", it.Name, "state", it.State)
}

// integrationOrder is the order status lists the integrations in.
var integrationOrder = []string{core.IntegrationTray, core.IntegrationShortcut, core.IntegrationSearch}

// Integrations lists how each integration reported so far is doing.
func (s *Service) Integrations() []core.Integration {
	s.desk.mu.Lock()
	defer s.desk.mu.Unlock()
	out := make([]core.Integration, 0, len(s.desk.states))
	for _, it := range s.desk.states {
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b core.Integration) int {
		return slices.Index(integrationOrder, a.Name) - slices.Index(integrationOrder, b.Name)
	})
	return out
}
