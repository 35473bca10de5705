package enrich

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"trove/backend/core"
	"trove/backend/engine/provider"
	"trove/backend/store/tokens"
)

// Provider defaults, used when the settings leave model or URL empty.
const (
	DefaultOllamaModel = "llama3.2"
	DefaultOllamaURL   = provider.OllamaURL
	DefaultOpenAIModel = "gpt-4o-mini"
	DefaultOpenAIURL   = provider.OpenAIURL
)

const (
	defaultTimeout  = 60 * time.Second
	promptTextBytes = 8 << 10 // the beginning of the text sent to the model
	maxAnswerTokens = 600
)

// New returns the enricher the settings ask for. The builtin one is
// returned for provider "builtin", for an unknown provider and for
// settings that cannot work (a malformed base URL); the last two are
// logged. stats may be nil; getenv reads the API key named by
// cfg.APIKeyEnv (os.Getenv when nil); log may be nil.
func New(cfg core.SummarizerSettings, stats Stats, getenv func(string) string, log *slog.Logger) Enricher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	builtin := NewBuiltin(stats)
	kind := strings.ToLower(strings.TrimSpace(cfg.Provider))
	switch kind {
	case "", core.ProviderBuiltin:
		return builtin
	case core.ProviderOllama, core.ProviderOpenAI:
	default:
		log.Warn("enrich: unknown summarizer provider, using the builtin method", "provider", cfg.Provider)
		return builtin
	}
	e, err := newLLM(kind, cfg, getenv, builtin, log)
	if err != nil {
		log.Warn("enrich: cannot use the summarizer model, using the builtin method", "provider", kind, "reason", err)
		return builtin
	}
	return e
}

// Probe checks that the model the settings choose answers, before they
// are saved: one tiny completion, within timeout. The builtin needs no
// check. getenv reads the API key named by cfg.APIKeyEnv.
func Probe(ctx context.Context, cfg core.SummarizerSettings, getenv func(string) string, timeout time.Duration) error {
	kind := strings.ToLower(strings.TrimSpace(cfg.Provider))
	if kind != core.ProviderOllama && kind != core.ProviderOpenAI {
		return nil
	}
	e, err := newLLM(kind, cfg, getenv, nil, nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cctx, rec := provider.Record(ctx)
	opts := []llms.CallOption{llms.WithTemperature(0)}
	if kind == core.ProviderOllama {
		opts = append(opts, llms.WithMaxTokens(8))
	}
	resp, err := e.model.GenerateContent(cctx, []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Reply with the word OK."),
	}, opts...)
	if err != nil {
		return provider.Explain(ctx, e.provider+" at "+e.where, rec, err)
	}
	if len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return fmt.Errorf("%s at %s: an empty answer", e.provider, e.where)
	}
	return nil
}

// LLM writes cards with a language model on an Ollama or OpenAI-compatible
// server, and falls back to the builtin card when the model cannot give a
// usable answer.
type LLM struct {
	name     string
	provider string
	where    string // base URL, for errors
	model    llms.Model
	builtin  *Builtin
	log      *slog.Logger
	timeout  time.Duration
	sem      chan struct{}
	jsonMode atomic.Bool // cleared if the server rejects JSON mode
	onWait   func()      // tests: called when a call waits for a free slot
	now      func() time.Time

	mu        sync.Mutex
	fails     int       // calls in a row that got no answer
	pauseTill time.Time // the model is left alone until then
}

// After breakerFailures calls in a row get no answer at all (no
// connection, no answer in time, a server error), the model is left alone
// for breakerPause: files get the builtin card at once instead of each
// waiting out the timeout. The next call after the pause tries again.
const (
	breakerFailures = 3
	breakerPause    = 30 * time.Second
)

