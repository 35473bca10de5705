package enrich

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"trove/backend/engine/text/markdown"
	"trove/backend/store/tokens"
)

// memStats is an in-memory Stats: document frequencies of stems over a few
// documents, the way the index counts them.
type memStats struct {
	mu    sync.Mutex
	docs  []map[string]bool
	calls int
	asked [][]string
	err   error
}

func newMemStats(docs ...string) *memStats {
	s := &memStats{}
	for _, d := range docs {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			m[tokens.Stem(w)] = true
		}
		s.docs = append(s.docs, m)
	}
	return s
}

func (s *memStats) DocFreqs(_ context.Context, words []string) (int, map[string]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.asked = append(s.asked, slices.Clone(words))
	if s.err != nil {
		return 0, nil, s.err
	}
	df := map[string]int{}
	for _, w := range words {
		for _, d := range s.docs {
			if d[tokens.Stem(w)] {
				df[w]++
			}
		}
	}
	return len(s.docs), df, nil
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func enrichFile(t testing.TB, e Enricher, name string) Card {
	t.Helper()
	c, err := e.Enrich(context.Background(), Input{Path: "/home/p/docs/" + name, Filename: name, Text: readTestdata(t, name)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hasKeywordWord reports whether w is a keyword or a word of a keyword
// phrase.
func hasKeywordWord(kw []string, w string) bool {
	return slices.ContainsFunc(kw, func(k string) bool { return slices.Contains(strings.Fields(k), w) })
}

func countSentences(s string) int {
	n := 0
	splitSentences(s, func(string) { n++ })
	return n
}

// checkCard asserts what every card must satisfy.
func checkCard(t *testing.T, c Card) {
	t.Helper()
	if c.Title == "" {
		t.Error("empty title")
	}
	for _, s := range []string{c.Title, c.Summary} {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8: %q", s)
		}
	}
	if n := utf8.RuneCountInString(c.Summary); n >= 400 {
		t.Errorf("summary has %d characters", n)
	}
	if c.Summary != strings.Join(strings.Fields(c.Summary), " ") {
		t.Errorf("summary whitespace not normalised: %q", c.Summary)
	}
	if len(c.Keywords) > 10 {
		t.Errorf("%d keywords", len(c.Keywords))
	}
	seen := map[string]string{}
	for _, k := range c.Keywords {
		if k != strings.ToLower(k) || k == "" || !utf8.ValidString(k) {
			t.Errorf("keyword %q not lower-case text", k)
		}
		for _, w := range strings.Fields(k) {
			if stopwords[w] {
				t.Errorf("stop word %q in keywords %q", w, c.Keywords)
			}
			if hasDigitsOnly(w) {
				t.Errorf("number %q in keywords", w)
			}
			st := tokens.Stem(w)
			if prev, dup := seen[st]; dup {
				t.Errorf("keywords %q and %q share the stem %q", prev, k, st)
			}
			seen[st] = k
		}
	}
}

// inDocumentOrder asserts that each summary sentence occurs in the text,
// after the previous one.
func inDocumentOrder(t *testing.T, summary, text string) {
	t.Helper()
	flat := strings.Join(strings.Fields(markdown.Inline(text)), " ")
	pos := 0
	splitSentences(summary, func(s string) {
		s = strings.TrimSuffix(s, ".")
		i := strings.Index(flat[pos:], s)
		if i < 0 {
			t.Errorf("summary sentence %q not found after offset %d", s, pos)
			return
		}
		pos += i + len(s)
	})
}

func TestTestdataCards(t *testing.T) {
	cases := []struct {
		file, title string
		sentences   [2]int // min, max
		want        []string
		summaryHas  string
	}{
		{"meeting_notes_2024-03-01.md", "Harbour Street renovation: site meeting", [2]int{2, 3}, []string{"roof", "leak", "flashing", "slates", "insurance", "kitchen"}, "roof"},
		{"README.md", "Tidewater", [2]int{2, 3}, []string{"tidewater", "predictions"}, "command-line tool that downloads tide predictions"},
		{"the_lighthouse_keeper.txt", "The Lighthouse Keeper", [2]int{2, 3}, []string{"lighthouse", "lamp", "marten"}, "lighthouse"},
		{"ratelimit.go", "Ratelimit", [2]int{2, 3}, []string{"bucket", "tokens"}, "Package ratelimit throttles requests"},
		{"sales_q3.csv", "Sales Q3", [2]int{1, 1}, []string{"widget", "gadget", "revenue"}, "12 rows with columns date, region, product, units and revenue"},
	}
	e := NewBuiltin(nil)
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			c := enrichFile(t, e, tc.file)
			t.Logf("%+v", c)
			checkCard(t, c)
			if c.Title != tc.title {
				t.Errorf("title %q, want %q", c.Title, tc.title)
			}
			if n := countSentences(c.Summary); n < tc.sentences[0] || n > tc.sentences[1] {
				t.Errorf("%d sentences in %q", n, c.Summary)
			}
			if !strings.Contains(c.Summary, tc.summaryHas) {
				t.Errorf("summary %q lacks %q", c.Summary, tc.summaryHas)
			}
			if len(c.Keywords) < 5 {
				t.Errorf("only %d keywords: %q", len(c.Keywords), c.Keywords)
			}
			for _, w := range tc.want {
				if !hasKeywordWord(c.Keywords, w) {
					t.Errorf("keywords %q lack %q", c.Keywords, w)
				}
			}
			if c.By != BuiltinName {
				t.Errorf("By = %q", c.By)
			}
			if !strings.HasSuffix(tc.file, ".go") && !strings.HasSuffix(tc.file, ".csv") {
				inDocumentOrder(t, c.Summary, readTestdata(t, tc.file))
			}
		})
	}
}

