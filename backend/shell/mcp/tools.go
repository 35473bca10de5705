package mcp

import (
	"context"
	"encoding/json"
	"html"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// Search results: at most maxResults, each snippet at most snippetBytes.
const (
	defaultResults = 10
	maxResults     = 50
	snippetBytes   = 400
)

var readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}

var searchTool = &sdk.Tool{
	Name:  "search",
	Title: "Search files",
	Description: `Search the files Trove indexes on this computer, by name and by content. Returns the best matches first: path, title, a snippet of the matching passage (matches in **bold**), and scores.
The query takes plain words (natural language), "exact phrases", -excluded words, part of a file name, and filters written in the query: ext:pdf, in:FOLDERNAME, after:2024-01-31, before:2024.`,
	Annotations: readOnly,
}

// SearchInput is the search tool's input.
type SearchInput struct {
	Query          string   `json:"query" jsonschema:"what to look for"`
	Limit          int      `json:"limit,omitempty" jsonschema:"how many results, 1 to 50 (default 10)"`
	Directory      string   `json:"directory,omitempty" jsonschema:"only files below this absolute folder"`
	Extensions     []string `json:"extensions,omitempty" jsonschema:"only files with these extensions, such as pdf or md"`
	ModifiedAfter  string   `json:"modified_after,omitempty" jsonschema:"only files modified on or after this day (YYYY-MM-DD)"`
	ModifiedBefore string   `json:"modified_before,omitempty" jsonschema:"only files modified on or before this day (YYYY-MM-DD)"`
	Mode           string   `json:"mode,omitempty" jsonschema:"hybrid (words and meaning, the default), keyword or semantic"`
}

// SearchResult is one file found.
type SearchResult struct {
	ID            int64   `json:"id"`
	Path          string  `json:"path"`
	Title         string  `json:"title"`
	Snippet       string  `json:"snippet"`
	Page          int     `json:"page,omitempty" jsonschema:"the page of the file the snippet stands on (PDFs); absent for files without pages"`
	Score         float64 `json:"score"`
	KeywordScore  float64 `json:"keyword_score"`
	SemanticScore float64 `json:"semantic_score"`
	Modified      string  `json:"modified"`
	Size          int64   `json:"size"`
	Mime          string  `json:"mime"`
}

// SearchOutput is the search tool's answer.
type SearchOutput struct {
	Results []SearchResult `json:"results"`
	// Truncated says results were left out to keep the answer under
	// Trove's cap.
	Truncated bool   `json:"truncated"`
	Notice    string `json:"notice,omitempty"`
}

func (t tools) search(ctx context.Context, in SearchInput) (answer, error) {
	limit := in.Limit
	switch {
	case limit == 0:
		limit = defaultResults
	case limit < 1 || limit > maxResults:
		return answer{}, core.FailField(core.BadLimit, "limit", "must be 1 to %d, got %d", maxResults, limit)
	}
	filters, err := json.Marshal(map[string]any{"extensions": in.Extensions, "modified_after": in.ModifiedAfter, "modified_before": in.ModifiedBefore})
	if err != nil {
		return answer{}, err
	}
	// The API's request, so that the tool checks and words its input as
	// POST /api/search/ does.
	var dir *string // an agent's empty directory means every folder
	if in.Directory != "" {
		dir = &in.Directory
	}
	req, err := views.SearchRequest{Query: &in.Query, Directory: dir, Filters: filters, Limit: &limit, Mode: in.Mode}.Build()
	if err != nil {
		return answer{}, err
	}
	ans, err := t.svc.Search(ctx, req)
	if err != nil {
		return answer{}, err
	}
	out := SearchOutput{Results: []SearchResult{}, Notice: ans.Notice}
	size := jsonSize(out)
	for _, r := range ans.Results {
		res := SearchResult{
			ID: r.File.ID, Path: r.File.Path, Title: titleOf(r.File), Snippet: plainSnippet(r.Snippet), Page: r.Page,
			Score: round(r.Score), KeywordScore: round(r.Keyword), SemanticScore: round(r.Semantic),
			Modified: views.LocalTime(r.File.Modified), Size: r.File.Size, Mime: r.File.Mime,
		}
		if n := jsonSize(res) + 1; size+n > MaxBytes {
			out.Truncated = true
			break
		} else {
			size += n
		}
		out.Results = append(out.Results, res)
	}
	files := make([]string, len(out.Results))
	for i, r := range out.Results {
		files[i] = r.Path
	}
	return answer{out: out, files: files}, nil
}

