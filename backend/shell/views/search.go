package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/service"
)

// Search limits.
const (
	DefaultLimit       = 50
	DefaultStreamLimit = 20
	MaxLimit           = 500
	// MaxQueryLength is the longest query, in characters (not bytes).
	MaxQueryLength = service.MaxQueryLength
	MinStreamQuery = 2
)

// SearchRequest is the body of POST /api/search/ (and of the desktop
// window's search).
type SearchRequest struct {
	Query     *string         `json:"query"`
	Directory *string         `json:"directory"`
	Filters   json.RawMessage `json:"filters"`
	Limit     *int            `json:"limit"`
	Offset    *int            `json:"offset"`
	Sort      string          `json:"sort"`
	Order     string          `json:"order"`
	MinScore  *float64        `json:"min_score"`
	Mode      string          `json:"mode"`
	Explain   bool            `json:"explain"`
}

// Build checks the request and turns it into the engine's.
func (r SearchRequest) Build() (service.SearchRequest, error) {
	if r.Query == nil {
		return service.SearchRequest{}, core.FailField(core.BadQuery, "query", "required")
	}
	limit := DefaultLimit
	if r.Limit != nil {
		limit = *r.Limit
	}
	sr, err := BuildQuery(*r.Query, limit, 0, r.Mode, 1)
	if err != nil {
		return sr, err
	}
	if r.MinScore != nil {
		sr.MinScore = *r.MinScore
	}
	sr.Explain = r.Explain
	if r.Directory != nil {
		dir := *r.Directory
		switch {
		case blank(dir):
			return sr, core.FailField(core.BadDirectory, "directory", "is empty: give the absolute path of a folder, or leave directory out to search every folder")
		case !strings.HasPrefix(dir, "/"):
			return sr, core.FailField(core.BadDirectory, "directory", "must be an absolute path, got %q", dir)
		}
		sr.Directory = strings.TrimSuffix(dir, "/")
	}
	sr.Filters, err = parseFilters(r.Filters)
	return sr, err
}

// BuildQuery checks what both search endpoints share.
func BuildQuery(query string, limit int, minScore float64, mode string, minLen int) (service.SearchRequest, error) {
	query = strings.TrimSpace(query)
	switch {
	case utf8.RuneCountInString(query) < minLen && minLen > 1:
		return service.SearchRequest{}, core.FailField(core.BadQuery, "query", "must be at least %d characters", minLen)
	case query == "":
		return service.SearchRequest{}, core.FailField(core.BadQuery, "query", "must not be empty")
	case utf8.RuneCountInString(query) > MaxQueryLength:
		return service.SearchRequest{}, core.FailField(core.BadQuery, "query", "longer than %d characters", MaxQueryLength)
	case limit < 1:
		return service.SearchRequest{}, core.FailField(core.BadLimit, "limit", "must be at least 1, got %d", limit)
	case math.IsNaN(minScore) || math.IsInf(minScore, 0):
		return service.SearchRequest{}, core.FailField(core.BadParameter, "min_score", "must be a finite number")
	}
	m := service.ModeHybrid
	switch mode {
	case "", "hybrid":
	case "keyword":
		m = service.ModeKeyword
	case "semantic":
		m = service.ModeSemantic
	case "names":
		m = service.ModeNames
	default:
		return service.SearchRequest{}, core.FailField(core.BadParameter, "mode", "%q is not a mode (use hybrid, keyword, semantic or names)", mode)
	}
	return service.SearchRequest{Query: query, Limit: min(limit, MaxLimit), MinScore: minScore, Mode: m, Snippets: true}, nil
}

// SearchFilters are the accepted keys of a search's filters. The request
// keeps them raw (SearchRequest.Filters) so that each mistake is named by
// its key; the API document describes them with this type.
type SearchFilters struct {
	Extensions     StringList `json:"extensions"`
	ModifiedAfter  string     `json:"modified_after"`
	ModifiedBefore string     `json:"modified_before"`
	CreatedAfter   string     `json:"created_after"`
	CreatedBefore  string     `json:"created_before"`
	MinSize        *int64     `json:"min_size"`
	MaxSize        *int64     `json:"max_size"`
	Path           *string    `json:"path"`
	Kinds          StringList `json:"kinds"` // read by parseKinds
	Language       StringList `json:"language"`
}

// StringList accepts a string or a list of strings.
type StringList []string