func newLLM(kind string, cfg core.SummarizerSettings, getenv func(string) string, builtin *Builtin, log *slog.Logger) (*LLM, error) {
	model, base := strings.TrimSpace(cfg.Model), strings.TrimSpace(cfg.BaseURL)
	if kind == core.ProviderOllama {
		model, base = orDefault(model, DefaultOllamaModel), orDefault(base, DefaultOllamaURL)
	} else {
		model, base = orDefault(model, DefaultOpenAIModel), orDefault(base, DefaultOpenAIURL)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q is not an http(s) URL", base)
	}
	key := ""
	if cfg.APIKeyEnv != "" {
		key = strings.TrimSpace(getenv(cfg.APIKeyEnv))
	}
	client := provider.Recording(&http.Client{Transport: &authTransport{base: http.DefaultTransport, key: key}})

	var m llms.Model
	switch kind {
	case core.ProviderOllama:
		m, err = ollama.New(ollama.WithModel(model), ollama.WithServerURL(u.String()), ollama.WithHTTPClient(client))
	default:
		token := key
		if token == "" {
			token = "none" // the library insists on one; authTransport drops it
		}
		m, err = openai.New(openai.WithModel(model), openai.WithBaseURL(u.String()), openai.WithToken(token),
			openai.WithHTTPClient(client))
	}
	if err != nil {
		return nil, err
	}
	timeout := defaultTimeout
	if cfg.TimeoutSeconds > 0 {
		timeout = time.Duration(cfg.TimeoutSeconds * float64(time.Second))
	}
	e := &LLM{
		name:     kind + ":" + model,
		provider: kind,
		where:    u.String(),
		model:    m,
		builtin:  builtin,
		log:      log,
		timeout:  timeout,
		sem:      make(chan struct{}, max(1, cfg.MaxConcurrency)),
	}
	e.jsonMode.Store(true)
	e.now = time.Now
	return e, nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// authTransport sends the API key as a bearer token, and no Authorization
// header at all when there is no key.
type authTransport struct {
	base http.RoundTripper
	key  string
}

func (t *authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if t.key != "" {
		r.Header.Set("Authorization", "Bearer "+t.key)
	} else {
		r.Header.Del("Authorization")
	}
	return t.base.RoundTrip(r)
}

// Name implements Enricher: "ollama:<model>" or "openai:<model>".
func (e *LLM) Name() string { return e.name }

// Enrich implements Enricher. Whatever the model does (no answer in time,
// a refused connection, a server error, an answer that is not the JSON
// asked for) a card comes back: the builtin one, and the reason is logged.
// Fields missing from a partial answer are taken from the builtin card.
// The only errors are the caller's: ctx cancelled or past its deadline.
func (e *LLM) Enrich(ctx context.Context, in Input) (Card, error) {
	if err := ctx.Err(); err != nil {
		return Card{}, err
	}
	if strings.TrimSpace(in.Text) == "" {
		// Nothing for the model to read: the builtin card is as good.
		c, err := e.builtin.Enrich(ctx, in)
		c.By = e.name
		return c, err
	}
	answer, err := e.askInSlot(ctx, in)
	var open *breakerOpen
	if errors.As(err, &open) {
		return e.fallback(ctx, in, err)
	}
	if cerr := ctx.Err(); cerr != nil {
		return Card{}, cerr
	}
	e.record(err == nil)
	if err != nil {
		return e.fallback(ctx, in, err)
	}
	got, err := parseAnswer(answer)
	if err != nil {
		return e.fallback(ctx, in, err)
	}
	card := Card{Title: got.Title, Summary: got.Summary, Keywords: got.Keywords, By: e.name}
	if card.Title == "" || card.Summary == "" || len(card.Keywords) < minKeywords {
		b, err := e.builtin.Enrich(ctx, in)
		if err != nil {
			return Card{}, err
		}
		e.log.Debug("enrich: partial answer completed from the builtin card", "path", in.Path, "model", e.name)
		if card.Title == "" {
			card.Title = b.Title
		}
		if card.Summary == "" {
			card.Summary = b.Summary
		}
		card.Keywords = topUpKeywords(card.Keywords, b.Keywords)
	}
	return card, nil
}

func (e *LLM) fallback(ctx context.Context, in Input, reason error) (Card, error) {
	e.log.Warn("enrich: model gave no usable card, using the builtin one", "path", in.Path, "model", e.name, "reason", reason.Error())
	return e.builtin.Enrich(ctx, in)
}

// paused reports whether the model is being left alone after repeated
// failures, and until when.
func (e *LLM) paused() (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pauseTill, e.now().Before(e.pauseTill)
}

// record counts calls in a row that got no answer, and starts a pause at
// breakerFailures.
func (e *LLM) record(answered bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if answered {
		e.fails = 0
		return
	}
	e.fails++
	if e.fails >= breakerFailures {
		e.fails = 0
		e.pauseTill = e.now().Add(breakerPause)
	}
}

// breakerOpen is the model left alone after failing breakerFailures times
// in a row.
type breakerOpen struct{ till time.Time }

func (b *breakerOpen) Error() string {
	return fmt.Sprintf("model unreachable %d times in a row, next try at %s", breakerFailures, b.till.Format(time.TimeOnly))
}

// askInSlot asks the model in one of the MaxConcurrency slots, given back
// however the call ends (a panic in reading an answer included).
func (e *LLM) askInSlot(ctx context.Context, in Input) (string, error) {
	if err := e.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-e.sem }()
	if till, paused := e.paused(); paused {
		return "", &breakerOpen{till: till}
	}
	return e.ask(ctx, in)
}

