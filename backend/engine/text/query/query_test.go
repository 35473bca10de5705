package query

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	q := Parse(`roof "water damage" quart* -draft -"old copy" ext:pdf ext:.DOCX in:notes after:2024-01-15 before:2024-06 OR gutter`)
	want := []Term{{Text: "roof"}, {Text: "water damage", Phrase: true}, {Text: "quart", Prefix: true}, {Text: "gutter"}}
	if !reflect.DeepEqual(q.Terms, want) {
		t.Errorf("terms %+v", q.Terms)
	}
	if !reflect.DeepEqual(q.Excluded, []Term{{Text: "draft"}, {Text: "old copy", Phrase: true}}) {
		t.Errorf("excluded %+v", q.Excluded)
	}
	if !reflect.DeepEqual(q.Exts, []string{".pdf", ".docx"}) || !reflect.DeepEqual(q.In, []string{"notes"}) {
		t.Errorf("exts %v in %v", q.Exts, q.In)
	}
	if !q.After.Equal(time.Date(2024, 1, 15, 0, 0, 0, 0, time.Local)) || !q.Before.Equal(time.Date(2024, 7, 1, 0, 0, 0, 0, time.Local)) {
		t.Errorf("after %v before %v", q.After, q.Before)
	}
	if len(q.Errors) != 0 {
		t.Errorf("errors %v", q.Errors)
	}
}

func TestHostileInputStaysText(t *testing.T) {
	for _, in := range []string{`"unclosed`, `AND`, `NEAR(`, `*`, `a:b`, `'; DROP TABLE files; --`, `"a" NOT "b"`, `title:x`, `^`, `""`, `-`, `---`, `"*"`} {
		q := Parse(in)
		for _, term := range append(q.Terms, q.Excluded...) {
			if !hasWord(term.Text) {
				t.Errorf("%q produced an empty term %+v", in, term)
			}
		}
	}
	if q := Parse(`a:b`); len(q.Terms) != 1 || q.Terms[0].Text != "a:b" {
		t.Errorf("unknown operator must stay text: %+v", q)
	}
	if q := Parse(`"unclosed phrase`); len(q.Terms) != 1 || !q.Terms[0].Phrase || q.Terms[0].Text != "unclosed phrase" {
		t.Errorf("unclosed quote: %+v", q)
	}
	if q := Parse(`*`); !q.Empty() {
		t.Errorf("a lone star is not a query: %+v", q)
	}
}

func TestBadDateIsReported(t *testing.T) {
	q := Parse("after:yesterday roof")
	if len(q.Errors) != 1 || !strings.Contains(q.Errors[0], "yesterday") || len(q.Terms) != 1 {
		t.Fatalf("%+v", q)
	}
}

func TestLimits(t *testing.T) {
	// Quotes need no spaces: one word of the query can hold many phrases.
	q := Parse(strings.Repeat(`"a"`, 300) + strings.Repeat(`"pre"*`, 300) + " " + strings.Repeat(`-"not"`, 500))
	if q.Passage || special(q.Terms) != maxTerms || len(q.Excluded) != maxTerms {
		t.Fatalf("%d phrases and prefixes, %d exclusions (a passage: %v)", special(q.Terms), len(q.Excluded), q.Passage)
	}
	// Plain words are all kept, up to MaxLength characters: a pasted page.
	q = Parse(strings.Repeat("wörd ", 3000))
	if len(q.Terms) != MaxLength/5 {
		t.Fatalf("%d words of a %d-character query", len(q.Terms), MaxLength)
	}
}

func special(ts []Term) int {
	n := 0
	for _, t := range ts {
		if t.Phrase || t.Prefix {
			n++
		}
	}
	return n
}

// A prefix storm costs no more than a few prefixes: single letters are
// words, and only the first maxPrefixes prefixes stay prefixes.
func TestPrefixesAreBounded(t *testing.T) {
	var storm []string
	for c := 'a'; c <= 'i'; c++ { // 30 words in all: not a passage
		storm = append(storm, string(c)+"*", "-"+string(c)+"x*", string(c)+"é*")
	}
	q := Parse(strings.Join(storm, " ") + ` "x y"* é*`)
	n := 0
	for _, term := range append(q.Terms, q.Excluded...) {
		if term.Prefix {
			n++
			if utf8.RuneCountInString(lastWord(term.Text)) < minPrefix {
				t.Errorf("prefix %q is too short", term.Text)
			}
		}
	}
	if n != maxPrefixes {
		t.Fatalf("%d prefixes", n)
	}
	if q := Parse("é* ab* quart*"); q.Terms[0].Prefix || !q.Terms[1].Prefix || !q.Terms[2].Prefix {
		t.Fatalf("%+v", q.Terms)
	}
}

