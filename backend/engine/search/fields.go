package search

import (
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"trove/backend/core"
	"trove/backend/engine/text/query"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// pathTest is what a file's path must pass beyond the SQL filter: the
// request's path glob, the query's name globs (any of them) and path globs
// (any of them), and, where types are not left to the page, the types.
type pathTest struct {
	glob   string
	names  []string
	paths  []string
	typeOK func(name string) bool // nil: any type
}

func (t pathTest) empty() bool {
	return t.glob == "" && len(t.names) == 0 && len(t.paths) == 0 && t.typeOK == nil
}

func (t pathTest) ok(p string) bool {
	lower := ""
	anyGlob := func(globs []string) bool {
		return len(globs) == 0 || slices.ContainsFunc(globs, func(g string) bool {
			if !smartCase(g) {
				return globMatch(g, p)
			}
			if lower == "" {
				lower = strings.ToLower(p)
			}
			return globMatch(g, lower)
		})
	}
	return globMatch(t.glob, p) && anyGlob(t.names) && anyGlob(t.paths) && (t.typeOK == nil || t.typeOK(path.Base(p)))
}

// smartCase reports whether a glob typed in the query ignores case: one
// without a capital letter does (`*.jpg` finds IMG_0001.JPG), one with a
// capital matches as written (`README*`), as fd and ripgrep's smart case.
// The request's filters.path glob stays case-sensitive, as the filters'.
func smartCase(glob string) bool { return strings.ToLower(glob) == glob }

// checkFields refuses a field that does not exist.
func checkFields(q query.Query) error {
	if len(q.Unknown) > 0 {
		return core.FailField(core.UnknownField, "query", "%s is not a field (the fields: %s)",
			strings.Join(q.Unknown, ", "), strings.Join(query.FieldNames, ", "))
	}
	for _, l := range q.Langs {
		if !core.IsLanguageCode(l) {
			return core.FailField(core.BadQuery, "query", "lang: %q is not a language code (two letters, as lang:de)", l)
		}
	}
	return nil
}

// kindsOf resolves the query's kinds ("image" is images).
func kindsOf(typed []string) ([]string, error) {
	var out []string
	for _, k := range typed {
		switch {
		case ValidKind(k):
			out = append(out, k)
		case ValidKind(k + "s"):
			out = append(out, k+"s")
		default:
			ids := make([]string, len(Kinds))
			for i, k := range Kinds {
				ids[i] = k.ID
			}
			return nil, core.FailField(core.BadQuery, "query", "kind: %q is not a kind (use %s)", k, strings.Join(ids, ", "))
		}
	}
	return out, nil
}

// applyFields narrows a filter by the query's size, creation time and
// metadata fields.
func applyFields(out *store.FileFilter, q query.Query) {
	out.MinSize = max(out.MinSize, q.Size.Min)
	if q.Size.Max != math.MaxInt64 && (out.MaxSize == 0 || q.Size.Max < out.MaxSize) {
		out.MaxSize = q.Size.Max
		if out.MaxSize == 0 {
			out.MaxSize = -1 // size:<1: the store reads 0 as no maximum (a known gap: empty files do not match)
		}
	}
	if !q.Created.From.IsZero() {
		out.CreatedAfter = max(out.CreatedAfter, ns(q.Created.From))
	}
	if to := ns(q.Created.To); to != 0 && (out.CreatedBefore == 0 || to < out.CreatedBefore) {
		out.CreatedBefore = to
	}
	for _, m := range q.Meta {
		if m.Key == "title" {
			out.Titled = append(out.Titled, m.Value)
			continue
		}
		// The metadata lines of a file's text ("author: Jane Doe") hold
		// the value a few words after its label: a list of authors, a
		// camera's make and model.
		// A number ("pages: 12") is the label's next word.
		reach := metaReach
		if _, err := strconv.Atoi(m.Value); err == nil {
			reach = 0
		}
		if words := tokens.Words(m.Value); len(words) > 0 { // the parser let no value without a word through
			out.Holds = append(out.Holds, store.Near{Label: m.Key, Value: words, Within: reach})
		}
	}
}

// metaReach is how many words may stand between a metadata label and the
// value asked: "author: Ann Lee, Jane Doe" holds author:doe.
const metaReach = 8
