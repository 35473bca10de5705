package mcp_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/backend/shell/mcp"
	"trove/internal/desktoptest"
	"trove/internal/pdftest"
	"trove/internal/testserver"
)

// indexed is a real backend with a few files indexed.
func indexed(t *testing.T, opts ...testserver.Option) (*testserver.Server, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docs")
	long := strings.Repeat("Filler about nothing in particular, to make the text long. ", 800)
	testserver.WriteFiles(t, dir,
		"roof-leak-report.md", "# Roof\n\nWater came through the bedroom ceiling after the storm. The roofer came on Monday.",
		"notes/budget plan 2024.txt", "Groceries, rent and the new bicycle.",
		"manual.txt", long+"The flux capacitor needs 1.21 gigawatts. "+long,
	)
	srv := testserver.Start(t, opts...)
	srv.IndexDir(dir, 3)
	return srv, dir
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect is the SDK's client on the server's /mcp.
func connect(t *testing.T, srv *testserver.Server, token string) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Timeout: 30 * time.Second}
	if token != "" {
		hc.Transport = bearer{token}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// call calls a tool and decodes its JSON text into out; it returns the
// text, or fails the test on a tool error unless wantErr.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError {
		if out != nil {
			t.Fatalf("%s failed: %s", name, text)
		}
		return text
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s answered %q: %v", name, text, err)
		}
	}
	return text
}

func TestHTTPToolsAreReadOnlyUntilTurnedOn(t *testing.T) {
	srv, _ := indexed(t)
	cs, err := connect(t, srv, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, cs); !slices.Equal(got, []string{"list_folders", "preview", "search", "status"}) {
		t.Errorf("tools by default = %v, want the four read-only ones", got)
	}
	updates := srv.Subscribe("types=mcp.call")
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "open", Arguments: map[string]any{"id": 1}}); err == nil || !strings.Contains(err.Error(), "open") {
		t.Errorf("open while off: %v", err)
	}
	// The attempt is shown to the person all the same.
	updates.WaitFor(t, "mcp.call", 10*time.Second, func(e testserver.Event) bool {
		return e.Payload()["tool"] == "open" && e.Payload()["error"] != ""
	})
	r := srv.Do("PUT", "/api/settings/", map[string]any{"mcp.allow_open": true, "mcp.allow_watch": true})
	if r.Status != 200 {
		t.Fatalf("turn the tools on: %d %s", r.Status, r.Body)
	}
	if got := toolNames(t, cs); !slices.Equal(got, []string{"list_folders", "open", "preview", "search", "status", "watch"}) {
		t.Errorf("tools when allowed = %v, want open and watch too", got)
	}
}

func TestHTTPSearchAndPreview(t *testing.T) {
	srv, dir := indexed(t)
	updates := srv.Subscribe("types=mcp.call")
	cs, err := connect(t, srv, "")
	if err != nil {
		t.Fatal(err)
	}
	var found mcp.SearchOutput
	call(t, cs, "search", map[string]any{"query": "roof leak", "limit": 5}, &found)
	roof := filepath.Join(dir, "roof-leak-report.md")
	if len(found.Results) == 0 || found.Results[0].Path != roof || found.Results[0].Score <= 0 {
		t.Fatalf("search(roof leak) = %+v, want %s first", found, roof)
	}
	ev := updates.WaitFor(t, "mcp.call", 10*time.Second, func(e testserver.Event) bool { return e.Payload()["tool"] == "search" })
	p := ev.Payload()
	files, _ := p["files"].([]any)
	if !strings.Contains(p["arguments"].(string), "roof leak") || p["results"].(float64) != float64(len(found.Results)) ||
		len(files) != len(found.Results) || files[0] != roof || p["bytes"].(float64) <= 0 || p["error"] != "" {
		t.Errorf("mcp.call event = %v", p)
	}

	var pv mcp.PreviewOutput
	call(t, cs, "preview", map[string]any{"id": found.Results[0].ID, "query": "bedroom ceiling"}, &pv)
	if pv.Path != roof || pv.Matches < 2 || !strings.Contains(pv.Text, "**bedroom**") || pv.Excerpts || pv.Truncated {
		t.Errorf("preview of the short file = %+v", pv)
	}
	// A long text shows excerpts around its match, within the bytes asked.
	call(t, cs, "preview", map[string]any{"path": filepath.Join(dir, "manual.txt"), "query": "flux capacitor", "max_bytes": 2000}, &pv)
	if !pv.Excerpts || !pv.Truncated || len(pv.Text) > 2000 || !strings.Contains(pv.Text, "**flux**") || pv.TextBytes < 40000 {
		t.Errorf("preview of the long file: excerpts %v truncated %v, %d of %d bytes: %q", pv.Excerpts, pv.Truncated, len(pv.Text), pv.TextBytes, pv.Text)
	}
	if text := call(t, cs, "preview", map[string]any{"id": found.Results[0].ID, "max_bytes": 1 << 20}, nil); !strings.Contains(text, "max_bytes") {
		t.Errorf("an oversized max_bytes: %q", text)
	}

	var st mcp.StatusOutput
	call(t, cs, "status", nil, &st)
	if st.FilesIndexed != 3 || st.Folders != 1 || st.Index != "ok" {
		t.Errorf("status = %+v", st)
	}
	var fl mcp.FoldersOutput
	call(t, cs, "list_folders", nil, &fl)
	if len(fl.Folders) != 1 || fl.Folders[0].Path != dir || fl.Folders[0].IndexedCount != 3 {
		t.Errorf("list_folders = %+v", fl)
	}
	// A failed call is shown too, with its reason.
	call(t, cs, "search", map[string]any{"query": "roof", "mode": "psychic"}, nil)
	ev = updates.WaitFor(t, "mcp.call", 10*time.Second, func(e testserver.Event) bool {
		return e.Payload()["tool"] == "search" && e.Payload()["error"] != ""
	})
	if msg := ev.Payload()["error"].(string); !strings.Contains(msg, "mode") {
		t.Errorf("failed call's event error = %q", msg)
	}
}