func TestSummarySkipsBoilerplateAndCode(t *testing.T) {
	readme := enrichFile(t, NewBuiltin(nil), "README.md")
	for _, bad := range []string{"MIT License", "go install", "station | none", "config.toml"} {
		if strings.Contains(readme.Summary, bad) {
			t.Errorf("summary %q quotes %q", readme.Summary, bad)
		}
	}
	code := enrichFile(t, NewBuiltin(nil), "ratelimit.go")
	if strings.Contains(code.Summary, "Apache") || strings.Contains(code.Summary, "go:build") {
		t.Errorf("code summary quotes the licence or a directive: %q", code.Summary)
	}
	for _, k := range code.Keywords {
		if k == "license" || k == "apache" || k == "warranties" || k == "func" || k == "return" {
			t.Errorf("code keyword %q", k)
		}
	}
}

func TestTitleRules(t *testing.T) {
	body := "Some first line that is rather long and ends like a sentence, so it is not a title.\n\nMore text follows here for the summary to use."
	cases := []struct {
		name, title, text, file, want string
	}{
		{"document title", "Annual Report 2023", "# Heading\n\ntext", "x.docx", "Annual Report 2023"},
		{"untitled", "Untitled", "# Budget Review\n\nThe budget grew.", "x.docx", "Budget Review"},
		{"untitled numbered", "Untitled-3", "", "notes_final.txt", "Notes Final"},
		{"word placeholder", "Microsoft Word - plan.docx", "Project Plan\n\nWe will build a shed this summer.", "plan.docx", "Project Plan"},
		{"bare file name", "plan.docx", "", "plan.docx", "Plan"},
		{"file stem", "quarterly_report", "", "quarterly_report.pdf", "Quarterly Report"},
		{"setext heading", "", "Garden Plans\n============\n\nWe will plant roses.", "g.md", "Garden Plans"},
		{"first line", "", "Invoice for March Consulting\n\nThe invoice covers twelve hours of consulting work.", "inv.txt", "Invoice for March Consulting"},
		{"sentence first line", "", body, "Q3-quarterly_report.xlsx", "Q3 Quarterly Report"},
		{"dated file", "", "", "meeting_notes_2024-03-01.md", "Meeting Notes 2024-03-01"},
		{"camel case", "", "", "projectBudgetHTMLExport.txt", "Project Budget HTML Export"},
		{"small words", "", "", "minutes_of_the_board.txt", "Minutes of the Board"},
		{"double extension", "", "", "site-backup.tar.gz", "Site Backup"},
		{"empty name", "", "", "", "Untitled"},
		{"metadata first line", "", "Date: 2024-01-02\nAttendees: A, B\n\nWe met to discuss the new roof for the barn.", "barn_notes.txt", "Barn Notes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: tc.file, Title: tc.title, Text: tc.text})
			if err != nil {
				t.Fatal(err)
			}
			if c.Title != tc.want {
				t.Errorf("title %q, want %q", c.Title, tc.want)
			}
		})
	}
}

