package views

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"trove/backend/core"
	"trove/backend/service"
)

// Sort orders of POST /api/search/ and their default directions.
var sortOrders = map[string]string{"relevance": "desc", "modified": "desc", "size": "desc", "name": "asc", "folder": "asc", "kind": "asc"}

// MaxOffset bounds offset: pages end where the counted matches end.
const MaxOffset = service.MaxCounted

// DecodeSearchPage reads POST /api/search/ (and the desktop window's
// search): a search with offset, sort, order and kinds.
func DecodeSearchPage(body []byte) (service.PageRequest, error) {
	var req SearchRequest
	if err := Decode(body, &req); err != nil {
		return service.PageRequest{}, err
	}
	return req.BuildPage()
}

// BuildPage checks the request, paging and order included.
func (r SearchRequest) BuildPage() (service.PageRequest, error) {
	sr, err := r.Build()
	if err != nil {
		return service.PageRequest{}, err
	}
	pr := service.PageRequest{Request: sr}
	if r.Offset != nil {
		if *r.Offset < 0 || *r.Offset > MaxOffset {
			return pr, core.FailField(core.BadParameter, "offset", "must be from 0 to %d, got %d", MaxOffset, *r.Offset)
		}
		pr.Offset = *r.Offset
	}
	sort := r.Sort
	if sort == "" {
		sort = "relevance"
	}
	def, ok := sortOrders[sort]
	if !ok {
		return pr, core.FailField(core.BadParameter, "sort", "%q is not an order (use relevance, modified, name, size, folder or kind)", r.Sort)
	}
	order := r.Order
	if order == "" {
		order = def
	}
	if order != "asc" && order != "desc" {
		return pr, core.FailField(core.BadParameter, "order", "%q is not a direction (use asc or desc)", r.Order)
	}
	pr.Sort, pr.Asc = service.SortKey(sort), order == "asc"
	pr.Kinds, err = parseKinds(r.Filters)
	return pr, err
}