// A PDF's result names the page its snippet stands on; a text file's none.
// Open takes the page to the default PDF viewer.
func TestSearchResultsNamePages(t *testing.T) {
	viewer := desktoptest.PDFViewer(t, "evince-test.desktop", "evince", "%U")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.pdf"), pdftest.Pages("harbour minutes", "quokka census"), 0o644); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, dir, "notes.txt", "a quokka in the notes")
	srv := testserver.Start(t)
	srv.IndexDir(dir, 2)
	cs, err := connect(t, srv, "")
	if err != nil {
		t.Fatal(err)
	}
	var found mcp.SearchOutput
	call(t, cs, "search", map[string]any{"query": "quokka"}, &found)
	pages := map[string]int{}
	for _, r := range found.Results {
		pages[filepath.Base(r.Path)] = r.Page
	}
	if want := map[string]int{"report.pdf": 2, "notes.txt": 0}; !maps.Equal(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	if r := srv.Do("PUT", "/api/settings/", map[string]any{"mcp.allow_open": true}); r.Status != 200 {
		t.Fatalf("turn open on: %d %s", r.Status, r.Body)
	}
	pdf := filepath.Join(dir, "report.pdf")
	if text := call(t, cs, "open", map[string]any{"path": pdf, "page": -1}, nil); !strings.Contains(text, "page") {
		t.Errorf("a bad page: %q", text)
	}
	call(t, cs, "open", map[string]any{"path": pdf, "page": 2}, &mcp.OpenOutput{})
	if got := desktoptest.Ran(t, viewer.Argv); !slices.Equal(got, []string{"--page-index=2", pdf}) {
		t.Errorf("the viewer ran with %q", got)
	}
}

func TestHTTPSearchStaysUnderTheCap(t *testing.T) {
	srv, dir := indexed(t)
	var pairs []string
	for i := range 60 {
		name := strings.Repeat("x", 150) + "-" + string(rune('a'+i%26)) + strings.Repeat("y", i) + "-report.txt"
		pairs = append(pairs, filepath.Join("many", name), "a quarterly report about reports "+strings.Repeat("report ", 50))
	}
	testserver.WriteFiles(t, dir, pairs...)
	srv.WaitIdle(dir, 63)
	cs, err := connect(t, srv, "")
	if err != nil {
		t.Fatal(err)
	}
	var found mcp.SearchOutput
	text := call(t, cs, "search", map[string]any{"query": "report", "limit": 50}, &found)
	if len(text) > mcp.MaxBytes {
		t.Errorf("answer of %d bytes, over the cap of %d", len(text), mcp.MaxBytes)
	}
	if len(found.Results) == 0 {
		t.Fatal("nothing found")
	}
	if len(found.Results) < 50 && !found.Truncated {
		t.Errorf("%d results without truncated", len(found.Results))
	}
}

func TestHTTPNeedsTheTokenAndRefusesOtherSites(t *testing.T) {
	srv, _ := indexed(t, testserver.WithToken("s3cret"))
	if _, err := connect(t, srv, ""); err == nil {
		t.Fatal("connected without the token")
	}
	cs, err := connect(t, srv, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if len(toolNames(t, cs)) != 4 {
		t.Error("no tools with the token")
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct {
		name    string
		headers []string
		status  int
	}{
		{"a page of another site", []string{"Authorization", "Bearer s3cret", "Origin", "https://evil.example"}, 403},
		{"a rebinding host", []string{"Authorization", "Bearer s3cret", "Host", "evil.example:80"}, 403},
		{"no token", nil, 401},
	} {
		h := append([]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, c.headers...)
		if r := testserver.Anonymous(srv).Do("POST", "/mcp", json.RawMessage(init), h...); r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
		}
	}
}