func TestMeaningfulTitle(t *testing.T) {
	for title, want := range map[string]bool{
		"": false, "Untitled": false, "untitled document": false, "Document1": false, "Slide 1": false,
		"Microsoft Word - report.docx": false, "report.docx": false, "IMG_2034.JPG": false, "   ": false, "1234": false,
		"Roof repair quote": true, "Q3 Report": true, "The Lighthouse Keeper": true,
	} {
		if got := meaningfulTitle(title, "report.docx"); got != want {
			t.Errorf("meaningfulTitle(%q) = %v", title, got)
		}
	}
}

func TestEmptyText(t *testing.T) {
	for _, text := range []string{"", "   \n\t\n"} {
		c, err := NewBuiltin(newMemStats("a")).Enrich(context.Background(), Input{Path: "/p/Holiday_photos-2023.jpg", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if c.Title != "Holiday Photos 2023" || c.Summary != "" || len(c.Keywords) != 0 {
			t.Errorf("card %+v", c)
		}
	}
}

func TestLongSentenceIsCutAtAWord(t *testing.T) {
	long := "The committee " + strings.Repeat("reviewed the proposal carefully and ", 40) + "approved it."
	c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "x.txt", Text: long})
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, c)
	if !strings.HasSuffix(c.Summary, "…") || utf8.RuneCountInString(c.Summary) < 300 {
		t.Fatalf("summary %q", c.Summary)
	}
	last := strings.Fields(strings.TrimSuffix(c.Summary, "…"))
	if w := last[len(last)-1]; !strings.Contains(long, " "+w+" ") {
		t.Errorf("cut inside a word: %q", w)
	}
}

func TestHugeInputIsBounded(t *testing.T) {
	story := readTestdata(t, "the_lighthouse_keeper.txt")
	var b strings.Builder
	for b.Len() < 10<<20 {
		b.WriteString(story)
		b.WriteString("\n\n")
	}
	text := b.String()
	if got := len(sample(text)); got > sampleWhole+sampleWindows*4 {
		t.Errorf("sample of 10 MB is %d bytes", got)
	}
	c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "big.txt", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, c)
	if c.Summary == "" || !hasKeywordWord(c.Keywords, "lighthouse") {
		t.Errorf("card %+v", c)
	}
	// A huge text without line breaks is sampled at rune boundaries.
	c, err = NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "x.txt", Text: strings.Repeat("é lighthouse ", 1<<18)})
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, c)
}

