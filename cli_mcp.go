package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/client"
)

// mcpCommand is `trove mcp`: the Model Context Protocol on stdin and
// stdout, for AI agents that start their servers as commands. The tools
// run in the Trove already running (its /mcp endpoint), which holds the
// index, knows the settings and shows each call to the person; this
// command only carries messages between the agent and it.
func mcpCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("mcp", "[--addr ADDR]", stderr)
	addr := fs.String("addr", envOr("TROVE_ADDR", client.DefaultAddr), "the address of the running Trove")
	rest, code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "%s mcp: unexpected argument %q (run \"%s mcp --help\")\n", prog, rest[0], prog)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := client.New(*addr, "")
	if _, err := c.Status(ctx); err != nil {
		if client.IsUnreachable(err) {
			fmt.Fprintf(stderr, "%s mcp: Trove is not running at %s: start it first (the Trove app, or `trove serve`), then start the agent again\n", prog, *addr)
			return exitUnreachable
		}
		fmt.Fprintf(stderr, "%s mcp: Trove at %s refused: %v\n", prog, *addr, err)
		return exitNothing
	}
	err := bridgeMCP(ctx, c.Addr()+"/mcp", os.Getenv("TROVE_TOKEN"), &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "%s mcp: %v\n", prog, err)
		return exitNothing
	}
	return exitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// bridgeMCP serves MCP on local (the agent's side) by forwarding the
// tools' requests to the Trove at endpoint, until the agent hangs up. It
// answers initialize itself, with the Trove's name and instructions; the
// tools are listed anew for each request, so what Settings allows applies
// at once.
func bridgeMCP(ctx context.Context, endpoint, token string, local sdk.Transport) error {
	hc := &http.Client{Timeout: 2 * time.Minute}
	if token != "" {
		hc.Transport = bearer{token: token, next: http.DefaultTransport}
	}
	remote, err := sdk.NewClient(&sdk.Implementation{Name: "trove-mcp", Version: version}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err != nil {
		return fmt.Errorf("cannot reach Trove's MCP server at %s: %w", endpoint, err)
	}
	defer remote.Close()
	init := remote.InitializeResult()
	srv := sdk.NewServer(init.ServerInfo, &sdk.ServerOptions{Instructions: init.Instructions,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}})
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch r := req.(type) {
			case *sdk.ListToolsRequest:
				return remote.ListTools(ctx, r.Params)
			case *sdk.CallToolRequest:
				return remote.CallTool(ctx, &sdk.CallToolParams{Meta: r.Params.Meta, Name: r.Params.Name, Arguments: r.Params.Arguments})
			}
			return next(ctx, method, req)
		}
	})
	session, err := srv.Connect(ctx, local, nil)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { session.Close() })
	defer stop()
	return session.Wait()
}

// bearer sends the API token with every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
