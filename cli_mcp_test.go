package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/internal/testserver"
)

// mcpBackend is a real Trove with two files indexed.
func mcpBackend(t *testing.T, opts ...testserver.Option) (*testserver.Server, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docs")
	testserver.WriteFiles(t, dir,
		"roof-leak-report.md", "# Roof\n\nWater came through the bedroom ceiling after the storm.",
		"budget.txt", "Groceries, rent and the new bicycle.")
	srv := testserver.Start(t, opts...)
	srv.IndexDir(dir, 2)
	return srv, dir
}

func tools(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

func searchFirst(t *testing.T, cs *sdk.ClientSession, query string) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": query}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %+v", err, res)
	}
	var out struct {
		Results []struct{ Path string } `json:"results"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &out); err != nil || len(out.Results) == 0 {
		t.Fatalf("search answered %v (%v)", res.Content, err)
	}
	return out.Results[0].Path
}

// The bridge over an in-memory pipe: the agent's SDK client on one end,
// the running Trove (with a token) on the other.
func TestMCPBridgeForwardsToTheRunningTrove(t *testing.T) {
	srv, dir := mcpBackend(t, testserver.WithToken("s3cret"))
	agentSide, bridgeSide := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bridgeMCP(ctx, srv.URL+"/mcp", "s3cret", bridgeSide) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the bridge did not stop")
		}
	})
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, agentSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if name := cs.InitializeResult().ServerInfo.Name; name != "trove" {
		t.Errorf("server name %q", name)
	}
	if got := tools(t, cs); !slices.Equal(got, []string{"list_folders", "preview", "search", "status"}) {
		t.Errorf("tools = %v", got)
	}
	if got := searchFirst(t, cs, "roof leak"); got != filepath.Join(dir, "roof-leak-report.md") {
		t.Errorf("search found %s first", got)
	}
	// Settings change what is listed at once.
	if r := srv.Do("PUT", "/api/settings/", map[string]any{"mcp.allow_watch": true}); r.Status != 200 {
		t.Fatal(r.Status, string(r.Body))
	}
	if got := tools(t, cs); !slices.Contains(got, "watch") || slices.Contains(got, "open") {
		t.Errorf("tools with watch allowed = %v", got)
	}
	// A bad token stops the bridge at the start, in words.
	err = bridgeMCP(context.Background(), srv.URL+"/mcp", "wrong", &sdk.InMemoryTransport{})
	if err == nil || !strings.Contains(err.Error(), "cannot reach Trove's MCP server") {
		t.Errorf("bridge with a wrong token: %v", err)
	}
}

// One real stdio run: the built binary, started as an agent starts an MCP
// server.
func TestMCPCommandOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "trove")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv, dir := mcpBackend(t)
	addr := strings.TrimPrefix(srv.URL, "http://")

	cmd := exec.Command(bin, "mcp", "--addr", addr)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	if got := searchFirst(t, cs, "bicycle"); got != filepath.Join(dir, "budget.txt") {
		t.Errorf("search over stdio found %s first", got)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v (stderr %s)", err, stderr.String())
	}

	// Without a running Trove it says so, and exits 3.
	srv.Stop()
	out, err := exec.Command(bin, "mcp", "--addr", addr).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitUnreachable || !strings.Contains(string(out), "Trove is not running at "+addr) {
		t.Errorf("without Trove: %v %q", err, out)
	}
}
