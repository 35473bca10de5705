package indexer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/engine/settings"
)

// Before Run has loaded the folders, a request waits; but never longer than
// its own context: a caller that gives up gets an answer, not a hang.
func TestRequestsBeforeStartUpHonourTheirContext(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ix, err := New(Deps{Settings: settings.Defaults, Publish: func(core.EventData) {}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]func(context.Context) error{
		"watch": func(ctx context.Context) error {
			_, _, err := ix.Watch(ctx, t.TempDir(), Options{Recursive: true})
			return err
		},
		"unwatch": func(ctx context.Context) error { return ix.Unwatch(ctx, 1) },
		"rebuild": func(ctx context.Context) error { _, err := ix.Rebuild(ctx); return err },
	}
	for name, call := range calls {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		done := make(chan error, 1)
		go func() { done <- call(ctx) }()
		select {
		case err := <-done:
			if !errors.Is(err, core.ErrUnavailable) || core.CodeOf(err, "") != "STARTING" {
				t.Errorf("%s before start-up: %v, want STARTING (unavailable)", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s before start-up ignored its context", name)
		}
		cancel()
	}
}
