package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"trove/backend/core"
	"trove/backend/service"
)

// Search limits.
const (
	defaultLimit       = 50
	defaultStreamLimit = 20
	maxLimit           = 500
	maxQueryLength     = 1000
	minStreamQuery     = 2
)

type searchRequest struct {
	Query     *string         `json:"query"`
	Directory string          `json:"directory"`
	Filters   json.RawMessage `json:"filters"`
	Limit     *int            `json:"limit"`
	MinScore  *float64        `json:"min_score"`
	Mode      string          `json:"mode"`
}

// searchFilters are the accepted keys of POST /api/search/'s filters.
type searchFilters struct {
	Extensions     stringList `json:"extensions"`
	ModifiedAfter  string     `json:"modified_after"`
	ModifiedBefore string     `json:"modified_before"`
	CreatedAfter   string     `json:"created_after"`
	CreatedBefore  string     `json:"created_before"`
	MinSize        *int64     `json:"min_size"`
	MaxSize        *int64     `json:"max_size"`
	Path           string     `json:"path"`
}

// stringList accepts a string or a list of strings.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
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

// POST /api/search/
func (s *Server) search(c *fiber.Ctx) error {
	var req searchRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Query == nil {
		return core.InvalidField("INVALID_QUERY", "query", "required")
	}
	limit := defaultLimit
	if req.Limit != nil {
		limit = *req.Limit
	}
	sr, err := buildRequest(*req.Query, limit, 0, req.Mode, 1)
	if err != nil {
		return err
	}
	if req.MinScore != nil {
		sr.MinScore = *req.MinScore
	}
	if req.Directory != "" {
		if !strings.HasPrefix(req.Directory, "/") {
			return core.InvalidField("INVALID_DIRECTORY", "directory", "must be an absolute path, got %q", req.Directory)
		}
		sr.Directory = strings.TrimSuffix(req.Directory, "/")
	}
	if sr.Filters, err = parseFilters(req.Filters); err != nil {
		return err
	}
	results, err := s.svc.Search(c.UserContext(), sr)
	if err != nil {
		return err
	}
	out := make([]fiber.Map, len(results))
	for i, r := range results {
		out[i] = fiber.Map{
			"file":            postFile(r.File),
			"relevance_score": round(r.Score),
			"semantic_score":  round(r.Semantic),
			"keyword_score":   round(r.Keyword),
			"snippet":         r.Snippet,
		}
	}
	return c.JSON(fiber.Map{"results": out, "total": len(out), "query": *req.Query})
}

// GET /api/search/stream?query=&limit=&min_score=&mode=
func (s *Server) searchStream(c *fiber.Ctx) error {
	q := c.Query("query")
	if utf8.RuneCountInString(strings.TrimSpace(q)) < minStreamQuery {
		return core.InvalidField("INVALID_QUERY", "query", "must be at least %d characters", minStreamQuery)
	}
	limit, err := intQuery(c, "limit", defaultStreamLimit, 1, 1<<20)
	if err != nil {
		return err
	}
	minScore := 0.0
	if raw := c.Query("min_score"); raw != "" {
		if minScore, err = strconv.ParseFloat(raw, 64); err != nil || minScore != minScore {
			return core.InvalidField("INVALID_PARAMETER", "min_score", "must be a number, got %q", raw)
		}
	}
	sr, err := buildRequest(q, limit, minScore, c.Query("mode"), 1)
	if err != nil {
		return err
	}
	results, err := s.svc.Search(c.UserContext(), sr)
	if err != nil {
		return err
	}
	out := make([]fiber.Map, len(results))
	for i, r := range results {
		kw := r.File.Keywords
		if kw == nil {
			kw = []string{}
		}
		out[i] = fiber.Map{
			"path": r.File.Path, "title": titleOf(r.File), "summary": r.File.Summary, "keywords": kw,
			"score": round(r.Score), "semantic_score": round(r.Semantic), "keyword_score": round(r.Keyword),
			"snippet": r.Snippet, "id": r.File.ID,
		}
	}
	return c.JSON(fiber.Map{"status": "success", "data": fiber.Map{"query": q, "total_results": len(out), "results": out}})
}

// buildRequest checks what both search endpoints share.
func buildRequest(query string, limit int, minScore float64, mode string, minLen int) (service.SearchRequest, error) {
	query = strings.TrimSpace(query)
	switch {
	case utf8.RuneCountInString(query) < minLen:
		return service.SearchRequest{}, core.InvalidField("INVALID_QUERY", "query", "must not be empty")
	case len(query) > maxQueryLength:
		return service.SearchRequest{}, core.InvalidField("INVALID_QUERY", "query", "longer than %d characters", maxQueryLength)
	case limit < 1:
		return service.SearchRequest{}, core.InvalidField("INVALID_LIMIT", "limit", "must be at least 1, got %d", limit)
	}
	m := service.ModeHybrid
	switch mode {
	case "", "hybrid":
	case "keyword":
		m = service.ModeKeyword
	case "semantic":
		m = service.ModeSemantic
	default:
		return service.SearchRequest{}, core.InvalidField("INVALID_PARAMETER", "mode", "%q is not a mode (use hybrid, keyword or semantic)", mode)
	}
	return service.SearchRequest{Query: query, Limit: min(limit, maxLimit), MinScore: minScore, Mode: m, Snippets: true}, nil
}

func parseFilters(raw json.RawMessage) (service.SearchFilters, error) {
	var out service.SearchFilters
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return out, nil
	}
	var f searchFilters
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return out, core.InvalidField("INVALID_FILTER", "filters", "%s (accepted keys: extensions, modified_after, modified_before, created_after, created_before, min_size, max_size, path)",
			strings.TrimPrefix(err.Error(), "json: "))
	}
	out.Extensions, out.PathGlob = f.Extensions, f.Path
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
			return out, core.InvalidField("INVALID_FILTER", "filters.min_size", "must not be negative")
		}
		out.MinSize = *f.MinSize
	}
	if f.MaxSize != nil {
		if *f.MaxSize < 0 || f.MinSize != nil && *f.MaxSize < *f.MinSize {
			return out, core.InvalidField("INVALID_FILTER", "filters.max_size", "must be at least min_size and not negative")
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
	return time.Time{}, core.InvalidField("INVALID_FILTER", "filters."+key, "%q is not a date or timestamp (use 2024-01-31 or 2024-01-31T09:00:00)", raw)
}

// postFile is the spec's file object of a POST search result, with the id,
// size and MIME type added.
func postFile(f core.File) fiber.Map {
	kw := f.Keywords
	if kw == nil {
		kw = []string{}
	}
	return fiber.Map{
		"file_path": f.Path, "filename": f.Filename, "extension": f.Extension,
		"created": localTime(f.Created), "modified": localTime(f.Modified), "accessed": localTime(f.Accessed),
		"title": titleOf(f), "summary": f.Summary, "keywords": kw,
		"id": f.ID, "size": f.Size, "mime": f.Mime,
	}
}

// titleOf is never empty: a file without a title shows its name.
func titleOf(f core.File) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Filename
}

func round(x float64) float64 { return float64(int64(x*1e6+0.5)) / 1e6 }