// plainSnippet is a search snippet for an agent: the engine's HTML
// (escaped text, <mark> around matches) as plain text with the matches in
// **bold**, at most snippetBytes.
func plainSnippet(s string) string {
	s = strings.NewReplacer("<mark>", "**", "</mark>", "**").Replace(s)
	return cut(html.UnescapeString(s), snippetBytes)
}

func titleOf(f core.File) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Filename
}

func round(f float64) float64 { return float64(int64(f*1e4+0.5)) / 1e4 }

// jsonSize is the length of v's JSON.
func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

var statusTool = &sdk.Tool{
	Name:        "status",
	Title:       "Trove's status",
	Description: "How many files Trove has indexed, how many failed, how many are waiting, and whether its index and semantic search work.",
	Annotations: readOnly,
}

// StatusInput takes nothing.
type StatusInput struct{}

// StatusOutput is the status tool's answer.
type StatusOutput struct {
	Version      string `json:"version"`
	FilesIndexed int64  `json:"files_indexed"`
	FilesFailed  int64  `json:"files_failed"`
	Folders      int    `json:"folders"`
	Queued       int    `json:"queued"`
	Paused       bool   `json:"paused"`
	Index        string `json:"index"`     // ok, storage_error, damaged, rebuilding
	Embedding    string `json:"embedding"` // whether semantic search works, in words
	LastIndexed  string `json:"last_indexed,omitempty"`
}

func (t tools) status(ctx context.Context, _ StatusInput) (answer, error) {
	st, err := t.svc.Status(ctx)
	if err != nil {
		return answer{}, err
	}
	stats, err := t.svc.FileStats(ctx)
	if err != nil {
		return answer{}, err
	}
	q := t.svc.QueueStatus()
	emb := "semantic search works"
	if st.Embedding.Failing() {
		emb = "semantic search is unavailable: " + st.Embedding.Message
	}
	out := StatusOutput{Version: st.Version, FilesIndexed: stats.TotalFiles, FilesFailed: stats.FailedFiles, Folders: st.Jobs,
		Queued: q.Total, Paused: q.Paused, Index: st.Index.Status, Embedding: emb}
	if stats.LastIndexed != nil {
		out.LastIndexed = views.LocalTime(*stats.LastIndexed)
	}
	return answer{out: out}, nil
}

var foldersTool = &sdk.Tool{
	Name:        "list_folders",
	Title:       "Indexed folders",
	Description: "The folders Trove indexes (searches cover these and their subfolders), with how many files each holds and whether it is being indexed.",
	Annotations: readOnly,
}

// FoldersInput takes nothing.
type FoldersInput struct{}

// Folder is one indexed folder.
type Folder struct {
	ID           int64  `json:"id"`
	Path         string `json:"path"`
	Status       string `json:"status"`
	FileCount    int64  `json:"file_count"`
	IndexedCount int64  `json:"indexed_count"`
	FailedCount  int64  `json:"failed_count"`
}

// FoldersOutput is the list_folders tool's answer.
type FoldersOutput struct {
	Folders   []Folder `json:"folders"`
	Truncated bool     `json:"truncated"`
}

