package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"trove/backend/core"
	"trove/backend/service"
	"trove/internal/testserver"
)

// With a token set, the service itself refuses a provider change from a
// caller not marked as the person's: whatever path a request took around
// the API's token check, it cannot change where file text goes. Other
// settings stay the API guard's business.
func TestServiceChecksTheCallerOfAProviderChange(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("tok-7f2e"))
	model := testserver.StartModelServer(t, "stub-embed")
	change := map[string]json.RawMessage{
		"embedding.provider": json.RawMessage(`"ollama"`), "embedding.base_url": json.RawMessage(`"` + model.URL + `"`),
		"embedding.model": json.RawMessage(`"stub-embed"`),
	}
	_, err := s.Service.UpdateSettings(context.Background(), change)
	if !errors.Is(err, core.ErrForbidden) || !errors.Is(err, core.NeedsThePerson) || core.FieldOf(err) != "embedding.provider" {
		t.Fatalf("an unmarked caller: %v", err)
	}
	if got := s.Service.Settings().Embedding.Provider; got != core.ProviderBuiltin {
		t.Fatalf("provider changed to %q", got)
	}
	if _, err := s.Service.UpdateSettings(context.Background(), map[string]json.RawMessage{"queue.max_retries": json.RawMessage(`4`)}); err != nil {
		t.Fatalf("another setting: %v", err)
	}
	got, err := s.Service.UpdateSettings(service.Trusted(context.Background()), change)
	if err != nil || got.Embedding.Provider != core.ProviderOllama {
		t.Fatalf("a trusted caller: %+v %v", got.Embedding, err)
	}
	if model.Embeds() == 0 {
		t.Fatal("the provider was not tried before the change was saved")
	}
}
