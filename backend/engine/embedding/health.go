package embedding

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"trove/backend/core"
	"trove/backend/engine/provider"
)

// HealthOptions configure a Health.
type HealthOptions struct {
	Log *slog.Logger
	// RetryEvery is how often a failing provider is tried again (30 s when
	// zero); SummaryEvery how often the log says it is still failing (5 min).
	RetryEvery, SummaryEvery time.Duration
	// OnChange runs after every change of state; OnRecover when a failing
	// provider answers again, and at start when Pending reports files
	// indexed without vectors. Either may be nil.
	OnChange  func(core.EmbeddingHealth)
	OnRecover func()
	Pending   func(context.Context) (int, error)
	Now       func() time.Time // nil: time.Now
}

// Health follows whether the embedding provider answers, so that an
// outage is seen rather than hidden in the log: Status reports it, the log
// says it once when it starts and then as a summary every few minutes,
// requests are refused at once while it lasts instead of each waiting for a
// server that is not there, Run tries the provider again until it answers,
// and OnRecover then re-embeds what was indexed without vectors.
type Health struct {
	opt HealthOptions

	mu         sync.Mutex
	active     *monitored // the embedder in use
	failing    bool
	message    string
	since      time.Time
	failed     int
	summarized time.Time // when the log last said it
	wake       chan struct{}
}

// NewHealth returns a Health with nothing watched yet.
func NewHealth(opt HealthOptions) *Health {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.RetryEvery <= 0 {
		opt.RetryEvery = 30 * time.Second
	}
	if opt.SummaryEvery <= 0 {
		opt.SummaryEvery = 5 * time.Minute
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Health{opt: opt, wake: make(chan struct{}, 1)}
}

// Watch makes em the embedder h follows, forgetting the state of the one
// before, and returns it reporting to h. The builtin cannot go away and is
// returned as it is.
func (h *Health) Watch(em Embedder) Embedder {
	m := &monitored{Embedder: em, h: h}
	var out Embedder = m
	if _, remote := em.(*Remote); !remote {
		out = em
	}
	h.mu.Lock()
	was := h.failing
	h.active, h.failing, h.message, h.since, h.failed = m, false, "", time.Time{}, 0
	st := h.statusLocked()
	h.mu.Unlock()
	if was {
		h.opt.Log.Info("embedding provider changed; the outage of the previous one no longer matters", "model", em.Model())
		h.changed(st)
	}
	return out
}

// Status is the current state.
func (h *Health) Status() core.EmbeddingHealth {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.statusLocked()
}

func (h *Health) statusLocked() core.EmbeddingHealth {
	st := core.EmbeddingHealth{State: core.EmbeddingOK}
	if h.active != nil {
		st.Model = h.active.Model()
	}
	if h.failing {
		st.State, st.Message, st.Since, st.Failed = core.EmbeddingFailing, h.message, h.since, h.failed
	}
	return st
}

func (h *Health) changed(st core.EmbeddingHealth) {
	if h.opt.OnChange != nil {
		h.opt.OnChange(st)
	}
}

// refuse fails a request at once while the provider is down.
func (h *Health) refuse(m *monitored) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m != h.active || !h.failing {
		return nil
	}
	h.failed++
	return provider.Unavailable("embedding provider unavailable since %s: %s", h.since.Format(time.TimeOnly), h.message)
}

// down records a failure that says the provider itself is down.
func (h *Health) down(m *monitored, err error) {
	h.mu.Lock()
	if m != h.active {
		h.mu.Unlock()
		return
	}
	h.failed++
	h.message = err.Error()
	if h.failing {
		h.mu.Unlock()
		return
	}
	h.failing, h.since, h.summarized = true, h.opt.Now(), h.opt.Now()
	st := h.statusLocked()
	h.mu.Unlock()
	h.opt.Log.Warn("embedding provider failing: files are indexed without vectors and searched by keyword until it answers again",
		"model", st.Model, "retry_every", h.opt.RetryEvery, "err", err)
	select {
	case h.wake <- struct{}{}:
	default:
	}
	h.changed(st)
}