func (l *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*l = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("must be a string or a list of strings")
	}
	*l = many
	return nil
}

func parseFilters(raw json.RawMessage) (service.SearchFilters, error) {
	var out service.SearchFilters
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return out, nil
	}
	var f SearchFilters
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		if field, problem, ok := numberProblem(err); ok {
			return out, core.FailField(core.BadFilter, "filters."+field, "%s", problem)
		}
		return out, core.FailField(core.BadFilter, "filters", "%s (accepted keys: extensions, kinds, language, modified_after, modified_before, created_after, created_before, min_size, max_size, path)",
			strings.TrimPrefix(err.Error(), "json: "))
	}
	out.Extensions = f.Extensions
	for _, l := range f.Language {
		if !core.IsLanguageCode(l) {
			return out, core.FailField(core.BadFilter, "filters.language", "%q is not a language code: give two letters, as de or ja", l)
		}
		out.Languages = append(out.Languages, strings.ToLower(l))
	}
	if f.Path != nil {
		if blank(*f.Path) {
			return out, core.FailField(core.BadFilter, "filters.path", "is empty: give a glob such as */notes/*, or leave path out")
		}
		out.PathGlob = *f.Path
	}
	var err error
	for _, d := range []struct {
		key string
		raw string
		dst *time.Time
		end bool
	}{
		{"modified_after", f.ModifiedAfter, &out.ModifiedAfter, false}, {"modified_before", f.ModifiedBefore, &out.ModifiedBefore, true},
		{"created_after", f.CreatedAfter, &out.CreatedAfter, false}, {"created_before", f.CreatedBefore, &out.CreatedBefore, true},
	} {
		if *d.dst, err = parseTime(d.key, d.raw, d.end); err != nil {
			return out, err
		}
	}
	if f.MinSize != nil {
		if *f.MinSize < 0 {
			return out, core.FailField(core.BadFilter, "filters.min_size", "must not be negative")
		}
		out.MinSize = *f.MinSize
	}
	if f.MaxSize != nil {
		if *f.MaxSize < 0 || f.MinSize != nil && *f.MaxSize < *f.MinSize {
			return out, core.FailField(core.BadFilter, "filters.max_size", "must be at least min_size and not negative")
		}
		out.MaxSize = max(*f.MaxSize, 1) // 0 would mean "no maximum"
	}
	return out, nil
}

// parseTime reads a date (YYYY-MM-DD, local; for a "before" bound, the end
// of that day) or a full timestamp (RFC 3339, or without zone: local).
func parseTime(key, raw string, endOfDay bool) (time.Time, error) {
	if raw == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", raw, time.Local); err == nil {
		if endOfDay {
			t = t.AddDate(0, 0, 1)
		}
		return t, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, raw, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, core.FailField(core.BadFilter, "filters."+key, "%q is not a date or timestamp (use 2024-01-31 or 2024-01-31T09:00:00)", raw)
}

// SearchFile is the spec's file object of a search result, with the id,
// size and MIME type added.
type SearchFile struct {
	FilePath       string   `json:"file_path"`
	Filename       string   `json:"filename"`
	Extension      string   `json:"extension"`
	Created        string   `json:"created" jsonschema:"description=the creation (birth) time where the file system records one (statx), else the modification time"`
	Modified       string   `json:"modified"`
	Accessed       string   `json:"accessed"`
	Title          string   `json:"title"`
	Summary        string   `json:"summary"`
	Keywords       []string `json:"keywords"`
	ID             int64    `json:"id"`
	Size           int64    `json:"size"`
	Mime           string   `json:"mime"`
	ContentIndexed bool     `json:"content_indexed" jsonschema:"description=false: found by name, path and metadata alone; its content is not read yet (the content pass comes after the names pass) or never will be (a names-only folder)"`
	Offline        bool     `json:"offline" jsonschema:"description=the file's folder is on a drive or share that is not there now: opening it is refused (FOLDER_OFFLINE) until it returns"`
}

// SearchHit is one result of POST /api/search/.
type SearchHit struct {
	File           SearchFile `json:"file"`
	RelevanceScore float64    `json:"relevance_score"`
	SemanticScore  float64    `json:"semantic_score"`
	KeywordScore   float64    `json:"keyword_score"`
	Snippet        string     `json:"snippet"`
	Page           int        `json:"page,omitempty" jsonschema:"description=the page of the file the snippet stands on (from 1); left out when the file has no pages (not a PDF; or a PDF indexed before pages were kept)"`
	Explain        *Explain   `json:"explain,omitempty"`
	KeywordMatch   *bool      `json:"keyword_match" jsonschema:"description=true when the file holds a word of the query (as typed or corrected) or matches it by name; false for a file found by meaning alone; true for every file a query of filters only finds; null in mode semantic (which looks no word up)"`
}