func (t tools) folders(ctx context.Context, _ FoldersInput) (answer, error) {
	dirs, err := t.svc.Folders(ctx)
	if err != nil {
		return answer{}, err
	}
	out := FoldersOutput{Folders: []Folder{}}
	size := jsonSize(out)
	for _, d := range dirs {
		f := Folder{ID: d.ID, Path: d.Path, Status: d.Status, FileCount: d.FileCount, IndexedCount: d.IndexedCount, FailedCount: d.FailedCount}
		if size += jsonSize(f) + 1; size > MaxBytes {
			out.Truncated = true
			break
		}
		out.Folders = append(out.Folders, f)
	}
	return answer{out: out}, nil
}

var openTool = &sdk.Tool{
	Name:        "open",
	Title:       "Open a file",
	Description: "Open an indexed file on the person's desktop with its default application, or show it in its folder (reveal). Only files Trove indexed can be opened.",
	Annotations: &sdk.ToolAnnotations{DestructiveHint: new(bool), IdempotentHint: true, OpenWorldHint: new(bool)},
}

// OpenInput names the file by id (from search) or path.
type OpenInput struct {
	ID     int64  `json:"id,omitempty" jsonschema:"the file's id, from search"`
	Path   string `json:"path,omitempty" jsonschema:"the file's absolute path, instead of id"`
	Reveal bool   `json:"reveal,omitempty" jsonschema:"show the file in its folder instead of opening it"`
	Page   int    `json:"page,omitempty" jsonschema:"open the file at this page (from 1): a search result's page; the default PDF viewer shows it where Trove knows how to ask"`
}

// OpenOutput says what was opened.
type OpenOutput struct {
	Path   string `json:"path"`
	Action string `json:"action"` // opened or revealed
}

func (t tools) open(ctx context.Context, in OpenInput) (answer, error) {
	id, err := t.fileID(ctx, in.ID, in.Path)
	if err != nil {
		return answer{}, err
	}
	var path string
	switch {
	case in.Page < 0 || in.Page > views.MaxPage:
		return answer{}, core.FailField(core.BadParameter, "page", "must be a page number from 1 to %d, got %d", views.MaxPage, in.Page)
	case in.Page > 0 && !in.Reveal:
		path, err = t.svc.OpenFileAt(ctx, id, in.Page)
	default:
		path, err = t.svc.OpenFile(ctx, id, in.Reveal)
	}
	if err != nil {
		return answer{}, err
	}
	action := "opened"
	if in.Reveal {
		action = "revealed"
	}
	return answer{out: OpenOutput{Path: path, Action: action}, files: []string{path}}, nil
}

var watchTool = &sdk.Tool{
	Name:        "watch",
	Title:       "Index a folder",
	Description: "Add a folder to what Trove indexes (with its subfolders); its files become searchable as they are read. Trove's own and system folders are refused.",
	Annotations: &sdk.ToolAnnotations{DestructiveHint: new(bool), IdempotentHint: true, OpenWorldHint: new(bool)},
}

// WatchInput names the folder.
type WatchInput struct {
	Path string `json:"path" jsonschema:"the folder's absolute path"`
}

func (t tools) watch(ctx context.Context, in WatchInput) (answer, error) {
	body, err := json.Marshal(map[string]string{"path": in.Path})
	if err != nil {
		return answer{}, err
	}
	// POST /api/watch/directory's own reading of the request.
	path, opts, err := views.DecodeWatch(body, "path")
	if err != nil {
		return answer{}, err
	}
	res, err := t.svc.Watch(ctx, path, opts)
	if err != nil {
		return answer{}, err
	}
	return answer{out: views.WatchedOf(res)}, nil
}

// fileID is the file an agent named by id or by path.
func (t tools) fileID(ctx context.Context, id int64, path string) (int64, error) {
	switch {
	case id > 0 && path == "":
		return id, nil
	case id == 0 && path != "":
		f, err := t.svc.FileByPath(ctx, path)
		return f.ID, err
	}
	return 0, core.FailField(core.BadParameter, "id", "give the file's id (from search) or its path, one of the two")
}
