// Package query parses what people type into the search box: natural
// language plus a small query language, into a structure the search engine
// turns into full-text expressions. Nothing typed reaches SQLite's query
// syntax unquoted, so no input can break it.
//
//	roof leak             words: files matching more of them rank higher
//	"roof leak"           an exact phrase
//	quart*                a prefix
//	-draft                exclude files containing the word (or -"phrase"; "--draft", "-1" are text)
//	roof OR gutter        either word (the default for words; useful with phrases)
//	ext:pdf ext:.docx     only these extensions (repeatable: any of them)
//	in:notes in:/home/me  only below a folder: a folder name anywhere in the path, or an absolute path
//	after:2024-01-01      modified on or after a day (also 2024-01, 2024)
//	before:2024-06-30     modified before the end of that day
//
// A query of more than PassageWords words is a pasted passage, read as
// text: prose and code are full of quotes, dashes and colons that would
// otherwise turn into phrases, exclusions and filters.
package query

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Term is one searchable unit.
type Term struct {
	Text   string // the words, as typed (tokenised later)
	Phrase bool   // quoted: the words must appear together, in order
	Prefix bool   // ends with *: any word starting with Text
}

// Query is a parsed search.
type Query struct {
	Terms    []Term // the positive part: a file matching more of them ranks higher
	Excluded []Term // files containing any of these are dropped
	Exts     []string
	In       []string
	After    time.Time // modified on or after; zero when unset
	Before   time.Time // modified before; zero when unset
	// The other fields (fields.go): each restricts the files.
	Names   []string  // globs on the file name: any of them
	Paths   []string  // globs on the path: any of them
	Kinds   []string  // kinds as typed (the search engine knows which exist)
	Size    SizeRange // size:
	Created TimeRange // created:
	Langs   []string  // lang:
	Meta    []Meta    // metadata fields: every one must hold
	// Fields are the fields as typed, for a client to show.
	Fields []Field
	// Unknown are the keys of key:value words that look like fields but
	// are none ("auther:smith"); the API refuses the query, naming the
	// fields that exist.
	Unknown []string
	// Errors are problems with operators (a bad date); the rest of the query
	// still works. The API reports them as a 400.
	Errors []string
	// Passage says the query was read as text, operators included (more
	// than PassageWords words).
	Passage bool
}

// PassageWords is the most words a query may hold and still be read as
// query language. Past it the query is a pasted passage, to find the file
// it came from or files like it, and its syntax is text: "-trimpath" in a
// pasted command line dropped the very file it was pasted from, and an
// opening quote made the rest of a paragraph one phrase.
const PassageWords = 32

// maxTerms bounds the phrases, prefixes and exclusions of a query, each of
// which costs a full-text lookup (quotes need no spaces between them:
// `"a""b""c"` is three phrases in one word). A passage's plain words are
// not bounded here: the search engine keeps its most telling words for
// keywords and gives the whole text to the embedder.
const maxTerms = 32

// MaxLength bounds the query text, in characters (not bytes): room for a
// long question in natural language. The API refuses longer queries; the
// parser reads no further.
const MaxLength = 10000

// Prefixes cost the most: the index merges the entries of every word a
// prefix starts. A prefix shorter than minPrefix characters ("a*") starts a
// large part of any vocabulary, so it is searched as a word; and one query
// searches at most maxPrefixes prefixes (the first ones), the rest as words.
const (
	minPrefix   = 2
	maxPrefixes = 8
)

// Parse reads a query. It never fails: malformed operators are reported in
// Errors, stray syntax is treated as text.
func Parse(s string) Query { return ParseAt(s, time.Now()) }