// acquire takes one of the MaxConcurrency slots, waiting while honouring
// ctx.
func (e *LLM) acquire(ctx context.Context) error {
	select {
	case e.sem <- struct{}{}:
		return nil
	default:
	}
	if e.onWait != nil {
		e.onWait()
	}
	select {
	case e.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var errTimeout = errors.New("no answer in time")

// ask sends the prompt and returns the model's text.
func (e *LLM) ask(ctx context.Context, in Input) (string, error) {
	callCtx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, systemPrompt),
		llms.TextParts(llms.ChatMessageTypeHuman, userPrompt(in)),
	}
	call := func(json bool) (*llms.ContentResponse, error) {
		opts := []llms.CallOption{llms.WithTemperature(0)}
		if json {
			opts = append(opts, llms.WithJSONMode())
		}
		if e.provider == core.ProviderOllama {
			opts = append(opts, llms.WithMaxTokens(maxAnswerTokens))
		}
		return e.model.GenerateContent(callCtx, msgs, opts...)
	}
	json := e.jsonMode.Load()
	resp, err := call(json)
	if err != nil && json && e.provider == core.ProviderOpenAI && callCtx.Err() == nil && strings.Contains(err.Error(), "status code: 400") {
		// Some OpenAI-compatible servers refuse response_format
		// json_object; ask them without it from now on.
		e.jsonMode.Store(false)
		resp, err = call(false)
	}
	if err != nil {
		if callCtx.Err() != nil && ctx.Err() == nil {
			return "", fmt.Errorf("%w (%s)", errTimeout, e.timeout)
		}
		return "", err
	}
	if len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return "", errors.New("empty answer")
	}
	return resp.Choices[0].Content, nil
}

const systemPrompt = `You write index cards for files in a personal, offline file search app.
Reply with one JSON object and nothing else, in this form:
{"title": "...", "summary": "...", "keywords": ["...", "..."]}
- title: a short, specific title for the file (at most 12 words). Use the document's own title if it has a good one.
- summary: 2-3 plain sentences, under 400 characters in total, saying what the file is about.
- keywords: 5-10 lower-case search keywords or short phrases that tell this file apart; no stop words, no numbers alone.
Write in the language of the document. Do not invent facts that are not in the text.`

// userPrompt describes the file: name, type, extracted title and the
// beginning of its text.
func userPrompt(in Input) string {
	var b strings.Builder
	name := in.Filename
	if name == "" {
		name = in.Path
	}
	b.WriteString("File name: ")
	b.WriteString(cleanLine(name))
	if in.Mime != "" {
		b.WriteString("\nType: ")
		b.WriteString(cleanLine(in.Mime))
	}
	if t := cleanLine(in.Title); t != "" {
		b.WriteString("\nDocument title: ")
		b.WriteString(truncateRunes(t, 200))
	}
	text := in.Text
	cut := false
	if len(text) > promptTextBytes {
		text, cut = text[:promptTextBytes], true
		for len(text) > 0 && !utf8.FullRuneInString(text[lastRuneStart(text):]) {
			text = text[:lastRuneStart(text)]
		}
	}
	text = strings.ToValidUTF8(strings.TrimSpace(text), "")
	if cut {
		b.WriteString("\n\nBeginning of the text (it goes on):\n")
	} else {
		b.WriteString("\n\nText:\n")
	}
	b.WriteString(text)
	return b.String()
}

func lastRuneStart(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return len(s)
}

// topUpKeywords adds the builtin's keywords, skipping any that share a
// word stem with those already there, until there are at least
// minKeywords.
func topUpKeywords(kw, builtin []string) []string {
	if len(kw) >= minKeywords {
		return kw
	}
	seen := make(map[string]bool, 2*maxKeywords)
	out := make([]string, 0, maxKeywords)
	for _, k := range kw {
		for _, w := range strings.Fields(k) {
			seen[tokens.Stem(w)] = true
		}
		out = append(out, k)
	}
	for _, k := range builtin {
		if len(out) >= minKeywords && len(kw) > 0 || len(out) == maxKeywords {
			break
		}
		ws := strings.Fields(k)
		if slices.ContainsFunc(ws, func(w string) bool { return seen[tokens.Stem(w)] }) {
			continue
		}
		for _, w := range ws {
			seen[tokens.Stem(w)] = true
		}
		out = append(out, k)
	}
	return out
}

// stemKey identifies a keyword or phrase by the stems of its words.
func stemKey(k string) string {
	f := strings.Fields(strings.ToLower(k))
	for i, w := range f {
		f[i] = tokens.Stem(w)
	}
	return strings.Join(f, " ")
}
