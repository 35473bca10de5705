package settings

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/backend/core"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func patch(t *testing.T, js string) map[string]json.RawMessage {
	t.Helper()
	var p map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func open(t *testing.T, dir string) *Manager {
	t.Helper()
	m, err := Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDefaultsAreValid(t *testing.T) {
	if err := Validate(Defaults()); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateDottedAndSectionKeysPersist(t *testing.T) {
	dir := t.TempDir()
	m := open(t, dir)
	got, err := m.Update(patch(t, `{"queue.cooldown_seconds": 0.5, "scheduler": {"enabled": true, "combine_mode": "ANY",
		"rules": [{"type": "time_window", "start": "22:00", "end": "07:00", "days": ["sat", "sun"]},
		          {"type": "cpu_below", "percent": 40}, {"type": "on_ac_power"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Queue.CooldownSeconds != 0.5 || !got.Scheduler.Enabled || got.Scheduler.CombineMode != "ANY" || len(got.Scheduler.Rules) != 3 {
		t.Fatalf("update not applied: %+v", got)
	}
	if got.Queue.MaxConcurrency != Defaults().Queue.MaxConcurrency {
		t.Fatalf("untouched key changed: %+v", got.Queue)
	}
	again := open(t, dir).Get()
	if again.Queue.CooldownSeconds != 0.5 || len(again.Scheduler.Rules) != 3 || *again.Scheduler.Rules[1].Percent != 40 {
		t.Fatalf("not persisted: %+v", again)
	}
}

func TestUpdateRejectsAndChangesNothing(t *testing.T) {
	cases := map[string]string{
		`{"queue.cooldown_seconds": -1}`:                                                   "queue.cooldown_seconds",
		`{"queue.max_concurrency": 0}`:                                                     "queue.max_concurrency",
		`{"queue.max_concurrency": 1.5}`:                                                   "queue.max_concurrency",
		`{"queue.max_concurrency": "2"}`:                                                   "queue.max_concurrency",
		`{"queue.max_retries": -1}`:                                                        "queue.max_retries",
		`{"scheduler.combine_mode": "SOME"}`:                                               "scheduler.combine_mode",
		`{"scheduler.enabled": "yes"}`:                                                     "scheduler.enabled",
		`{"scheduler.rules": {"type": "on_ac_power"}}`:                                     "scheduler.rules",
		`{"scheduler.rules": [{"type": "moon_phase"}]}`:                                    "scheduler.rules[0].type",
		`{"scheduler.rules": [{"type": "time_window", "start": "25:00", "end": "07:00"}]}`: "scheduler.rules[0].start",
		`{"scheduler.rules": [{"type": "cpu_below"}]}`:                                     "scheduler.rules[0].percent",
		`{"scheduler.rules": [{"type": "cpu_below", "percent": 120}]}`:                     "scheduler.rules[0].percent",
		`{"scheduler.rules": [{"type": "on_ac_power", "bogus": 1}]}`:                       "scheduler.rules",
		`{"queue.nope": 1}`:                                                                "queue.nope",
		`{"nope.key": 1}`:                                                                  "nope.key",
		`{"nope": {}}`:                                                                     "nope",
		`{"queue": 3}`:                                                                     "queue",
		`{"queue.max_retries": 2, "queue.max_concurrency": 0}`:                             "queue.max_concurrency",
		`{"summarizer.provider": "gpt"}`:                                                   "summarizer.provider",
		`{"summarizer.base_url": "ftp://x"}`:                                               "summarizer.base_url",
		`{"queue.max_retries": null}`:                                                      "queue.max_retries",
		`{"embedding.api_key_env": "AWS_SECRET_ACCESS_KEY"}`:                               "embedding.api_key_env",
		`{"summarizer": {"api_key_env": "HOME"}}`:                                          "summarizer.api_key_env",
		`{"summarizer.api_key_env": "openai_api_key"}`:                                     "summarizer.api_key_env",
		`{"ui.language": "pt"}`:                                                            "ui.language",
		`{"ui.language": "de-DE"}`:                                                         "ui.language",
		`{"ui": {"language": 7}}`:                                                          "ui.language",
	}
	for body, key := range cases {
		t.Run(body, func(t *testing.T) {
			dir := t.TempDir()
			m := open(t, dir)
			_, err := m.Update(patch(t, body))
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if f := core.FieldOf(err); f != key {
				t.Fatalf("field = %q, want %q (%v)", f, key, err)
			}
			if !strings.HasPrefix(err.Error(), key) {
				t.Fatalf("message %q does not name %q", err, key)
			}
			if m.Get().Queue != Defaults().Queue {
				t.Fatalf("a rejected batch changed settings: %+v", m.Get().Queue)
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); err == nil {
				t.Fatal("a rejected batch wrote the settings file")
			}
		})
	}
}

// ui.language is a language the UI speaks, exactly as listed, or "" (the
// system's); the tray reads it from the settings too.
func TestUILanguageIsOneTheUISpeaks(t *testing.T) {
	m := open(t, t.TempDir())
	if Defaults().UI.Language != "" {
		t.Fatalf("the default must follow the system, not %q", Defaults().UI.Language)
	}
	for _, tag := range append(core.UILanguages, "") {
		got, err := m.Update(patch(t, `{"ui.language": "`+tag+`"}`))
		if err != nil || got.UI.Language != tag {
			t.Fatalf("%q: %+v %v", tag, got.UI, err)
		}
	}
}

func TestEmptyUpdateIsAnError(t *testing.T) {
	_, err := open(t, t.TempDir()).Update(map[string]json.RawMessage{})
	if !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenKeepsGoodKeysOfABadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"queue": {"max_retries": 7, "max_concurrency": -3, "mystery": 1}, "alien": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir).Get()
	if s.Queue.MaxRetries != 7 {
		t.Fatalf("good key lost: %+v", s.Queue)
	}
	if s.Queue.MaxConcurrency != Defaults().Queue.MaxConcurrency {
		t.Fatalf("bad key kept: %+v", s.Queue)
	}
}

func TestOpenMovesAsideAFileThatIsNotJSON(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(`{"queue": `), 0o600); err != nil {
		t.Fatal(err)
	}
	m := open(t, dir)
	if m.Get().Queue != Defaults().Queue {
		t.Fatal("want defaults")
	}
	if b, err := os.ReadFile(p + ".corrupt"); err != nil || string(b) != `{"queue": ` {
		t.Fatalf("corrupt file not kept aside: %q %v", b, err)
	}
}

func TestOnChangeSeesOldAndNew(t *testing.T) {
	m := open(t, t.TempDir())
	var seen [2]int
	m.OnChange(func(old, cur core.Settings) { seen = [2]int{old.Queue.MaxRetries, cur.Queue.MaxRetries} })
	if _, err := m.Update(patch(t, `{"queue.max_retries": 9}`)); err != nil {
		t.Fatal(err)
	}
	if seen != [2]int{3, 9} {
		t.Fatalf("seen = %v", seen)
	}
}

func TestGetReturnsACopy(t *testing.T) {
	m := open(t, t.TempDir())
	m.Update(patch(t, `{"scheduler.rules": [{"type": "cpu_below", "percent": 10}]}`))
	s := m.Get()
	*s.Scheduler.Rules[0].Percent = 99
	if *m.Get().Scheduler.Rules[0].Percent != 10 {
		t.Fatal("caller mutated the manager's rules")
	}
}

func TestKeyVariablesAreTheAllowedOnes(t *testing.T) {
	m := open(t, t.TempDir())
	got, err := m.Update(patch(t, `{"embedding.api_key_env": "OPENAI_API_KEY", "summarizer.api_key_env": "TROVE_SUMMARIZER_API_KEY"}`))
	if err != nil || got.Embedding.APIKeyEnv != "OPENAI_API_KEY" || got.Summarizer.APIKeyEnv != "TROVE_SUMMARIZER_API_KEY" {
		t.Fatalf("allowed names: %+v %v", got, err)
	}
	_, err = m.Update(patch(t, `{"embedding.api_key_env": "MY_CLOUD_SECRET"}`))
	if !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), "OPENAI_API_KEY") || !strings.Contains(err.Error(), "TROVE_EMBEDDING_API_KEY") {
		t.Fatalf("want a refusal listing the allowed names, got %v", err)
	}
}

// A settings file written by hand (or by an older Trove) that names another
// variable loses that key at start, and only that key.
func TestOpenDropsAKeyVariableNotAllowed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"embedding": {"provider": "ollama", "api_key_env": "MY_CLOUD_SECRET"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir).Get()
	if s.Embedding.APIKeyEnv != "" || s.Embedding.Provider != "ollama" {
		t.Fatalf("%+v", s.Embedding)
	}
}

// A number the setting's type cannot hold (JSON has no infinities, so
// 1e999 is how one arrives; a fraction or 1e20 where a whole number
// belongs) is INVALID_NUMBER, naming the setting, not a wrong type.
func TestNumbersOutOfRangeAreInvalidNumbers(t *testing.T) {
	for body, key := range map[string]string{
		`{"queue.cooldown_seconds": 1e999}`:                                   "queue.cooldown_seconds",
		`{"queue": {"cooldown_seconds": -1e999}}`:                             "queue.cooldown_seconds",
		`{"queue.max_retries": 1e999}`:                                        "queue.max_retries",
		`{"queue.max_retries": 1e20}`:                                         "queue.max_retries",
		`{"queue.max_concurrency": 1.5}`:                                      "queue.max_concurrency",
		`{"scheduler.rules": [{"type": "cpu_below", "percent": 1e400}]}`:      "scheduler.rules[0].percent",
		`{"scheduler.rules": [{"type": "on_ac_power"}, {"percent": -1e400}]}`: "scheduler.rules[1].percent",
	} {
		_, err := Apply(Defaults(), patch(t, body))
		if !errors.Is(err, core.BadNumber) || core.FieldOf(err) != key || !strings.HasPrefix(err.Error(), key+": ") {
			t.Errorf("%s: %v (field %q), want a bad number naming %s", body, err, core.FieldOf(err), key)
		}
	}
}