// ParseAt reads a query at the time now, from which a time ago
// ("modified:-7d") counts.
func ParseAt(s string, now time.Time) Query {
	q := Query{Size: SizeRange{Max: math.MaxInt64}}
	s = strings.ToValidUTF8(s, " ")
	if utf8.RuneCountInString(s) > MaxLength {
		s = string([]rune(s)[:MaxLength])
	}
	if words := wordsOf(s); len(words) > PassageWords {
		q.Passage = true
		for _, w := range words {
			q.Terms = append(q.Terms, Term{Text: w})
		}
		return q
	}
	for _, tok := range lex(s) {
		q.add(tok, now)
	}
	special := 0
	q.Terms = slices.DeleteFunc(q.Terms, func(t Term) bool {
		if t.Phrase || t.Prefix {
			special++
			return special > maxTerms
		}
		return false
	})
	if len(q.Excluded) > maxTerms {
		q.Excluded = q.Excluded[:maxTerms]
	}
	boundPrefixes(q.Terms, q.Excluded)
	return q
}

// boundPrefixes searches as words the prefixes that are too short, and
// those beyond the first maxPrefixes.
func boundPrefixes(lists ...[]Term) {
	n := 0
	for _, terms := range lists {
		for i, t := range terms {
			if !t.Prefix {
				continue
			}
			if n >= maxPrefixes || utf8.RuneCountInString(lastWord(t.Text)) < minPrefix {
				terms[i].Prefix = false
				continue
			}
			n++
		}
	}
}

// lastWord is the run of letters and digits that ends text.
func lastWord(text string) string {
	start := len(text)
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			break
		}
		start -= size
	}
	return text[start:]
}

// token is a lexed unit: a word or phrase with its prefix markers.
type token struct {
	text    string
	quoted  bool
	negated bool
	field   string // key:"quoted value": the key (lower case); text is the value
}

// globField is the field a bare glob restricts: the name, or the path when
// it holds a "/".
func globField(glob string) string {
	if strings.Contains(glob, "/") {
		return "path"
	}
	return "name"
}

// quotedField reads key:"value" at the start of s, for the fields whose
// values hold spaces (author:"Jane Doe"): the key, the value and the bytes
// they take. Other keys stay as they were (`type:"string"` is code).
func quotedField(s string) (key, val string, n int, ok bool) {
	colon := strings.Index(s, ":\"")
	if colon < 2 || !slices.Contains(quotable, strings.ToLower(s[:colon])) {
		return "", "", 0, false
	}
	end := strings.IndexByte(s[colon+2:], '"')
	if end < 0 {
		return strings.ToLower(s[:colon]), s[colon+2:], len(s), true
	}
	return strings.ToLower(s[:colon]), s[colon+2 : colon+2+end], colon + 3 + end, true
}

// lex splits on spaces, keeping quoted phrases together. An unclosed quote
// runs to the end.
func lex(s string) []token {
	var out []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		// "-draft" and -"old copy" drop what follows; "--user" (a
		// command-line option), "-1" and "->" are text, as in pasted code.
		negated := false
		if r == '-' && i+1 < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.IsLetter(next) || next == '"' {
				negated = true
				i++
			}
		}
		if key, val, n, ok := quotedField(s[i:]); ok {
			out = append(out, token{text: val, field: key, negated: negated})
			i += n
			continue
		}
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				out = append(out, token{text: s[i+1:], quoted: true, negated: negated})
				break
			}
			out = append(out, token{text: s[i+1 : i+1+end], quoted: true, negated: negated})
			i += end + 2
			if i < len(s) && s[i] == '*' { // "phrase"* : prefix of the last word
				out[len(out)-1].text += "*"
				i++
			}
			continue
		}
		end := strings.IndexFunc(s[i:], unicode.IsSpace)
		if end < 0 {
			end = len(s) - i
		}
		out = append(out, token{text: s[i : i+end], negated: negated})
		i += end
	}
	return out
}

