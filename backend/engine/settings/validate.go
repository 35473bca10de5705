package settings

import (
	"trove/backend/store"

	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"trove/backend/core"
	"trove/backend/engine/provider"
	"trove/backend/platform/globalkey"
)

// Defaults returns the settings Trove starts with.
func Defaults() core.Settings {
	return core.Settings{
		Summarizer: core.SummarizerSettings{
			Provider:       core.ProviderBuiltin,
			TimeoutSeconds: 60,
			MaxConcurrency: 1,
		},
		Embedding: core.EmbeddingSettings{Provider: core.ProviderBuiltin},
		Queue: core.QueueSettings{
			CooldownSeconds: 2,
			MaxConcurrency:  2,
			MaxRetries:      3,
		},
		Scheduler: core.SchedulerSettings{
			Enabled:              false,
			CombineMode:          core.CombineAll,
			CheckIntervalSeconds: 60,
			Rules:                []core.SchedulerRule{},
		},
		Extraction: core.ExtractionSettings{
			MaxFileSizeMB:  100,
			TimeoutSeconds: 30,
			MaxTextMB:      10,
		},
		UI:      core.UISettings{Language: ""}, // follow the system
		Desktop: core.DesktopSettings{Shortcut: globalkey.DefaultShortcut},
	}
}