// answered records an answer; after an outage, the provider is back.
func (h *Health) answered(m *monitored) {
	h.mu.Lock()
	if m != h.active || !h.failing {
		h.mu.Unlock()
		return
	}
	downFor, failed := h.opt.Now().Sub(h.since).Round(time.Second), h.failed
	h.failing, h.message, h.since, h.failed = false, "", time.Time{}, 0
	st := h.statusLocked()
	h.mu.Unlock()
	h.opt.Log.Info("embedding provider answers again; files indexed without vectors are embedded now",
		"model", st.Model, "down_for", downFor, "failed_requests", failed)
	h.changed(st)
	if h.opt.OnRecover != nil {
		h.opt.OnRecover()
	}
}

// Run checks a remote provider at start, then tries a failing provider
// again every RetryEvery until it answers, and logs a summary of a long
// outage every SummaryEvery. It returns when ctx ends.
func (h *Health) Run(ctx context.Context) error {
	h.startup(ctx)
	t := time.NewTimer(h.opt.RetryEvery)
	defer t.Stop()
	for {
		h.mu.Lock()
		failing := h.failing
		h.mu.Unlock()
		if !failing {
			select {
			case <-ctx.Done():
				return nil
			case <-h.wake:
			}
			continue
		}
		t.Reset(h.opt.RetryEvery)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		h.probe(ctx)
		h.summarize()
	}
}

// startup probes a remote provider once: an outage shows at once, and
// files left without vectors by an earlier run are embedded when it
// answers.
func (h *Health) startup(ctx context.Context) {
	h.mu.Lock()
	m := h.active
	h.mu.Unlock()
	if m == nil {
		return
	}
	if _, remote := m.Embedder.(*Remote); !remote {
		return
	}
	if !h.probe(ctx) || h.opt.Pending == nil || h.opt.OnRecover == nil {
		return
	}
	if n, err := h.opt.Pending(ctx); err == nil && n > 0 {
		h.opt.Log.Info("embedding files indexed without vectors", "files", n)
		h.opt.OnRecover()
	}
}

// probeTimeout bounds one probe.
const probeTimeout = 15 * time.Second

// probe asks the embedder in use for one vector and reports whether it
// answered.
func (h *Health) probe(ctx context.Context) bool {
	h.mu.Lock()
	m := h.active
	h.mu.Unlock()
	if m == nil {
		return false
	}
	err := Probe(ctx, m.Embedder, probeTimeout)
	switch {
	case err == nil:
		h.answered(m)
		return true
	case ctx.Err() == nil:
		h.stillDown(m, err)
	}
	return false
}

// stillDown records a failed probe: the message is the latest, the count
// of requests stays; a provider that was fine is now failing.
func (h *Health) stillDown(m *monitored, err error) {
	h.mu.Lock()
	failing := h.failing && m == h.active
	if failing {
		h.message = err.Error()
	}
	h.mu.Unlock()
	if !failing {
		h.down(m, err)
	}
}

func (h *Health) summarize() {
	h.mu.Lock()
	now := h.opt.Now()
	if !h.failing || now.Sub(h.summarized) < h.opt.SummaryEvery {
		h.mu.Unlock()
		return
	}
	h.summarized = now
	st := h.statusLocked()
	h.mu.Unlock()
	h.opt.Log.Warn("embedding provider still failing", "model", st.Model, "since", st.Since.Format(time.DateTime),
		"failed_requests", st.Failed, "err", st.Message)
}

// monitored is an embedder that reports to its Health.
type monitored struct {
	Embedder
	h *Health
}

func (m *monitored) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := m.h.refuse(m); err != nil {
		return nil, err
	}
	vs, err := m.Embedder.Embed(ctx, texts)
	switch {
	case err == nil:
		m.h.answered(m)
	case ctx.Err() != nil:
		// The caller gave up: that says nothing about the provider.
	case provider.Down(err):
		m.h.down(m, err)
	default:
		// One request refused (a text the model cannot take): the file
		// is indexed without vectors, the provider is fine.
		m.h.opt.Log.Warn("embedding request refused", "model", m.Model(), "err", err)
	}
	return vs, err
}

// probeText is what Probe embeds.
const probeText = "Trove checks that the embedding model answers."

// Probe embeds one short text to check that em answers, within timeout.
func Probe(ctx context.Context, em Embedder, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	vs, err := em.Embed(ctx, []string{probeText})
	if err != nil {
		return err
	}
	if len(vs) != 1 || len(vs[0]) == 0 {
		return fmt.Errorf("%s answered without a vector", em.Model())
	}
	return nil
}