// The length limit counts characters: a query of MaxLength two-byte
// characters is read whole.
func TestLengthInCharacters(t *testing.T) {
	q := Parse(strings.Repeat("é", MaxLength-1) + "z")
	if len(q.Terms) != 1 || !strings.HasSuffix(q.Terms[0].Text, "z") {
		t.Fatalf("the end of the query was cut: %d terms", len(q.Terms))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`roof "water damage" -draft ext:pdf in:notes after:2024-01-01`, `"unclosed`, `NEAR(a b)`, `-"x" *`, "\xff\xfe", `a:b:c`, `"a"*`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Parse(s)
		for _, term := range append(q.Terms, q.Excluded...) {
			// A passage's terms are text, stars included.
			if !hasWord(term.Text) || !utf8.ValidString(term.Text) || strings.HasSuffix(term.Text, "*") && !term.Phrase && !q.Passage {
				t.Fatalf("bad term %+v from %q", term, s)
			}
		}
		if special(q.Terms) > maxTerms || len(q.Excluded) > maxTerms {
			t.Fatal("too many terms")
		}
		n := 0
		for _, term := range append(q.Terms, q.Excluded...) {
			if term.Prefix {
				n++
			}
		}
		if n > maxPrefixes {
			t.Fatalf("%d prefixes from %q", n, s)
		}
	})
}

// A query of more than PassageWords words is a pasted passage: its quotes,
// dashes, stars and colons are text, so a paragraph or a piece of code
// finds the file it came from.
func TestPassageIsText(t *testing.T) {
	code := `// runtime.GOROOT doesn't know where GOROOT is (perhaps because the test
		// binary was built with -trimpath). See "the notes" after:lunch ext:pdf in:notes
		// if it is not, the user may fix what they broke, or ask
		for _, v := range strings.Fields(cfg.KnownEnv) { os.Getenv(v) } -x OR y* z`
	if n := len(wordsOf(code)); n <= PassageWords {
		t.Fatalf("%d words: not a passage", n)
	}
	q := Parse(code)
	if !q.Passage || len(q.Excluded) > 0 || special(q.Terms) > 0 || len(q.Exts) > 0 || len(q.In) > 0 ||
		!q.After.IsZero() || len(q.Errors) > 0 {
		t.Fatalf("operators applied in a passage: %+v", q)
	}
	var words []string
	for _, term := range q.Terms {
		words = append(words, term.Text)
	}
	for _, w := range []string{"-trimpath).", `"the`, "after:lunch", "ext:pdf", "-x", "OR", "y*"} {
		if !slices.Contains(words, w) {
			t.Errorf("%q is not kept as text: %q", w, words)
		}
	}
	// The same operators in a query of PassageWords words still work.
	fields := strings.Fields(code)
	short := fields[len(fields)-PassageWords:] // fewer words: some fields are "{" or "//"
	if q := Parse(strings.Join(short, " ")); q.Passage || len(q.Excluded) != 1 || len(q.Exts) != 1 || len(q.In) != 1 {
		t.Fatalf("a query of %d words is read as a passage: %+v", PassageWords, q)
	}
}

// Pasted commands and code are text: "--user" is not an exclusion of
// "user", "-1" not one of "1", and `type: "string"` no filter.
func TestCodeIsText(t *testing.T) {
	q := Parse(`busctl --user get-property - return -1, err; x->y type:"string" type:[]byte -draft ext:tar.gz`)
	if len(q.Excluded) != 1 || q.Excluded[0].Text != "draft" {
		t.Fatalf("excluded %+v, want draft alone", q.Excluded)
	}
	if !slices.Equal(q.Exts, []string{".tar.gz"}) {
		t.Fatalf("extensions %q, want .tar.gz alone", q.Exts)
	}
	var words []string
	for _, term := range q.Terms {
		words = append(words, term.Text)
	}
	for _, w := range []string{"--user", "-1,", "x->y", `type:"string"`, "type:[]byte"} {
		if !slices.Contains(words, w) {
			t.Errorf("%q is not searched: %q", w, words)
		}
	}
}
