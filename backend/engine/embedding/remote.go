package embedding

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
	"golang.org/x/sync/errgroup"

	"trove/backend/core"
	"trove/backend/engine/provider"
)

// Defaults of the remote providers.
const (
	DefaultOllamaModel = "nomic-embed-text"
	DefaultOllamaURL   = provider.OllamaURL
	DefaultOpenAIModel = "text-embedding-3-small"
	DefaultOpenAIURL   = provider.OpenAIURL

	// BatchSize is the most texts sent in one request (to Ollama: handled
	// in one Embed step, one request per text).
	BatchSize = 64
	// OllamaParallel is the default number of concurrent requests to
	// Ollama, which serves up to 4 at once by default.
	OllamaParallel = 4
	// DefaultTimeout bounds one batch when the caller's context has no
	// earlier deadline.
	DefaultTimeout = 2 * time.Minute
)

// knownDims are the vector lengths of common embedding models, so that Dim
// is right before the first call; other models report theirs once a call
// has returned.
var knownDims = map[string]int{
	"nomic-embed-text":       768,
	"mxbai-embed-large":      1024,
	"all-minilm":             384,
	"snowflake-arctic-embed": 1024,
	"bge-m3":                 1024,
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// createFunc embeds one batch through a langchaingo client.
type createFunc func(ctx context.Context, texts []string) ([][]float32, error)

// Remote embeds through an Ollama or OpenAI-compatible server with
// langchaingo. Vectors are L2-normalised here whatever the server returns;
// blank texts get the zero vector without a request. It is safe for
// concurrent use.
type Remote struct {
	provider string // "ollama" or "openai"
	model    string // model name at the server
	id       string // Model()
	where    string // base URL, for errors
	create   createFunc
	// Timeout bounds each batch (DefaultTimeout when zero).
	Timeout time.Duration
	// Parallel is how many requests of one batch may be in flight at once
	// (1 when zero). NewOllama sets OllamaParallel: langchaingo sends
	// Ollama one text per request.
	Parallel int

	mu   sync.Mutex
	dim  int
	seen bool // a server answer has set dim
}

// NewOllama returns an embedder for an Ollama server (empty model and
// baseURL mean the defaults). langchaingo asks /api/embed for one text at
// a time.
func NewOllama(model, baseURL string, client *http.Client) (*Remote, error) {
	if model == "" {
		model = DefaultOllamaModel
	}
	if baseURL == "" {
		baseURL = DefaultOllamaURL
	}
	if err := checkURL(baseURL); err != nil {
		return nil, fmt.Errorf("ollama base URL: %w", err)
	}
	llm, err := ollama.New(ollama.WithModel(model), ollama.WithServerURL(baseURL), ollama.WithHTTPClient(provider.Recording(client)))
	if err != nil {
		return nil, fmt.Errorf("ollama client: %w", err)
	}
	r := newRemote("ollama", model, "ollama:"+model, baseURL, llm.CreateEmbedding)
	r.Parallel = OllamaParallel
	return r, nil
}

// NewOpenAI returns an embedder for an OpenAI-compatible server (empty
// model and baseURL mean the defaults). apiKey may be empty for local
// servers that need none.
func NewOpenAI(model, baseURL, apiKey string, client *http.Client) (*Remote, error) {
	if model == "" {
		model = DefaultOpenAIModel
	}
	if baseURL == "" {
		baseURL = DefaultOpenAIURL
	}
	if err := checkURL(baseURL); err != nil {
		return nil, fmt.Errorf("openai base URL: %w", err)
	}
	u, _ := url.Parse(baseURL)
	token := apiKey
	if token == "" {
		// langchaingo insists on a token; servers without keys ignore it.
		token = "none"
	}
	llm, err := openai.New(
		openai.WithToken(token),
		openai.WithBaseURL(strings.TrimRight(baseURL, "/")),
		openai.WithEmbeddingModel(model),
		openai.WithModel(model),
		openai.WithHTTPClient(provider.Recording(client)),
	)
	if err != nil {
		return nil, fmt.Errorf("openai client: %w", err)
	}
	return newRemote("openai", model, "openai:"+model+"@"+u.Host, baseURL, llm.CreateEmbedding), nil
}

func newRemote(provider, model, id, where string, create createFunc) *Remote {
	return &Remote{provider: provider, model: model, id: id, where: where, create: create, dim: knownDims[model]}
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	return nil
}

// Model implements Embedder.
func (r *Remote) Model() string { return r.id }

// Dim implements Embedder: the model's known length, or the one its
// server returned; 0 while neither is known.
func (r *Remote) Dim() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dim
}

// Embed implements Embedder, in batches of BatchSize texts.
func (r *Remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var idx []int
	var batch []string
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		vs, err := r.batch(ctx, batch)
		if err != nil {
			return err
		}
		for k, v := range vs {
			out[idx[k]] = v
		}
		idx, batch = idx[:0], batch[:0]
		return nil
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		idx = append(idx, i)
		batch = append(batch, t)
		if len(batch) == BatchSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	// Blank texts: zero vectors of the model's length.
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, r.Dim())
		}
	}
	return out, nil
}

func (r *Remote) batch(ctx context.Context, texts []string) ([][]float32, error) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	vs, err := r.send(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%s at %s: %d vectors for %d texts", r.provider, r.where, len(vs), len(texts))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, v := range vs {
		if len(v) == 0 {
			return nil, fmt.Errorf("%s at %s: empty vector for text %d", r.provider, r.where, i)
		}
		if !r.seen {
			// The first answer fixes the length (a server may shorten a
			// model's vectors); later answers must keep to it.
			r.dim, r.seen = len(v), true
		}
		if len(v) != r.dim {
			return nil, fmt.Errorf("%s at %s: model %s returned a vector of %d dimensions, expected %d", r.provider, r.where, r.model, len(v), r.dim)
		}
		if !unitize(v) {
			return nil, fmt.Errorf("%s at %s: model %s returned a zero or non-finite vector", r.provider, r.where, r.model)
		}
	}
	return vs, nil
}

// send asks the server for the vectors of texts, in up to r.Parallel
// concurrent parts.
func (r *Remote) send(ctx context.Context, texts []string) ([][]float32, error) {
	parts := min(max(r.Parallel, 1), len(texts))
	if parts <= 1 {
		return r.part(ctx, ctx, texts)
	}
	results := make([][][]float32, parts)
	g, gctx := errgroup.WithContext(ctx)
	for p := range parts {
		lo, hi := p*len(texts)/parts, (p+1)*len(texts)/parts
		g.Go(func() error {
			var err error
			if perr := core.Safe(func() { results[p], err = r.part(gctx, ctx, texts[lo:hi]) }); perr != nil {
				return perr
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out [][]float32
	for _, vs := range results {
		out = append(out, vs...)
	}
	return out, nil
}

// part asks for the vectors of texts in one request; a failure is
// explained in the caller's context.
func (r *Remote) part(ctx, caller context.Context, texts []string) ([][]float32, error) {
	cctx, rec := provider.Record(ctx)
	vs, err := r.create(cctx, texts)
	if err != nil {
		return nil, provider.Explain(caller, r.who(), rec, err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%s: %d vectors for %d texts", r.who(), len(vs), len(texts))
	}
	return vs, nil
}

// unitize normalises v in place, or reports false.
func unitize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return false
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return true
}

// who names the server in errors: "ollama at http://127.0.0.1:11434".
func (r *Remote) who() string { return fmt.Sprintf("%s at %s", r.provider, r.where) }