func TestDeterministic(t *testing.T) {
	stats := newMemStats(readTestdata(t, "README.md"), readTestdata(t, "the_lighthouse_keeper.txt"), "roof roof")
	e := NewBuiltin(stats)
	files := []string{"meeting_notes_2024-03-01.md", "README.md", "the_lighthouse_keeper.txt", "ratelimit.go", "sales_q3.csv"}
	want := map[string]Card{}
	for _, f := range files {
		want[f] = enrichFile(t, e, f)
	}
	// Again, concurrently, through pooled analyzers that held other files.
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(files))
	for range 4 {
		for _, f := range files {
			wg.Go(func() {
				c, err := e.Enrich(context.Background(), Input{Path: "/home/p/docs/" + f, Filename: f, Text: readTestdata(t, f)})
				if err != nil || c.Title != want[f].Title || c.Summary != want[f].Summary || !slices.Equal(c.Keywords, want[f].Keywords) {
					errs <- f
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for f := range errs {
		t.Errorf("%s: card differs between runs", f)
	}
}

func TestStatsShapeKeywords(t *testing.T) {
	// In an index where every document is about roofs, "roof" tells this
	// file apart less than in general English.
	docs := []string{}
	for i := range 60 {
		docs = append(docs, "roof leak report "+strings.Repeat("x", i))
	}
	stats := newMemStats(docs...)
	with := enrichFile(t, NewBuiltin(stats), "meeting_notes_2024-03-01.md")
	without := enrichFile(t, NewBuiltin(nil), "meeting_notes_2024-03-01.md")
	if stats.calls != 1 {
		t.Errorf("DocFreqs called %d times, want once", stats.calls)
	}
	asked := stats.asked[0]
	if len(asked) == 0 || len(asked) > 60 {
		t.Errorf("asked for %d words", len(asked))
	}
	for _, w := range asked {
		if w != strings.ToLower(w) || stopwords[w] {
			t.Errorf("asked for %q", w)
		}
	}
	rank := func(kw []string, w string) int {
		if i := slices.IndexFunc(kw, func(k string) bool { return slices.Contains(strings.Fields(k), w) }); i >= 0 {
			return i
		}
		return len(kw)
	}
	if rank(with.Keywords, "roof") <= rank(without.Keywords, "roof") {
		t.Errorf("a word in every indexed document did not drop: %q vs %q", with.Keywords, without.Keywords)
	}

	// An error or an empty index leaves the static prior.
	failing := newMemStats()
	failing.err = errors.New("database is locked")
	for _, s := range []Stats{failing, newMemStats()} {
		c := enrichFile(t, NewBuiltin(s), "meeting_notes_2024-03-01.md")
		if !slices.Equal(c.Keywords, without.Keywords) || c.Summary != without.Summary {
			t.Errorf("fallback keywords %q, want %q", c.Keywords, without.Keywords)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewBuiltin(nil).Enrich(ctx, Input{Filename: "a.txt", Text: "Some text here."}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestCodeWithoutComments(t *testing.T) {
	src := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greeting())\n}\n\nfunc greeting() string {\n\treturn \"hello\"\n}\n\ntype Server struct{}\n"
	c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "main.go", Text: src})
	if err != nil {
		t.Fatal(err)
	}
	if c.Summary != "Go source file declaring main, greeting and Server." {
		t.Errorf("summary %q", c.Summary)
	}
	py := "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"Resize every photo in a folder to fit a web page.\n\nOriginals are kept; resized copies go to a sub-folder.\n\"\"\"\nimport sys\n\ndef resize(path):\n    pass\n"
	c, err = NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "resize_photos.py", Text: py})
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "Resize Photos" || c.Summary != "Resize every photo in a folder to fit a web page. Originals are kept; resized copies go to a sub-folder." {
		t.Errorf("card %+v", c)
	}
}

func TestKeywordsSkipURLsAndNumbers(t *testing.T) {
	text := "The garden shed plans are at https://example.com/sheds/plans.html and www.shedsdirect.org. " +
		"Email shed.sales@example.com about the cedar shed. The cedar shed costs 1200 dollars and measures 2400 by 1800. " +
		"Cedar sheds last for decades; cedar resists rot without any treatment at all."
	c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "shed.txt", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, c)
	for _, k := range c.Keywords {
		for _, bad := range []string{"https", "example", "html", "shedsdirect", "sales", "1200", "org"} {
			if strings.Contains(k, bad) {
				t.Errorf("keyword %q from a URL, address or number", k)
			}
		}
	}
	if !hasKeywordWord(c.Keywords, "cedar") {
		t.Errorf("keywords %q", c.Keywords)
	}
}

func TestOtherLanguagesKeepFunctionWordsOut(t *testing.T) {
	de := "Der Wasserschaden im Schlafzimmer kam durch das Dach. Der Dachdecker hat die Schiefer und das Blech am Schornstein geprüft. " +
		"Die Reparatur des Dachs kostet etwa 1850 Euro, und die Versicherung soll den Schaden am Dach übernehmen."
	c, err := NewBuiltin(nil).Enrich(context.Background(), Input{Filename: "dach.txt", Text: de})
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, c)
	for _, k := range c.Keywords {
		if foreignStopwords[k] {
			t.Errorf("function word %q in %q", k, c.Keywords)
		}
	}
	if !hasKeywordWord(c.Keywords, "dach") {
		t.Errorf("keywords %q", c.Keywords)
	}
}

func TestOtherKindsOfText(t *testing.T) {
	cases := []struct {
		in      Input
		title   string
		summary string
		keyword string
	}{
		{Input{Filename: "groceries.md", Text: "# Groceries\n\n- milk\n- eggs\n- sourdough bread\n- olive oil\n"},
			"Groceries", "Milk, eggs, sourdough bread, olive oil.", "sourdough"},
		{Input{Filename: "re_roof_quote.eml", Title: "Re: Roof repair quote", Text: "From: Tom Becker <tom@becker-build.co.uk>\nSubject: Re: Roof repair quote\n\nHi Priya,\n\n" +
			"Please find attached the quote for the roof repair at Harbour Street. The price includes new lead flashing around the chimney.\n\n" +
			"Best regards,\nTom\n\n> On 1 Mar 2024, Priya Nair <priya@example.com> wrote:\n> Could you send the quote for the insurer?\n"},
			"Re: Roof repair quote", "Please find attached the quote for the roof repair at Harbour Street. The price includes new lead flashing around the chimney.", "quote"},
		{Input{Filename: "package.json", Text: "{\n  \"name\": \"tidewater-web\",\n  \"version\": \"1.2.0\",\n  \"scripts\": {\"build\": \"vite build\"},\n  \"dependencies\": {\"leaflet\": \"^1.9.4\"}\n}\n"},
			"Package", "JSON data with the keys name, version, scripts and dependencies.", "leaflet"},
		{Input{Filename: "config.yaml", Text: "# settings\nstation: 8443970\ndays: 3\ncache:\n  dir: ~/.cache/tidewater\n"},
			"Config", "YAML data with the keys station, days and cache.", "station"},
		{Input{Filename: "setup.cfg", Text: "[metadata]\nname = tidewater\n\n[options]\npackages = find:\n"},
			"Setup", "Configuration file with the sections metadata and options.", "tidewater"},
		{Input{Filename: "feed.xml", Mime: "application/xml", Text: "<?xml version=\"1.0\"?>\n<!-- tide feed -->\n<rss version=\"2.0\"><channel><title>Tides</title></channel></rss>"},
			"Feed", "XML document with the root element rss.", "tide"},
		{Input{Filename: "server.log", Text: "2024-03-01 10:00:01 INFO starting server on :8080\n2024-03-01 10:05:13 ERROR station 8443970 lookup failed: timeout\n"},
			"Server", "", "timeout"},
	}
	for _, tc := range cases {
		t.Run(tc.in.Filename, func(t *testing.T) {
			c, err := NewBuiltin(nil).Enrich(context.Background(), tc.in)
			if err != nil {
				t.Fatal(err)
			}
			checkCard(t, c)
			if c.Title != tc.title || c.Summary != tc.summary {
				t.Errorf("card %+v\nwant title %q, summary %q", c, tc.title, tc.summary)
			}
			if !hasKeywordWord(c.Keywords, tc.keyword) {
				t.Errorf("keywords %q lack %q", c.Keywords, tc.keyword)
			}
			for _, bad := range []string{"regards", "wrote", "true", "null"} {
				if hasKeywordWord(c.Keywords, bad) {
					t.Errorf("keyword %q in %q", bad, c.Keywords)
				}
			}
		})
	}
}