func (q *Query) add(t token, now time.Time) {
	if t.field != "" {
		if q.field(t.field, t.text, now) {
			return
		}
		t = token{text: t.field + ":" + t.text, negated: t.negated} // a quoted value of no field: text
	}
	if !t.quoted {
		if t.text == "OR" || t.text == "|" {
			return // OR is what words do anyway
		}
		if key, val, ok := strings.Cut(t.text, ":"); ok && !t.negated && q.field(key, val, now) {
			return
		}
		if !t.negated && bareGlob(t.text) {
			q.glob(globField(t.text), t.text)
			q.Fields = append(q.Fields, Field{Name: globField(t.text), Value: t.text})
			return
		}
	}
	term := Term{Text: t.text, Phrase: t.quoted}
	if strings.HasSuffix(term.Text, "*") {
		term.Text = strings.TrimRight(term.Text, "*")
		term.Prefix = true
	}
	if !hasWord(term.Text) {
		return // nothing searchable: "*", "-", "(", ...
	}
	if t.negated {
		q.Excluded = append(q.Excluded, term)
	} else {
		q.Terms = append(q.Terms, term)
	}
}

// operator applies key:value when key is an operator; it reports whether it
// was one. An unknown key ("a:b", "http://x") is not: it stays text.
func (q *Query) operator(key, val string) bool {
	switch key {
	case "ext", "type":
		var exts []string
		for _, e := range strings.Split(val, ",") {
			if e = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(e), ".")); e != "" {
				exts = append(exts, "."+e)
			}
		}
		// `type: "string"` or `type:[]byte` in pasted code is text.
		if len(exts) == 0 || slices.ContainsFunc(exts, func(e string) bool { return !isExt(e) }) {
			return false
		}
		q.Exts = append(q.Exts, exts...)
	case "in", "folder":
		if val != "" {
			q.In = append(q.In, val)
		}
	case "after", "since":
		day, _, err := parseDay(val)
		if err != "" {
			q.Errors = append(q.Errors, "after: "+err)
		}
		q.After = day
	case "before", "until":
		_, end, err := parseDay(val)
		if err != "" {
			q.Errors = append(q.Errors, "before: "+err)
		}
		q.Before = end
	default:
		return false
	}
	return true
}

// isExt reports whether e (with its dot) looks like a file extension:
// letters and digits, with "." "_" "-" "+" between them ("tar.gz",
// "c++"), at most maxExt characters.
func isExt(e string) bool {
	body := e[1:]
	if body == "" || utf8.RuneCountInString(body) > maxExt {
		return false
	}
	return strings.IndexFunc(body, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-+", r)
	}) < 0
}

// maxExt is the longest extension ext: accepts.
const maxExt = 16

// parseDay reads YYYY-MM-DD, YYYY-MM or YYYY in local time and returns the
// start of that period and the start of the next.
func parseDay(s string) (start, next time.Time, problem string) {
	for _, f := range []struct {
		layout string
		step   func(time.Time) time.Time
	}{
		{"2006-01-02", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
	} {
		if t, err := time.ParseInLocation(f.layout, s, time.Local); err == nil {
			return t, f.step(t), ""
		}
	}
	return time.Time{}, time.Time{}, "\"" + s + "\" is not a date (use YYYY-MM-DD, YYYY-MM or YYYY)"
}

// wordsOf splits s at spaces into the pieces that hold a letter or a
// digit: a passage's terms, and what PassageWords counts.
func wordsOf(s string) []string {
	return slices.DeleteFunc(strings.Fields(s), func(f string) bool { return !hasWord(f) })
}

func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// Empty reports whether the query has nothing to search for and no filter.
func (q Query) Empty() bool {
	return len(q.Terms) == 0 && len(q.Exts) == 0 && len(q.In) == 0 && q.After.IsZero() && q.Before.IsZero() &&
		len(q.Names) == 0 && len(q.Paths) == 0 && len(q.Kinds) == 0 && q.Size.Any() && q.Created == (TimeRange{}) &&
		len(q.Langs) == 0 && len(q.Meta) == 0
}
