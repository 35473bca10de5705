package query

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// The fields of the query language (key:value). Each restricts the files
// a search returns; the search engine applies them with the request's
// filters. FieldNames lists them for the error about a field that does
// not exist, and the API documents each.
//
//	name:GLOB      the file name (a word without glob characters: names containing it)
//	path:GLOB      the path (a glob without "/": a folder of that name anywhere)
//	ext:pdf        the extension (type: is the same)
//	kind:images    a kind of file (documents, pdf, code, ...)
//	in:notes       below a folder (folder: is the same)
//	size:>10mb     the size: >, >=, <, <=, a range 1mb..5mb; bare: at least
//	modified:2026-03, modified:>2026-01, modified:>-7d   the modification time
//	created:...    the creation time, as modified:
//	after:, before:  modified on or after a day, before the end of a day
//	lang:en        the language of the text
//	author:, title:, artist:, album:, camera:   what the file's metadata says
//	pages:, width:, height:   a number the file's metadata says
//	*.go           a bare glob: a name (or a path, with "/")

// Field is one field as typed, in order: what a client shows as a chip.
type Field struct {
	Name  string // the field's own name (aliases resolved: type is ext)
	Value string // as typed
}

// SizeRange bounds a file size in bytes, both ends inclusive.
type SizeRange struct {
	Min int64 // 0: no minimum
	Max int64 // math.MaxInt64: no maximum
}

// Any reports whether the range restricts nothing.
func (r SizeRange) Any() bool { return r.Min == 0 && r.Max == math.MaxInt64 }

// TimeRange bounds a time: From inclusive, To exclusive, zero for none.
type TimeRange struct {
	From, To time.Time
}

// Meta is a metadata field: the file's metadata under Key holds Value.
type Meta struct {
	Key   string // author, title, artist, album, camera, pages, width, height
	Value string
}

// FieldNames are the fields, as an error names them.
var FieldNames = []string{"name", "path", "ext", "kind", "in", "size", "modified", "created", "after", "before",
	"lang", "author", "title", "pages", "artist", "album", "camera", "width", "height"}

// aliases are other names of fields.
var aliases = map[string]string{"type": "ext", "folder": "in", "since": "after", "until": "before", "filename": "name",
	"language": "lang"}

// metaText and metaNumber are the metadata fields, matched as words and
// as exact numbers.
var (
	metaText   = []string{"author", "title", "artist", "album", "camera"}
	metaNumber = []string{"pages", "width", "height"}
)

// quotable are the fields whose values may be quoted phrases.
var quotable = append([]string{"name", "filename", "path", "in", "folder"}, metaText...)

// field applies key:val when key is a field and reports whether it was
// (or whether it is an unknown field, which is recorded for the error).
func (q *Query) field(typed, val string, now time.Time) bool {
	key := strings.ToLower(typed)
	if a, ok := aliases[key]; ok {
		key = a
	}
	start := len(q.Errors)
	switch {
	case key == "ext" || key == "in" || key == "after" || key == "before":
		if !q.operator(key, val) {
			return false
		}
	case key == "name" || key == "path":
		if !q.glob(key, val) {
			return false
		}
	case key == "kind":
		if val == "" {
			return false
		}
		for _, k := range strings.Split(strings.ToLower(val), ",") {
			if k = strings.TrimSpace(k); k != "" {
				q.Kinds = append(q.Kinds, k)
			}
		}
	case key == "size":
		r, err := parseSizeRange(val)
		if err != "" {
			q.Errors = append(q.Errors, "size: "+err)
		}
		q.Size.Min, q.Size.Max = max(q.Size.Min, r.Min), min(q.Size.Max, r.Max)
	case key == "modified" || key == "created":
		r, err := parseTimeRange(val, now)
		if err != "" {
			q.Errors = append(q.Errors, key+": "+err)
		}
		if key == "modified" {
			q.After, q.Before = later(q.After, r.From), earlier(q.Before, r.To)
		} else {
			q.Created = TimeRange{From: later(q.Created.From, r.From), To: earlier(q.Created.To, r.To)}
		}
	case key == "lang":
		if val == "" {
			return false
		}
		q.Langs = append(q.Langs, strings.ToLower(val))
	case slices.Contains(metaText, key):
		if !hasWord(val) {
			return false
		}
		q.Meta = append(q.Meta, Meta{Key: key, Value: val})
	case slices.Contains(metaNumber, key):
		if _, err := strconv.ParseUint(val, 10, 32); err != nil {
			q.Errors = append(q.Errors, key+": \""+val+"\" is not a number (give the exact number, as "+key+":12)")
		}
		q.Meta = append(q.Meta, Meta{Key: key, Value: val})
	default:
		if !looksLikeField(typed, val) {
			return false
		}
		q.Unknown = append(q.Unknown, key)
		return true
	}
	if len(q.Errors) == start {
		q.Fields = append(q.Fields, Field{Name: key, Value: val})
	}
	return true
}