func parseKinds(raw json.RawMessage) ([]string, error) {
	var f struct {
		Kinds StringList `json:"kinds"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return nil, nil // parseFilters has said what is wrong
	}
	for _, k := range f.Kinds {
		if !service.ValidKind(k) {
			ids := make([]string, len(service.Kinds))
			for i, k := range service.Kinds {
				ids[i] = k.ID
			}
			return nil, core.FailField(core.BadFilter, "filters.kinds", "%q is not a kind (use %s)", k, strings.Join(ids, ", "))
		}
	}
	return f.Kinds, nil
}

// PageResponse is the answer of POST /api/search/.
type PageResponse struct {
	Results        []PageHit `json:"results"`
	Total          int       `json:"total"`
	TotalEstimated bool      `json:"total_estimated"`
	TotalGroups    int       `json:"total_groups"`
	Offset         int       `json:"offset"`
	Limit          int       `json:"limit"`
	Sort           string    `json:"sort"`
	Order          string    `json:"order"`
	Query          string    `json:"query"`
	// Fields are the query's fields as the search read them, in the
	// order typed, for a client to show as chips.
	Fields     []QueryField `json:"fields" jsonschema:"description=the fields of the query language the query holds (ext:pdf, size:>10mb, *.go ...) as the search read them, in the order typed; empty when none"`
	DidYouMean *DidYouMean  `json:"did_you_mean"`
	Facets     Facets       `json:"facets"`
	// Notice says what the results lack; absent when nothing is missing.
	Notice string `json:"notice,omitempty"`
	// KeywordMatches is how many of the total files match a word of the
	// query: 0 with results means no file matches, and those shown were
	// found by meaning alone (every client then says "No files match").
	KeywordMatches *int `json:"keyword_matches" jsonschema:"description=how many of the total files match a word of the query or by name (keyword_match) over the whole search (not the page); 0 with results: no file matches and the results were found by meaning alone; null in mode semantic (which looks no word up)"`
}

// QueryField is one field of the query: name:value as typed, its name
// with aliases resolved (type: is ext); a bare glob is a name (or path)
// field.
type QueryField struct {
	Field string `json:"field" jsonschema:"description=the field: name, path, ext, kind, in, size, modified, created, after, before, lang, author, title, pages, artist, album, camera, width, height"`
	Value string `json:"value" jsonschema:"description=the value as typed (a quoted value without its quotes)"`
}

// PageHit is one result with its kind and the copies of its content.
type PageHit struct {
	SearchHit
	Kind   string       `json:"kind"`
	Copies []SearchFile `json:"copies"`
}

// DidYouMean is the query with the words the index lacks replaced by the
// closest words it holds (the search has already used them).
type DidYouMean struct {
	Query       string           `json:"query"`
	Corrections []CorrectionView `json:"corrections"`
}

// CorrectionView is one replaced word.
type CorrectionView struct {
	Typed     string `json:"typed"`
	Suggested string `json:"suggested"`
}

// Facets count the matching files by kind and extension, before the type
// filter (so every kind can be chosen), and by language, before the
// language filter.
type Facets struct {
	Kinds     []KindCount `json:"kinds"`
	Languages []LangCount `json:"languages"`
}

// LangCount is a language's matching files.
type LangCount struct {
	Language string `json:"language"` // ISO 639-1, as filters.language takes it
	Count    int    `json:"count"`
}

// KindCount is a kind's matching files and its extensions'.
type KindCount struct {
	Kind       string     `json:"kind"`
	Label      string     `json:"label"`
	Count      int        `json:"count"`
	Extensions []ExtCount `json:"extensions"`
}

// ExtCount is an extension's matching files ("" for none).
type ExtCount struct {
	Extension string `json:"extension"`
	Count     int    `json:"count"`
}

// PageResponseOf shows a page of results.
func PageResponseOf(query string, pr service.PageRequest, p service.PageAnswer) PageResponse {
	order := "desc"
	if pr.Asc {
		order = "asc"
	}
	out := PageResponse{Results: make([]PageHit, len(p.Results)), Total: p.Total, TotalEstimated: p.Estimated,
		TotalGroups: p.Groups, Offset: pr.Offset, Limit: pr.Limit, Sort: string(pr.Sort), Order: order, Query: query,
		Facets: facetsOf(p.Facets, p.Languages), Notice: p.Notice, KeywordMatches: wordsKnown(pr.Mode, p.Matches),
		Fields: make([]QueryField, len(p.Fields))}
	for i, f := range p.Fields {
		out.Fields[i] = QueryField{Field: f.Name, Value: f.Value}
	}
	if out.Sort == "" {
		out.Sort = "relevance"
	}
	for i, r := range p.Results {
		out.Results[i] = PageHit{SearchHit: searchHitOf(r.Result, pr.Mode), Kind: service.KindOfName(r.File.Filename), Copies: make([]SearchFile, len(r.Copies))}
		for j, c := range r.Copies {
			out.Results[i].Copies[j] = searchFileOf(c)
		}
	}
	if len(p.Corrections) > 0 {
		d := &DidYouMean{Query: query}
		for _, c := range p.Corrections {
			d.Query = replaceWord(d.Query, c.Typed, c.Suggested)
			d.Corrections = append(d.Corrections, CorrectionView{Typed: c.Typed, Suggested: c.Suggested})
		}
		out.DidYouMean = d
	}
	return out
}

// replaceWord replaces whole-word, case-insensitive occurrences of typed.
func replaceWord(text, typed, with string) string {
	re, err := regexp.Compile(`(?i)(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(typed) + `($|[^\p{L}\p{N}])`)
	if err != nil {
		return text
	}
	return re.ReplaceAllString(text, "${1}"+strings.ReplaceAll(with, "$", "$$")+"${2}")
}

func facetsOf(exts []service.ExtCount, langs []service.LangCount) Facets {
	byKind := map[string]*KindCount{}
	for _, e := range exts {
		k := e.Kind
		kc := byKind[k]
		if kc == nil {
			kc = &KindCount{Kind: k, Extensions: []ExtCount{}}
			byKind[k] = kc
		}
		kc.Count += e.Count
		kc.Extensions = append(kc.Extensions, ExtCount{Extension: e.Ext, Count: e.Count})
	}
	out := Facets{Kinds: []KindCount{}, Languages: make([]LangCount, len(langs))}
	for i, l := range langs {
		out.Languages[i] = LangCount{Language: l.Lang, Count: l.Count}
	}
	for _, k := range service.Kinds {
		if kc := byKind[k.ID]; kc != nil {
			kc.Label = k.Label
			out.Kinds = append(out.Kinds, *kc)
		}
	}
	slices.SortStableFunc(out.Kinds, func(a, b KindCount) int { return b.Count - a.Count })
	return out
}

// PreviewView is GET /api/files/{id}/preview: the file's text as indexed,
// in parts, the matching words marked.
type PreviewView struct {
	ID        int64      `json:"id"`
	Path      string     `json:"file_path"`
	Filename  string     `json:"filename"`
	Mime      string     `json:"mime"`
	Kind      string     `json:"kind"`
	Image     bool       `json:"image"`
	Parts     []PartView `json:"parts"`
	Matches   int        `json:"matches"`
	Truncated bool       `json:"truncated"`
}

// PartView is a stretch of text; mark is true for a match.
type PartView struct {
	Text string `json:"text"`
	Mark bool   `json:"mark,omitempty"`
	Page int    `json:"page,omitempty" jsonschema:"description=the page of the file the part stands on (from 1): a part lies on one page; left out when the file has no pages"`
}

// PreviewOf shows a preview.
func PreviewOf(p service.FilePreview) PreviewView {
	f := p.File
	out := PreviewView{ID: f.ID, Path: f.Path, Filename: f.Filename, Mime: f.Mime, Kind: service.KindOfName(f.Filename),
		Image: strings.HasPrefix(f.Mime, "image/") && f.Mime != "image/svg+xml" && f.Size <= service.MaxImage,
		Parts: make([]PartView, len(p.Parts)), Matches: p.Matches, Truncated: p.Truncated}
	for i, part := range p.Parts {
		out.Parts[i] = PartView{Text: part.Text, Mark: part.Mark, Page: part.Page}
	}
	return out
}

// AppView is an application that opens a file's type.
type AppView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// AppList is GET /api/files/{id}/apps.
type AppList struct {
	Apps []AppView `json:"apps"`
}

// AppsOf shows the applications for a file.
func AppsOf(apps []service.DesktopApp) AppList {
	out := AppList{Apps: make([]AppView, len(apps))}
	for i, a := range apps {
		out.Apps[i] = AppView{ID: a.ID, Name: a.Name}
	}
	return out
}

// OpenWithRequest is the body of POST /api/files/{id}/open-with.
type OpenWithRequest struct {
	App string `json:"app" jsonschema:"description=an application id from GET /api/files/{file_id}/apps"`
}

// MaxPage is the highest page a file can be opened at: no PDF Trove
// reads has more pages.
const MaxPage = 100000

// OpenRequest is the body of POST /api/files/{id}/open; it may be left
// out, as may page.
type OpenRequest struct {
	Page *int `json:"page" jsonschema:"description=the page to open the file at (from 1: the page of a search result or preview part); the default viewer is started at it where Trove knows its page argument (Evince; Okular; Zathura; Atril; Xreader; MuPDF; qpdfview); elsewhere the file opens as usual at its first page. Left out: the first page"`
}

// DecodeOpen reads the optional body of POST /api/files/{id}/open: the
// page to open at, 0 when none is asked for.
func DecodeOpen(body []byte) (int, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return 0, nil
	}
	var req OpenRequest
	if err := Decode(body, &req); err != nil {
		return 0, err
	}
	switch {
	case req.Page == nil:
		return 0, nil
	case *req.Page < 1 || *req.Page > MaxPage:
		return 0, core.FailField(core.BadParameter, "page", "must be a page number from 1 to %d, got %d", MaxPage, *req.Page)
	}
	return *req.Page, nil
}

// Opened is the answer of opening a file (open, reveal, open with): the
// file's path.
type Opened struct {
	Path string `json:"path" jsonschema:"description=the file opened or revealed"`
}

// DecodeOpenWith reads {"app": "<id>"}.
func DecodeOpenWith(body []byte) (string, error) {
	var req OpenWithRequest
	if err := Decode(body, &req); err != nil {
		return "", err
	}
	if req.App == "" {
		return "", core.FailField(core.MissingField, "app", "required: an id from GET /api/files/{id}/apps")
	}
	return req.App, nil
}
