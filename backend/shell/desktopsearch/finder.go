package desktopsearch

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/service"
)

// Searcher is what the providers need of the service.
type Searcher interface {
	Search(ctx context.Context, req service.SearchRequest) (service.SearchAnswer, error)
	File(ctx context.Context, id int64) (core.File, error)
	OpenFile(ctx context.Context, id int64, reveal bool) (string, error)
	OpenFileAt(ctx context.Context, id int64, page int) (string, error)
	Window() service.Window
}

var _ Searcher = (*service.Service)(nil)

// A launcher asks on every keystroke and waits for the answer, so the
// search it runs is the cheapest that finds what people type there, which
// is mostly a file's name: words only (no query vector to compute), a few
// results, no snippets. Names rank first in that search (see the search
// engine's name match). MinChars keeps one typed letter from asking.
const (
	Limit    = 8
	MinChars = 2
	// budget bounds one launcher search; the service's own limit is for
	// searches people wait on with a spinner.
	budget = 2 * time.Second
)

// Hit is one file found for a launcher: what both the GNOME provider and
// the KRunner runner show.
type Hit struct {
	ID     string // the file's id, decimal: what the launcher hands back
	Name   string // the file name
	Folder string // its folder, with the home folder written ~
	Path   string
	Icons  []string // freedesktop icon names, the most specific first
	// Exact says the query is the file's name (with or without its
	// extension), so KRunner may put it first.
	Exact bool
	// Relevance is 1 for the first hit, falling by rank: KRunner sorts
	// by it across runners, and Trove's scores are not on its scale.
	Relevance float64
}

// Finder turns what a person typed into a launcher into files: the one
// home of "match -> results" for GNOME Shell and KRunner alike.
type Finder struct {
	svc  Searcher
	home string
}

// NewFinder makes a finder over the service.
func NewFinder(svc Searcher) *Finder {
	home, _ := os.UserHomeDir()
	return &Finder{svc: svc, home: home}
}

// Query joins a launcher's terms (GNOME splits the text at spaces) into
// Trove's query.
func Query(terms []string) string { return strings.TrimSpace(strings.Join(terms, " ")) }

// Find returns the files that match text, best first; nothing for text
// shorter than MinChars.
func (f *Finder) Find(ctx context.Context, text string) ([]Hit, error) {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) < MinChars || utf8.RuneCountInString(text) > service.MaxQueryLength {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// Snippets, for the page of a PDF's match: the hit opens there.
	ans, err := f.svc.Search(ctx, service.SearchRequest{Query: text, Limit: Limit, Mode: service.ModeKeyword, Snippets: true})
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(ans.Results))
	for i, r := range ans.Results {
		hits = append(hits, f.hit(r.File, r.Page, text, i))
	}
	return hits, nil
}

func (f *Finder) hit(file core.File, page int, text string, rank int) Hit {
	return Hit{
		ID: FormatID(file.ID, page), Name: file.Filename, Folder: f.tilde(filepath.Dir(file.Path)), Path: file.Path,
		Icons: IconNames(file.Mime), Exact: sameName(text, file.Filename), Relevance: 1 / (1 + 0.1*float64(rank)),
	}
}

// Lookup is the hit of one id a launcher handed back (GNOME asks for
// the names and icons of ids it got from a search).
func (f *Finder) Lookup(ctx context.Context, id string) (Hit, error) {
	n, page, err := ParseID(id)
	if err != nil {
		return Hit{}, err
	}
	file, err := f.svc.File(ctx, n)
	if err != nil {
		return Hit{}, err
	}
	return f.hit(file, page, "", 0), nil
}

// FormatID writes a hit's id: the file's id, and after "@" the page of
// its match when that is past the first (launchers hand the id back
// whole, so activating the hit opens the file there).
func FormatID(id int64, page int) string {
	s := strconv.FormatInt(id, 10)
	if page > 1 {
		s += "@" + strconv.Itoa(page)
	}
	return s
}

// ParseID reads a hit's id: the file's id and its page (0: none).
func ParseID(id string) (int64, int, error) {
	file, at, paged := strings.Cut(id, "@")
	n, err := strconv.ParseInt(file, 10, 64)
	page := 0
	if err == nil && paged {
		page, err = strconv.Atoi(at)
	}
	if err != nil || n <= 0 || paged && page < 1 {
		return 0, 0, core.Fail(core.BadID, "%q is not a Trove file id", id)
	}
	return n, page, nil
}

// tilde writes a folder below the home folder as ~/..., as file managers
// and launchers do.
func (f *Finder) tilde(dir string) string {
	if f.home == "" || f.home == "/" {
		return dir
	}
	if dir == f.home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(dir, f.home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return dir
}

// sameName reports whether text is name, or name without its extension,
// letter case aside.
func sameName(text, name string) bool {
	if text == "" {
		return false
	}
	base := strings.TrimSuffix(name, filepath.Ext(name))
	return strings.EqualFold(text, name) || strings.EqualFold(text, base)
}
