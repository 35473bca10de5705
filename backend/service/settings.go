package service

import (
	"context"
	"encoding/json"
	"time"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/enrich"
	"trove/backend/engine/provider"
	"trove/backend/engine/settings"
)

// trustKey marks the context of a call from the person using Trove.
type trustKey struct{}

// Trusted marks ctx as a call from the person using Trove: the desktop
// window, or an API request that presented TROVE_TOKEN. The API sets it
// only after checking the token, so a request that reached the service by a
// path the token check did not cover is not trusted.
func Trusted(ctx context.Context) context.Context { return context.WithValue(ctx, trustKey{}, true) }

func trusted(ctx context.Context) bool {
	v, _ := ctx.Value(trustKey{}).(bool)
	return v
}

// providerCheckTimeout bounds the test call made to a provider before a
// change to it is saved (a first call may load the model).
const providerCheckTimeout = 30 * time.Second

// Settings returns the current settings.
func (s *Service) Settings() core.Settings { return s.settings.Get() }

// SettingsDefaults returns the default settings.
func (s *Service) SettingsDefaults() core.Settings { return settings.Defaults() }

// UpdateSettings applies a partial update of dotted keys (see
// settings.Update), all or nothing. A change of where file text goes (a
// provider, its address or its key) must come from a caller allowed to
// make it (see mayRoute), and a new provider or model must answer a test
// call first; otherwise nothing is saved. Updates are serialised, so the
// settings checked are the settings saved.
func (s *Service) UpdateSettings(ctx context.Context, patch map[string]json.RawMessage) (core.Settings, error) {
	select {
	case s.settingsMu <- struct{}{}:
		defer func() { <-s.settingsMu }()
	case <-ctx.Done():
		return s.settings.Get(), ctx.Err()
	}
	cur := s.settings.Get()
	next, err := settings.Apply(cur, patch)
	if err != nil {
		return cur, err
	}
	if err := s.mayRoute(ctx, cur, next); err != nil {
		return cur, err
	}
	if err := s.checkProviders(ctx, cur, next); err != nil {
		return cur, err
	}
	return s.settings.Update(patch)
}

type routes struct{ summarizer, embedding provider.Route }

func routesOf(s core.Settings) routes {
	return routes{
		summarizer: provider.RouteOf(s.Summarizer.Provider, s.Summarizer.BaseURL, s.Summarizer.APIKeyEnv),
		embedding:  provider.RouteOf(s.Embedding.Provider, s.Embedding.BaseURL, s.Embedding.APIKeyEnv),
	}
}

// mayRoute decides who may change where file text goes. The person using
// Trove may (the desktop window, or a caller with the token). With a token
// set, nobody else may. Without one, any local process can reach the API,
// so it may only choose the builtin or a server on this machine that is
// sent no key: sending text to another machine, or a key anywhere, would
// let any local process pick the listener.
func (s *Service) mayRoute(ctx context.Context, cur, next core.Settings) error {
	if trusted(ctx) {
		return nil
	}
	before, after := routesOf(cur), routesOf(next)
	for _, sec := range []struct {
		name          string
		before, after provider.Route
	}{{"summarizer", before.summarizer, after.summarizer}, {"embedding", before.embedding, after.embedding}} {
		r := sec.after
		if r == sec.before || r.Provider == core.ProviderBuiltin {
			continue
		}
		field := sec.name + "." + changedRouteField(sec.before, r)
		if s.tokenSet {
			return core.FailField(core.NeedsThePerson, field,
				"changing where Trove sends file text needs the TROVE_TOKEN this Trove was started with: send it (Authorization: Bearer ...) or make the change in the desktop window")
		}
		if !r.Private() {
			what := "file text"
			if r.KeyEnv != "" {
				what = "file text and the API key in " + r.KeyEnv
			}
			return core.FailField(core.NeedsThePerson, field,
				"sending %s to %s needs a caller Trove can trust, and any program on this machine can call this API: start Trove with TROVE_TOKEN set and send the token, make the change in the desktop window, or edit settings.json while Trove is stopped",
				what, r.Host())
		}
	}
	return nil
}

func changedRouteField(before, after provider.Route) string {
	switch {
	case before.Provider != after.Provider:
		return "provider"
	case before.URL != after.URL:
		return "base_url"
	}
	return "api_key_env"
}

// checkProviders makes one test call to each provider whose choice
// changed, and reports the first that does not answer.
func (s *Service) checkProviders(ctx context.Context, cur, next core.Settings) error {
	if e := next.Embedding; e != cur.Embedding && routesOf(next).embedding.Provider != core.ProviderBuiltin {
		em, err := embedding.New(e, s.getenv)
		if err == nil {
			err = embedding.Probe(ctx, em, providerCheckTimeout)
		}
		if err != nil {
			return unavailable("embedding", changedModelField(cur.Embedding.Provider, e.Provider, cur.Embedding.Model, e.Model, cur.Embedding.BaseURL, e.BaseURL), err)
		}
	}
	old, m := cur.Summarizer, next.Summarizer
	chose := m.Provider != old.Provider || m.Model != old.Model || m.BaseURL != old.BaseURL || m.APIKeyEnv != old.APIKeyEnv
	if chose && routesOf(next).summarizer.Provider != core.ProviderBuiltin {
		if err := enrich.Probe(ctx, m, s.getenv, providerCheckTimeout); err != nil {
			return unavailable("summarizer", changedModelField(old.Provider, m.Provider, old.Model, m.Model, old.BaseURL, m.BaseURL), err)
		}
	}
	return nil
}

func changedModelField(p0, p1, m0, m1, u0, u1 string) string {
	switch {
	case p0 != p1:
		return "provider"
	case m0 != m1:
		return "model"
	case u0 != u1:
		return "base_url"
	}
	return "api_key_env"
}

func unavailable(section, field string, err error) error {
	return core.FailField(core.ProviderUnavailable, section+"."+field,
		"the %s provider did not answer a test call, so nothing was saved: %v", section, err)
}
