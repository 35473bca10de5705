// Package provider holds what the model servers Trove can use (Ollama and
// OpenAI-compatible servers, for embeddings and for summaries) have in
// common: their default addresses, where their API keys may come from,
// whether an address is on this machine, and how a failed exchange with
// one is put into words.
package provider

import (
	"net"
	"net/url"
	"os"
	"slices"
	"strings"

	"trove/backend/core"
)

// Default server addresses.
const (
	OllamaURL = "http://127.0.0.1:11434"
	OpenAIURL = "https://api.openai.com/v1"
)

// KeyVariables are the only environment variables an API key is read from.
// A setting names one of them (api_key_env); any other name is refused, so
// that a client able to change settings cannot make Trove send an arbitrary
// secret of its environment (a cloud credential, a session token) to a
// server. Trove's own names come first: point them at a key held under
// another name (TROVE_EMBEDDING_API_KEY=$MY_KEY).
var KeyVariables = []string{
	"TROVE_EMBEDDING_API_KEY",
	"TROVE_SUMMARIZER_API_KEY",
	"OPENAI_API_KEY",
	"OLLAMA_API_KEY",
	"OPENROUTER_API_KEY",
	"GROQ_API_KEY",
	"TOGETHER_API_KEY",
	"MISTRAL_API_KEY",
	"DEEPSEEK_API_KEY",
	"FIREWORKS_API_KEY",
	"GEMINI_API_KEY",
	"XAI_API_KEY",
	"VLLM_API_KEY",
	"LLAMA_API_KEY",
}

// KeyAllowed reports whether an API key may be read from the variable.
func KeyAllowed(name string) bool { return slices.Contains(KeyVariables, name) }

// Getenv reads an API key variable; names outside KeyVariables read as
// unset whatever the environment holds.
func Getenv(name string) string {
	if !KeyAllowed(name) {
		return ""
	}
	return os.Getenv(name)
}

// BaseURL is the server a provider setting talks to: the configured address
// or the provider's default. It is "" for the builtin provider, which talks
// to no server.
func BaseURL(name, configured string) string {
	configured = strings.TrimSpace(configured)
	switch strings.ToLower(strings.TrimSpace(name)) {
	case core.ProviderOllama:
		return orDefault(configured, OllamaURL)
	case core.ProviderOpenAI:
		return orDefault(configured, OpenAIURL)
	}
	return ""
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// Local reports whether a server address is on this machine: a loopback
// address or the name localhost. Other names count as remote even when
// they resolve to a loopback address today, since what they resolve to can
// change.
func Local(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Route is where a provider setting sends file text, and with which key.
type Route struct {
	Provider string // builtin, ollama or openai
	URL      string // "" for the builtin
	KeyEnv   string // "" for the builtin, and for servers without a key
}

// RouteOf describes a provider setting. Everything the builtin is given
// stays in this process, so its address and key do not matter.
func RouteOf(name, baseURL, keyEnv string) Route {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || name == core.ProviderBuiltin {
		return Route{Provider: core.ProviderBuiltin}
	}
	return Route{Provider: name, URL: BaseURL(name, baseURL), KeyEnv: keyEnv}
}

// Private reports whether the route keeps file text and secrets on this
// machine: the builtin, or a server on this machine sent no key.
func (r Route) Private() bool {
	return r.Provider == core.ProviderBuiltin || Local(r.URL) && r.KeyEnv == ""
}

// Host is the route's server, for messages.
func (r Route) Host() string {
	if u, err := url.Parse(r.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return r.URL
}