// Validate checks every range and enumeration; the first problem found is
// returned as an ErrInvalid error naming its dotted key.
func Validate(s core.Settings) error {
	checks := []error{
		oneOf("summarizer.provider", s.Summarizer.Provider, providers),
		maxLen("summarizer.model", s.Summarizer.Model, 200),
		baseURL("summarizer.base_url", s.Summarizer.BaseURL),
		keyVariable("summarizer.api_key_env", s.Summarizer.APIKeyEnv),
		between("summarizer.timeout_seconds", s.Summarizer.TimeoutSeconds, 1, 3600),
		between("summarizer.max_concurrency", float64(s.Summarizer.MaxConcurrency), 1, 16),
		oneOf("embedding.provider", s.Embedding.Provider, providers),
		maxLen("embedding.model", s.Embedding.Model, 200),
		builtinModel(s.Embedding),
		baseURL("embedding.base_url", s.Embedding.BaseURL),
		keyVariable("embedding.api_key_env", s.Embedding.APIKeyEnv),
		between("queue.cooldown_seconds", s.Queue.CooldownSeconds, 0, 86400),
		between("queue.max_concurrency", float64(s.Queue.MaxConcurrency), 1, 64),
		between("queue.max_retries", float64(s.Queue.MaxRetries), 0, 100),
		oneOf("scheduler.combine_mode", s.Scheduler.CombineMode, []string{core.CombineAll, core.CombineAny}),
		between("scheduler.check_interval_seconds", s.Scheduler.CheckIntervalSeconds, 1, 86400),
		rules(s.Scheduler.Rules),
		between("extraction.max_file_size_mb", s.Extraction.MaxFileSizeMB, 0.001, 65536),
		between("extraction.timeout_seconds", s.Extraction.TimeoutSeconds, 0.1, 3600),
		// The index holds at most store.MaxTextBytes of one file's text.
		between("extraction.max_text_mb", s.Extraction.MaxTextMB, 0.001, store.MaxTextBytes>>20),
		uiLanguage(s.UI.Language),
		shortcut(s.Desktop.Shortcut),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

var providers = []string{core.ProviderBuiltin, core.ProviderOllama, core.ProviderOpenAI}

func oneOf(key, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return core.FailField(core.BadValue, key, "%q is not allowed (use one of: %s)", v, strings.Join(allowed, ", "))
}

// builtinEmbeddingModels are the models of the builtin embedder.
var builtinEmbeddingModels = []string{"", "glove6b-sif-lex", "glove6b-sif"}

func builtinModel(e core.EmbeddingSettings) error {
	if e.Provider != core.ProviderBuiltin {
		return nil
	}
	if err := oneOf("embedding.model", e.Model, builtinEmbeddingModels); err != nil {
		return core.FailField(core.BadValue, "embedding.model", "%q is not a builtin model (use glove6b-sif-lex, glove6b-sif, or \"\" for the default)", e.Model)
	}
	return nil
}

// uiLanguage accepts a language the UI speaks, or "" for the system's.
func uiLanguage(v string) error {
	if v == "" || slices.Contains(core.UILanguages, v) {
		return nil
	}
	return core.FailField(core.BadValue, "ui.language", "%q is not a language of the UI (use one of: %s; or \"\" to follow the system)",
		v, strings.Join(core.UILanguages, ", "))
}

func between(key string, v, lo, hi float64) error {
	if v < lo || v > hi || v != v {
		return core.FailField(core.OutOfRange, key, "%s is out of range (allowed: %s to %s)", num(v), num(lo), num(hi))
	}
	return nil
}

func num(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0") }

func maxLen(key, v string, n int) error {
	if len(v) > n {
		return core.FailField(core.BadValue, key, "longer than %d characters", n)
	}
	return nil
}

func baseURL(key, v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return core.FailField(core.BadValue, key, "%q is not an http(s) URL", v)
	}
	return nil
}

// shortcut checks that a global shortcut can be bound ("" binds none).
func shortcut(v string) error {
	if v == "" {
		return nil
	}
	if _, err := globalkey.ParseAccel(v); err != nil {
		return core.FailField(core.BadValue, "desktop.shortcut", "%v", err)
	}
	return nil
}

// keyVariable checks that an API key is read from one of the variables
// meant for keys, never from any variable a client names.
func keyVariable(key, v string) error {
	if v != "" && !provider.KeyAllowed(v) {
		return core.FailField(core.BadValue, key,
			"%q is not a variable Trove reads API keys from (use one of: %s; for a key held under another name, set TROVE_EMBEDDING_API_KEY or TROVE_SUMMARIZER_API_KEY to it)",
			v, strings.Join(provider.KeyVariables, ", "))
	}
	return nil
}

var clockRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

var weekdays = map[string]bool{"mon": true, "tue": true, "wed": true, "thu": true, "fri": true, "sat": true, "sun": true}

const maxRules = 32

func rules(rs []core.SchedulerRule) error {
	if len(rs) > maxRules {
		return core.FailField(core.OutOfRange, "scheduler.rules", "at most %d rules", maxRules)
	}
	for i, r := range rs {
		if err := rule(fmt.Sprintf("scheduler.rules[%d]", i), r); err != nil {
			return err
		}
	}
	return nil
}

// rule checks one rule: its type is known, its own parameters are present
// and well formed, and it carries no parameter of another type.
func rule(key string, r core.SchedulerRule) error {
	hasClock := r.Start != "" || r.End != "" || len(r.Days) > 0
	switch r.Type {
	case core.RuleTimeWindow:
		if r.Percent != nil {
			return core.FailField(core.BadRule, key+".percent", "not a parameter of %s", r.Type)
		}
		for _, c := range []struct{ name, v string }{{"start", r.Start}, {"end", r.End}} {
			if !clockRE.MatchString(c.v) {
				return core.FailField(core.BadRule, key+"."+c.name, "%q is not a time of day as HH:MM", c.v)
			}
		}
		for _, d := range r.Days {
			if !weekdays[d] {
				return core.FailField(core.BadRule, key+".days", "%q is not a day (use mon, tue, wed, thu, fri, sat, sun)", d)
			}
		}
	case core.RuleOnACPower:
		if hasClock || r.Percent != nil {
			return core.FailField(core.BadRule, key, "%s takes no parameters", r.Type)
		}
	case core.RuleCPUBelow, core.RuleBatteryAbove:
		if hasClock {
			return core.FailField(core.BadRule, key, "%s takes only percent", r.Type)
		}
		if r.Percent == nil {
			return core.FailField(core.BadRule, key+".percent", "required for %s", r.Type)
		}
		if p := *r.Percent; p < 0 || p > 100 || p != p {
			return core.FailField(core.BadRule, key+".percent", "%s is out of range (allowed: 0 to 100)", num(p))
		}
	default:
		return core.FailField(core.BadRule, key+".type", "%q is not a rule type (use one of: %s, %s, %s, %s)",
			r.Type, core.RuleTimeWindow, core.RuleOnACPower, core.RuleCPUBelow, core.RuleBatteryAbove)
	}
	return nil
}
