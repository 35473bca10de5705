// Package mcp is Trove's Model Context Protocol server: AI agents search
// the person's files through it, with the official Go SDK. It is served
// on Trove's local address (POST /mcp, the streamable HTTP transport,
// behind the API's token and Origin rules); `trove mcp` bridges an
// agent's stdio to it, so every call runs here, in the Trove that holds
// the index, and is shown to the person (an mcp.call event in Activity,
// and a line in the log) with what the agent asked and how much it got.
//
// Reading is all an agent may do by default: search, preview, status,
// list_folders. open and watch exist only while the person turns them on
// in Settings (mcp.allow_open, mcp.allow_watch); off, they are not even
// listed. Every answer is at most MaxBytes.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/backend/core"
	"trove/backend/service"
	"trove/backend/shell/views"
)

// MaxBytes bounds the answer of one call: the text an agent receives,
// which is all that leaves Trove in it.
const MaxBytes = 32 << 10

// Service is what the tools need of the service.
type Service interface {
	Search(ctx context.Context, req service.SearchRequest) (service.SearchAnswer, error)
	Preview(ctx context.Context, id int64, text string) (service.FilePreview, error)
	FileByPath(ctx context.Context, path string) (core.File, error)
	Status(ctx context.Context) (service.Status, error)
	FileStats(ctx context.Context) (core.FileStats, error)
	QueueStatus() core.QueueStatus
	Folders(ctx context.Context) ([]core.WatchedDirectory, error)
	OpenFile(ctx context.Context, id int64, reveal bool) (string, error)
	OpenFileAt(ctx context.Context, id int64, page int) (string, error)
	Watch(ctx context.Context, path string, opt service.WatchOptions) (service.WatchResult, error)
	Settings() core.Settings
	RecordAgentCall(c core.AgentCall)
}

var _ Service = (*service.Service)(nil)

// Options are what the server says of itself.
type Options struct {
	Version string
	Log     *slog.Logger
}

// instructions tell an agent how the tools fit together.
const instructions = `Trove searches the files on this computer: documents, notes, mail, code and more, by their names and their text.
Call search first; each result has an id and a path. Call preview with an id (and the query) to read the indexed text of a file around the matching words.
status says how much is indexed, list_folders which folders are. Answers are capped at 32 KiB; ask for fewer results or a smaller preview to stay under it.
The person sees every call in Trove's Activity.`

// Handler serves the streamable HTTP transport. It is stateless: each
// request gets a server built with the tools the settings allow at that
// moment, so a change in Settings applies to the next call, and nothing
// is kept between requests.
func Handler(svc Service, opt Options) http.Handler {
	cache := sdk.NewSchemaCache()
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newServer(svc, opt, cache) },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: opt.Log})
}

// NewServer is an MCP server over the service with the tools the
// settings allow now; tests run it over an in-memory transport.
func NewServer(svc Service, opt Options) *sdk.Server { return newServer(svc, opt, nil) }

func newServer(svc Service, opt Options, cache *sdk.SchemaCache) *sdk.Server {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "trove", Title: "Trove", Version: opt.Version},
		&sdk.ServerOptions{Instructions: instructions, SchemaCache: cache, Logger: opt.Log,
			Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}})
	t := tools{svc: svc, log: opt.Log}
	s.AddReceivingMiddleware(t.recordRefused)
	addTool(s, t, searchTool, t.search)
	addTool(s, t, previewTool, t.preview)
	addTool(s, t, statusTool, t.status)
	addTool(s, t, foldersTool, t.folders)
	allow := svc.Settings().MCP
	if allow.AllowOpen {
		addTool(s, t, openTool, t.open)
	}
	if allow.AllowWatch {
		addTool(s, t, watchTool, t.watch)
	}
	return s
}

// tools are the handlers, over the service.
type tools struct {
	svc Service
	log *slog.Logger
}

// answer is what a tool returns: its result, and the files it names.
type answer struct {
	out   any
	files []string
}

// shownFiles is how many of an answer's files its mcp.call event lists.
const shownFiles = 20

// addTool adds one tool whose handler decodes In, runs, and answers JSON
// text of at most MaxBytes. Each call, failed or not, is recorded.
func addTool[In any](s *sdk.Server, t tools, def *sdk.Tool, run func(context.Context, In) (answer, error)) {
	sdk.AddTool(s, def, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
		if r, ok := ctx.Value(recordKey{}).(*record); ok {
			r.done = true // recorded here, with what the tool found
		}
		call := core.AgentCall{Tool: def.Name, Arguments: cut(string(req.Params.Arguments), 1024)}
		a, err := safely(ctx, in, run)
		var text []byte
		if err == nil {
			text, err = json.Marshal(a.out)
		}
		if err == nil && len(text) > MaxBytes {
			// Each tool keeps its answer under the cap; this is the guard
			// that the cap holds whatever a tool does.
			err = fmt.Errorf("the answer would be %d bytes, over Trove's cap of %d", len(text), MaxBytes)
		}
		if err != nil {
			msg := message(err, t.log)
			call.Error = msg
			t.svc.RecordAgentCall(call)
			return nil, nil, errors.New(msg)
		}
		call.Results, call.Files, call.Bytes = len(a.files), a.files[:min(len(a.files), shownFiles)], len(text)
		t.svc.RecordAgentCall(call)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}, nil, nil
	})
}

// record says whether a tool call was recorded by its tool.
type record struct{ done bool }

type recordKey struct{}

// recordRefused records the tool calls that never reach a tool: a tool
// that is not listed (open and watch while off), arguments its schema
// refuses. The person sees those attempts too.
func (t tools) recordRefused(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		tc, ok := req.(*sdk.CallToolRequest)
		if method != "tools/call" || !ok || tc.Params == nil {
			return next(ctx, method, req)
		}
		r := &record{}
		res, err := next(context.WithValue(ctx, recordKey{}, r), method, req)
		if r.done {
			return res, err
		}
		call := core.AgentCall{Tool: tc.Params.Name, Arguments: cut(string(tc.Params.Arguments), 1024), Error: "refused"}
		if err != nil {
			call.Error = err.Error()
		} else if cr, ok := res.(*sdk.CallToolResult); ok && cr.IsError && len(cr.Content) > 0 {
			if text, ok := cr.Content[0].(*sdk.TextContent); ok {
				call.Error = text.Text
			}
		}
		t.svc.RecordAgentCall(call)
		return res, err
	}
}

// safely runs a handler, turning a panic into its error: the SDK runs
// handlers on its own goroutines and recovers nothing.
func safely[In any](ctx context.Context, in In, run func(context.Context, In) (answer, error)) (a answer, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &core.PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return run(ctx, in)
}

// message is an error in the words the API uses for it; Trove's own
// faults are logged with their detail and shown as the API shows them.
func message(err error, log *slog.Logger) string {
	info := views.ErrorOf(err)
	if info.Status >= 500 {
		log.Error("MCP tool failed", "err", err)
	}
	if info.Code != "" {
		return info.Message + " (" + info.Code + ")"
	}
	return info.Message
}

// cut shortens s to at most n bytes, at a character boundary, marking the
// cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < len("…") {
		return ""
	}
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