func searchHitOf(r service.SearchResult, mode service.SearchMode) SearchHit {
	return SearchHit{File: searchFileOf(r.File),
		RelevanceScore: round(r.Score), SemanticScore: round(r.Semantic), KeywordScore: round(r.Keyword),
		Snippet: r.Snippet, Page: r.Page, Explain: explainOf(r.Explain), KeywordMatch: wordsKnown(mode, r.Matched)}
}

// wordsKnown is v where the search looked the query's words up, and nil
// (null) in mode semantic, where it did not: whether a file holds a word
// is then not known, and meaning is what was asked for.
func wordsKnown[T any](mode service.SearchMode, v T) *T {
	if mode == service.ModeSemantic {
		return nil
	}
	return &v
}

func searchFileOf(f core.File) SearchFile {
	return SearchFile{FilePath: f.Path, Filename: f.Filename, Extension: f.Extension,
		Created: CreatedTime(f.Created, f.Modified), Modified: LocalTime(f.Modified), Accessed: LocalTime(f.Accessed),
		Title: titleOf(f), Summary: f.Summary, Keywords: keywordsOf(f), ID: f.ID, Size: f.Size, Mime: f.Mime,
		ContentIndexed: contentIndexed(f), Offline: f.Offline}
}

// contentIndexed tells whether a file was found with its content read,
// not by its name and metadata alone.
func contentIndexed(f core.File) bool { return f.State == core.StateIndexed }

// StreamHit is one result of GET /api/search/stream.
type StreamHit struct {
	Path           string   `json:"path"`
	Title          string   `json:"title"`
	Summary        string   `json:"summary"`
	Keywords       []string `json:"keywords"`
	Score          float64  `json:"score"`
	SemanticScore  float64  `json:"semantic_score"`
	KeywordScore   float64  `json:"keyword_score"`
	Snippet        string   `json:"snippet"`
	Page           int      `json:"page,omitempty" jsonschema:"description=as page of POST /api/search/: the page the snippet stands on; left out when the file has none"`
	ID             int64    `json:"id"`
	KeywordMatch   *bool    `json:"keyword_match" jsonschema:"description=as keyword_match of POST /api/search/: false for a file found by meaning alone; null in mode semantic"`
	ContentIndexed bool     `json:"content_indexed" jsonschema:"description=as file.content_indexed of POST /api/search/"`
	Offline        bool     `json:"offline" jsonschema:"description=as file.offline of POST /api/search/"`
}

// StreamData is the data of GET /api/search/stream.
type StreamData struct {
	Query        string      `json:"query"`
	TotalResults int         `json:"total_results"`
	Results      []StreamHit `json:"results"`
	Notice       string      `json:"notice,omitempty"`
	// KeywordMatches counts the results that match a word of the query: 0
	// with results means they were found by meaning alone.
	KeywordMatches *int `json:"keyword_matches" jsonschema:"description=how many of the results match a word of the query (keyword_match); 0 with results: no file matches and those results were found by meaning alone; null in mode semantic"`
}

// StreamDataOf shows the results of search sr in the stream shape.
func StreamDataOf(query string, sr service.SearchRequest, ans service.SearchAnswer) StreamData {
	results := ans.Results
	out := StreamData{Query: query, TotalResults: len(results), Results: make([]StreamHit, len(results)), Notice: ans.Notice}
	matches := 0
	for i, r := range results {
		out.Results[i] = StreamHit{Path: r.File.Path, Title: titleOf(r.File), Summary: r.File.Summary,
			Keywords: keywordsOf(r.File), Score: round(r.Score), SemanticScore: round(r.Semantic),
			KeywordScore: round(r.Keyword), Snippet: r.Snippet, Page: r.Page, ID: r.File.ID, KeywordMatch: wordsKnown(sr.Mode, r.Matched),
			ContentIndexed: contentIndexed(r.File), Offline: r.File.Offline}
		if r.Matched {
			matches++
		}
	}
	out.KeywordMatches = wordsKnown(sr.Mode, matches)
	return out
}