// looksLikeField tells a mistyped field ("auther:smith", "sise:10mb") from
// text with a colon, which stays text: a URL ("http://x"), a drive
// ("C:"), a time or port ("10:30", "localhost:8080"), code ("a:b"), a
// heading ("Note: ...", typed with a space after the colon).
func looksLikeField(key, val string) bool {
	if len(key) < 2 || len(key) > 16 || val == "" || strings.HasPrefix(val, "/") || strings.HasPrefix(val, `\`) {
		return false
	}
	for _, r := range key {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	if strings.IndexFunc(val, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return false // a port, a time, a verse
	}
	return true
}

// glob adds a name: or path: glob.
func (q *Query) glob(key, val string) bool {
	if val == "" {
		return false
	}
	g := val
	switch {
	case key == "name" && !hasGlobSyntax(g):
		g = "*" + g + "*"
	case key == "path" && !strings.Contains(g, "/"):
		g = "**/" + g + "/**"
	case key == "name" && strings.Contains(g, "/"):
		q.Errors = append(q.Errors, "name: \""+val+"\" holds a \"/\" (a name has none; use path:)")
		return true
	}
	if !doublestar.ValidatePattern(g) {
		q.Errors = append(q.Errors, key+": \""+val+"\" is not a valid glob (check brackets [ ] and braces { })")
		return true
	}
	if key == "name" {
		q.Names = append(q.Names, g)
	} else {
		q.Paths = append(q.Paths, g)
	}
	return true
}

func hasGlobSyntax(s string) bool { return strings.ContainsAny(s, "*?[{") }

// bareGlob reports whether an unquoted word is a glob on names ("*.go",
// "report-2026-*.pdf", "src/**/*.go"): a star that is not a prefix's
// trailing one, or a question mark inside the word. Question marks around
// a word are punctuation: "what?" is a question, and "?slip?" quotes a
// word, as pasted text does (a one-character glob such as "?.txt" is
// written name:?.txt).
func bareGlob(s string) bool {
	trimmed := strings.TrimRight(s, "*")
	if strings.Contains(trimmed, "*") || strings.Contains(strings.Trim(s, "?"), "?") {
		return hasWord(s) && doublestar.ValidatePattern(s)
	}
	return false
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// comparison splits ">=10mb" into its operator and value.
func comparison(s string) (op, val string) {
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		if v, ok := strings.CutPrefix(s, op); ok {
			return op, v
		}
	}
	return "", s
}

// parseSizeRange reads a size field: 10mb (at least), >10mb, <=1k,
// 1mb..5mb, ..5mb, 1mb.. .
func parseSizeRange(s string) (SizeRange, string) {
	r := SizeRange{Max: math.MaxInt64}
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		if lo == "" && hi == "" {
			return r, "\"" + s + "\" is not a range (use 1mb..5mb)"
		}
		if lo != "" {
			n, err := parseSize(lo)
			if err != "" {
				return r, err
			}
			r.Min = n
		}
		if hi != "" {
			n, err := parseSize(hi)
			if err != "" {
				return r, err
			}
			r.Max = n
		}
		return r, ""
	}
	op, v := comparison(s)
	n, err := parseSize(v)
	if err != "" {
		return r, err
	}
	switch op {
	case ">":
		r.Min = n + 1
	case "<":
		r.Max = n - 1
	case "<=":
		r.Max = n
	case "=":
		r.Min, r.Max = n, n
	default: // "" and ">=": at least
		r.Min = n
	}
	return r, ""
}

// sizeUnits are the size suffixes, in bytes (powers of 1024, as file
// managers show sizes).
var sizeUnits = []struct {
	suffix string
	bytes  float64
}{
	{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"tb", 1 << 40},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1},
}

// parseSize reads 10, 10b, 1.5mb, 2g.
func parseSize(s string) (int64, string) {
	num, unit := strings.ToLower(s), 1.0
	for _, u := range sizeUnits {
		if v, ok := strings.CutSuffix(num, u.suffix); ok {
			num, unit = v, u.bytes
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f*unit > 1<<62 {
		return 0, "\"" + s + "\" is not a size (use a number with b, kb, mb, gb or tb: 10mb, 1.5gb)"
	}
	return int64(f * unit), ""
}

// parseTimeRange reads a time field: a period (2026, 2026-03,
// 2026-03-15, today, yesterday) or a time ago (-7d, 7d; h, d, w, m for
// months, y), bare or after >, >=, <, <=, or a range 2026-01..2026-03.
// A bare period is that period; a bare time ago is since then.
func parseTimeRange(s string, now time.Time) (TimeRange, string) {
	if lo, hi, ok := strings.Cut(s, ".."); ok && lo != "" && hi != "" {
		from, _, err := parsePeriod(lo, now)
		if err != "" {
			return TimeRange{}, err
		}
		_, to, err := parsePeriod(hi, now)
		return TimeRange{From: from, To: to}, err
	}
	op, v := comparison(s)
	start, next, err := parsePeriod(v, now)
	if err != "" {
		return TimeRange{}, err
	}
	switch op {
	case ">":
		return TimeRange{From: next}, ""
	case ">=":
		return TimeRange{From: start}, ""
	case "<":
		return TimeRange{To: start}, ""
	case "<=":
		return TimeRange{To: next}, ""
	}
	if start.Equal(next) { // a time ago: since then
		return TimeRange{From: start}, ""
	}
	return TimeRange{From: start, To: next}, ""
}

// parsePeriod reads a day, month or year (its start and the start of the
// next), today or yesterday, or a time ago (start and next both that
// instant).
func parsePeriod(s string, now time.Time) (start, next time.Time, problem string) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch strings.ToLower(s) {
	case "today":
		return day, day.AddDate(0, 0, 1), ""
	case "yesterday":
		return day.AddDate(0, 0, -1), day, ""
	}
	if t, ok := timeAgo(s, now); ok {
		return t, t, ""
	}
	start, next, problem = parseDay(s)
	if problem != "" {
		problem = "\"" + s + "\" is not a date (use YYYY-MM-DD, YYYY-MM, YYYY, today, yesterday, or a time ago: -7d, -2w, -3m, -1y)"
	}
	return start, next, problem
}

// timeAgo reads -7d, 7d, 12h, 2w, 3m (months), 1y.
func timeAgo(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimPrefix(s, "-")
	if len(s) < 2 {
		return time.Time{}, false
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 0 || n > 100000 {
		return time.Time{}, false
	}
	switch s[len(s)-1] {
	case 'h':
		return now.Add(-time.Duration(n) * time.Hour), true
	case 'd':
		return now.AddDate(0, 0, -n), true
	case 'w':
		return now.AddDate(0, 0, -7*n), true
	case 'm':
		return now.AddDate(0, -n, 0), true
	case 'y':
		return now.AddDate(-n, 0, 0), true
	}
	return time.Time{}, false
}
